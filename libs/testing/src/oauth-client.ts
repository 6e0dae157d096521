import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** A token endpoint's answer. */
export interface OAuthTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

/** A PKCE pair (S256). */
export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** A session page's CSRF token. */
export const csrfOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1];

/** The cookies a response sets, as a `cookie` request header. */
export const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

/** A page's hidden form fields (what a browser posts back). */
export const hiddenFields = (html: string): Record<string, string> =>
  Object.fromEntries([...html.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]));

/**
 * Plain-HTTP steps of a service's sign-in and OAuth flows (the `@shared/oauth` and `@shared/browser-session` routes)
 * against a listening API: what a browser and an app do, for the tests of both services.
 */
export function oauthTestClient(origin: string) {
  const post = (pathname: string, body: Record<string, unknown>, as: 'json' | 'form' = 'form', headers: Record<string, string> = {}) =>
    fetch(`${origin}${pathname}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': as === 'json' ? 'application/json' : 'application/x-www-form-urlencoded', ...headers },
      body: as === 'json' ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString(),
    });

  /** A signed-in session's cookie, through the sign-in form like a browser. */
  const signIn = async (email: string, password: string, extra: Record<string, string> = {}): Promise<string> => {
    const form = await fetch(`${origin}/account/sign-in`);
    const res = await post('/account/sign-in', { email, password, csrf_token: csrfOf(await form.text()), ...extra }, 'form', { cookie: cookieOf(form) });
    if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
    return cookieOf(res);
  };

  const authorizeUrl = (clientId: string, callback: string, challenge: string, scope: string, extra: Record<string, string> = {}) =>
    `${origin}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st-123',
      scope,
      ...extra,
    }).toString()}`;

  const register = async (callback: string, scope: string, extra: Record<string, unknown> = {}): Promise<string> => {
    const res = await post('/oauth/register', { client_name: 'Claude Desktop', redirect_uris: [callback], scope, ...extra }, 'json');
    if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { client_id: string }).client_id;
  };

  /** Consent over plain HTTP with a signed-in cookie (plus the service's own choices): the redirect back to the client. */
  const approve = async (cookie: string, url: string, choices: Record<string, string> = {}): Promise<URL> => {
    const page = await fetch(url, { headers: { cookie } });
    if (page.status !== 200) throw new Error(`authorize answered ${page.status}`);
    const res = await post('/oauth/authorize', { ...hiddenFields(await page.text()), ...choices, decision: 'approve' }, 'form', { cookie });
    if (res.status !== 303) throw new Error(`the decision answered ${res.status}`);
    return new URL(res.headers.get('location')!);
  };

  const exchange = (clientId: string, callback: string, code: string, verifier: string) =>
    post('/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: callback });

  /** Approved with a session cookie and exchanged: a fresh token pair. */
  const tokensWith = async (cookie: string, clientId: string, callback: string, scope: string, choices?: Record<string, string>): Promise<OAuthTokens> => {
    const { verifier, challenge } = pkce();
    const redirect = await approve(cookie, authorizeUrl(clientId, callback, challenge, scope), choices);
    const res = await exchange(clientId, callback, redirect.searchParams.get('code')!, verifier);
    return (await res.json()) as OAuthTokens;
  };

  return { post, signIn, authorizeUrl, register, approve, exchange, tokensWith };
}

export type OAuthTestClient = ReturnType<typeof oauthTestClient>;

/** An app's redirect target on loopback (answers every request with a plain page); `url` is its `/callback`. */
export async function oauthCallbackServer(): Promise<{ url: string; close(): void }> {
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, close: () => server.close() };
}

/**
 * In Chromium, from an authorization request that landed on the sign-in page to the consent page: a wrong password
 * first (its alert), then the right one. Screenshots `sign-in.png` and `sign-in-error.png` go to `screenshots`.
 */
export async function signInInBrowser(page: Page, account: { email: string; password: string }, screenshots: string): Promise<void> {
  if (new URL(page.url()).pathname !== '/account/sign-in') throw new Error(`expected the sign-in page, not ${page.url()}`);
  await page.screenshot({ path: path.join(screenshots, 'sign-in.png'), fullPage: true });
  await page.fill('#email', account.email);
  await page.fill('#password', 'not the password');
  await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
  const alert = await page.textContent('[role=alert]');
  if (!alert?.includes('do not match')) throw new Error(`a wrong password showed: ${alert}`);
  await page.screenshot({ path: path.join(screenshots, 'sign-in-error.png'), fullPage: true });
  await page.fill('#password', account.password);
  await Promise.all([page.waitForURL(/\/oauth\/authorize/), page.click('button[type=submit]')]);
}

/** Screenshots of the consent page, `consent.png` and `consent-phone.png` (390 px wide); the viewport is put back. */
export async function screenshotConsent(page: Page, screenshots: string): Promise<void> {
  const viewport = page.viewportSize();
  await page.screenshot({ path: path.join(screenshots, 'consent.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(screenshots, 'consent-phone.png'), fullPage: true });
  if (viewport) await page.setViewportSize(viewport);
}

/** Allows access on the consent page: the redirect back to the app, with its code. */
export async function approveInBrowser(page: Page): Promise<URL> {
  await Promise.all([page.waitForURL(/\/callback\?/), page.click('button[value=approve]')]);
  return new URL(page.url());
}
