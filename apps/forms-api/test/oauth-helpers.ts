import { createHash, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const PASSWORD = 'correct horse battery staple';

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export const csrfOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1];
export const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
export const hiddenFields = (html: string) =>
  Object.fromEntries([...html.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]));

/** Plain-HTTP steps of the forms service's browser and OAuth flows, against a listening forms-api. */
export function oauthClient(origin: string) {
  const post = (pathname: string, body: Record<string, unknown>, as: 'json' | 'form' = 'form', headers: Record<string, string> = {}) =>
    fetch(`${origin}${pathname}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': as === 'json' ? 'application/json' : 'application/x-www-form-urlencoded', ...headers },
      body: as === 'json' ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString(),
    });

  /** A signed-in session's cookie, through the sign-in form like a browser. */
  const signIn = async (email: string, password = PASSWORD): Promise<string> => {
    const form = await fetch(`${origin}/account/sign-in`);
    const res = await post('/account/sign-in', { email, password, csrf_token: csrfOf(await form.text()) }, 'form', { cookie: cookieOf(form) });
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

  const register = async (callback: string, scope: string, name = 'Claude Desktop'): Promise<string> => {
    const res = await post('/oauth/register', { client_name: name, redirect_uris: [callback], scope }, 'json');
    if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { client_id: string }).client_id;
  };

  /** Consent over plain HTTP with a signed-in cookie: the redirect back to the client. */
  const approve = async (cookie: string, url: string): Promise<URL> => {
    const page = await fetch(url, { headers: { cookie } });
    if (page.status !== 200) throw new Error(`authorize answered ${page.status}`);
    const res = await post('/oauth/authorize', { ...hiddenFields(await page.text()), decision: 'approve' }, 'form', { cookie });
    return new URL(res.headers.get('location')!);
  };

  const exchange = (clientId: string, callback: string, code: string, verifier: string) =>
    post('/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: callback });

  /** Registered, signed in, approved and exchanged: a fresh token pair for the owner. */
  const tokensFor = async (email: string, callback: string, scope: string, name?: string): Promise<Tokens & { clientId: string }> => {
    const clientId = await register(callback, scope, name);
    const { verifier, challenge } = pkce();
    const redirect = await approve(await signIn(email), authorizeUrl(clientId, callback, challenge, scope));
    const res = await exchange(clientId, callback, redirect.searchParams.get('code')!, verifier);
    return { ...((await res.json()) as Tokens), clientId };
  };

  const mcp = async (token: string): Promise<Client> => {
    const client = new Client({ name: 'forms-oauth-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  };

  return { post, signIn, authorizeUrl, register, approve, exchange, tokensFor, mcp };
}
