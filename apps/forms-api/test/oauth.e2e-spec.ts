/**
 * The forms service's OAuth 2.1 authorization server end to end: the full dance in headless Chromium (register,
 * authorize with PKCE, sign in, consent, exchange, MCP on /api/mcp with the token, refresh, revoke, 401), then the
 * refusals over plain HTTP, live workspace access, scopes on tools, and connected apps. Screenshots of the three pages
 * go to `<tmp>/postline-forms-oauth-screenshots/` for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { APP_CONFIG, AppConfig } from '@shared/config';
import {
  approveInBrowser,
  launchChromium,
  listenOnLoopback,
  oauthCallbackServer,
  screenshotConsent,
  signInInBrowser,
  uniqueQueuePrefix,
} from '@shared/testing';
import { OwnerSignIn } from '@forms/oauth';
import { formsApi, FormsApiHarness } from './helpers';
import { cookieOf, csrfOf, hiddenFields, oauthClient, PASSWORD, pkce, Tokens } from './oauth-helpers';

const SCREENSHOTS = path.join(tmpdir(), 'postline-forms-oauth-screenshots');
const SCOPES = 'forms:read forms:create forms:publish forms:steps:write forms:fields:write submissions:read';
const EMAIL = 'owner@example.com';

type Structured = { operation_id: string; response?: Record<string, unknown>; error?: { category: string; code: string; status: number } };

describe('forms-api: OAuth 2.1 authorization server, sign-in and consent', () => {
  let h: FormsApiHarness;
  let origin: string;
  let browser: Browser;
  let callbackServer: { url: string; close(): void };
  let callback: string;
  let o: ReturnType<typeof oauthClient>;
  const clients: Client[] = [];

  beforeAll(async () => {
    // Its own Redis namespace: the registration and sign-in limits count per address, across runs.
    h = await formsApi({ QUEUE_PREFIX: uniqueQueuePrefix() });
    origin = await listenOnLoopback(h.app);
    o = oauthClient(origin);
    await h.app.get(OwnerSignIn).setPassword(EMAIL, PASSWORD);
    callbackServer = await oauthCallbackServer();
    callback = callbackServer.url;
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await browser?.close();
    callbackServer?.close();
    await h?.close();
  });

  const mcp = async (token: string) => {
    const client = await o.mcp(token);
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    ((await client.callTool({ name, arguments: args })) as CallToolResult).structuredContent as Structured;
  const tokens = (scope = SCOPES, name?: string) => o.tokensFor(EMAIL, callback, scope, name);
  const refresh = (clientId: string, refreshToken: string) =>
    o.post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });

  it('publishes the authorization server metadata and names it from the MCP protected-resource metadata', async () => {
    const server = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      authorization_endpoint: `${server.issuer as string}/oauth/authorize`,
      token_endpoint: `${server.issuer as string}/oauth/token`,
      registration_endpoint: `${server.issuer as string}/oauth/register`,
      revocation_endpoint: `${server.issuer as string}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      scopes_supported: expect.arrayContaining(['forms:read', 'submissions:read']),
    });
    const resource = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/api/mcp`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: `${server.issuer as string}/api/mcp`, authorization_servers: [server.issuer] });
  });

  it('runs the whole dance in Chromium: register, authorize with PKCE, sign in, consent, exchange, MCP, refresh, revoke, 401', async () => {
    const clientId = await o.register(callback, SCOPES);
    const { verifier, challenge } = pkce();
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(o.authorizeUrl(clientId, callback, challenge, SCOPES));
    await signInInBrowser(page, { email: EMAIL, password: PASSWORD }, SCREENSHOTS);
    expect(await page.textContent('h1')).toBe('Allow Claude Desktop to use your forms?');
    const consent = await page.textContent('main');
    expect(consent).toContain('See and export form responses');
    expect(consent).toContain('Your role: owner');
    await screenshotConsent(page, SCREENSHOTS);
    const redirect = await approveInBrowser(page);
    expect(redirect.searchParams.get('state')).toBe('st-123');
    expect(redirect.searchParams.get('iss')).toBe(h.app.get<AppConfig>(APP_CONFIG).formsPublicBaseUrl);

    const exchanged = await o.exchange(clientId, callback, redirect.searchParams.get('code')!, verifier);
    expect(exchanged.headers.get('cache-control')).toBe('no-store');
    const first = (await exchanged.json()) as Tokens;
    expect(first).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: SCOPES });
    expect(first.access_token).toMatch(/^pfa_[A-Za-z0-9_-]{43}$/);
    expect(first.refresh_token).toMatch(/^pfr_[A-Za-z0-9_-]{43}$/);

    const client = await mcp(first.access_token);
    const workspaces = await call(client, 'postline_list_workspaces');
    expect(workspaces.response).toMatchObject({ recommendedCreateWorkspaceId: h.main.workspaceId });
    const created = await call(client, 'postline_create_form', { idempotencyKey: 'oauth-1', title: 'Made over OAuth' });
    expect(created.error).toBeUndefined();
    const me = await call(client, 'postline_get_capabilities');
    expect(me.response).toMatchObject({ owner: { email: EMAIL }, api_key: { name: 'Claude Desktop', prefix: 'pfa_', last4: first.access_token.slice(-4) } });
    expect(JSON.stringify(me)).not.toContain(first.access_token);

    const refreshed = await refresh(clientId, first.refresh_token);
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as Tokens;
    expect(next.refresh_token).not.toBe(first.refresh_token);
    const again = await mcp(next.access_token);
    expect((await call(again, 'postline_list_workspace_forms')).error).toBeUndefined();

    expect((await o.post('/oauth/revoke', { token: next.refresh_token, client_id: clientId })).status).toBe(200);
    for (const token of [first.access_token, next.access_token]) {
      const res = await h.as(token).get('/api/v1/me');
      expect([res.status, res.body.error.code]).toEqual([401, 'credential_revoked']);
    }
    await expect(again.callTool({ name: 'postline_list_workspaces', arguments: {} })).rejects.toMatchObject({ code: 401 });

    await page.setViewportSize({ width: 1000, height: 800 });
    await page.goto(`${origin}/account/connected-apps`);
    expect(await page.textContent('table')).toContain('Claude Desktop');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'connected-apps.png'), fullPage: true });
    await page.close();
  });

  it('refuses a wrong PKCE verifier, and a reused code revokes what the code issued', async () => {
    const clientId = await o.register(callback, SCOPES);
    const cookie = await o.signIn(EMAIL);
    const { verifier, challenge } = pkce();
    const code = (await o.approve(cookie, o.authorizeUrl(clientId, callback, challenge, SCOPES))).searchParams.get('code')!;
    const wrong = await o.exchange(clientId, callback, code, pkce().verifier);
    expect([wrong.status, ((await wrong.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    expect((await o.exchange(clientId, callback, code, verifier)).status).toBe(400);

    const second = pkce();
    const code2 = (await o.approve(cookie, o.authorizeUrl(clientId, callback, second.challenge, SCOPES))).searchParams.get('code')!;
    const issued = (await (await o.exchange(clientId, callback, code2, second.verifier)).json()) as Tokens;
    await h.as(issued.access_token).get('/api/v1/me').expect(200);
    const replay = await o.exchange(clientId, callback, code2, second.verifier);
    expect([replay.status, ((await replay.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    await h.as(issued.access_token).get('/api/v1/me').expect(401);
  });

  it('revokes the whole family when a rotated refresh token is used again', async () => {
    const first = await tokens();
    const rotated = (await (await refresh(first.clientId, first.refresh_token)).json()) as Tokens;
    await h.as(rotated.access_token).get('/api/v1/me').expect(200);
    const reuse = await refresh(first.clientId, first.refresh_token);
    expect([reuse.status, ((await reuse.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    await h.as(rotated.access_token).get('/api/v1/me').expect(401);
    expect((await refresh(first.clientId, rotated.refresh_token)).status).toBe(400);
  });

  it('leaves the refresh token usable after a refused refresh, and narrows only the access token', async () => {
    const granted = await tokens('forms:read forms:create', 'Narrower');
    const refreshWith = (refreshToken: string, extra: Record<string, string>) =>
      o.post('/oauth/token', { grant_type: 'refresh_token', client_id: granted.clientId, refresh_token: refreshToken, ...extra });
    const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: string }).error];

    expect(await errorOf(await refreshWith(granted.refresh_token, { scope: 'forms:read forms:publish' }))).toEqual([400, 'invalid_scope']);
    expect(await errorOf(await refreshWith(granted.refresh_token, { client_id: 'mcl_another_app' }))).toEqual([400, 'invalid_grant']);
    const narrowed = await refreshWith(granted.refresh_token, { scope: 'forms:read' });
    expect(narrowed.status).toBe(200);
    const next = (await narrowed.json()) as Tokens;
    expect(next.scope).toBe('forms:read');
    await h.as(next.access_token).get('/api/v1/me').expect(200);

    const restored = await refreshWith(next.refresh_token, { scope: 'forms:read forms:create' });
    expect(restored.status).toBe(200);
    expect(((await restored.json()) as Tokens).scope).toBe('forms:read forms:create');
  });

  it('shows a redirect URI mismatch to the person, and rejects a registration with an unknown scope as a whole', async () => {
    const clientId = await o.register(callback, SCOPES);
    const res = await fetch(o.authorizeUrl(clientId, callback, pkce().challenge, SCOPES, { redirect_uri: 'https://attacker.example/cb' }), {
      redirect: 'manual',
    });
    expect([res.status, res.headers.get('location')]).toEqual([400, null]);
    expect(await res.text()).toContain('does not exactly match');
    const unknown = await o.post('/oauth/register', { client_name: 'X', redirect_uris: [callback], scope: 'forms:read forms:everything' }, 'json');
    expect([unknown.status, ((await unknown.json()) as { error: string }).error]).toEqual([400, 'invalid_client_metadata']);
  });

  it("refuses an email-service token, and a token's missing scope on the tool that needs it", async () => {
    // The email service's access tokens are mra_…: forms has no such token, whatever the shape.
    const emailToken = `mra_${randomBytes(32).toString('base64url')}`;
    const res = await h.as(emailToken).get('/api/v1/me');
    expect([res.status, res.body.error.code]).toEqual([401, 'invalid_credential']);
    const unauth = await fetch(`${origin}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${emailToken}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'postline_list_workspaces', arguments: {} } }),
    });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('www-authenticate')).toMatch(/oauth-protected-resource\/api\/mcp/);

    const readOnly = await tokens('forms:read', 'Reader');
    expect(readOnly.scope).toBe('forms:read');
    const client = await mcp(readOnly.access_token);
    expect((await call(client, 'postline_list_workspaces')).error).toBeUndefined();
    const create = await call(client, 'postline_create_form', { idempotencyKey: 'no-scope', title: 'Refused' });
    expect(create.error).toMatchObject({ category: 'permission', code: 'insufficient_scope', status: 403 });
    const exported = await call(client, 'postline_create_submission_export', { formId: 'frm_any' });
    expect(exported.error).toMatchObject({ category: 'permission', code: 'insufficient_scope' });
  });

  it("acts with the owner's live memberships: another owner's workspace is reachable once they are added to it, no new grant needed", async () => {
    const other = await h.newAccount('other-owner@example.com');
    const form = await h.as(other.key).post('/api/v1/forms').send({ workspaceId: other.workspaceId, title: 'Only theirs' }).expect(201);
    const formId = (form.body as { data: { id: string } }).data.id;
    const granted = await tokens();
    await h.as(granted.access_token).get(`/api/v1/forms/${formId}`).expect(404);
    await h.accounts.setMembership(other.workspaceId, h.main.ownerId, 'viewer');
    await h.as(granted.access_token).get(`/api/v1/forms/${formId}`).expect(200);
    const listed = await h.as(granted.access_token).get('/api/v1/workspaces').expect(200);
    expect(JSON.stringify(listed.body)).toContain(other.workspaceId);
  });

  it('revoking a connected app blocks its tokens, and an API key used on /api/mcp is a connection revocable there only', async () => {
    const app = await tokens(SCOPES, 'Cursor');
    const keyClient = await mcp(h.main.key);
    expect((await call(keyClient, 'postline_list_workspaces')).error).toBeUndefined();

    const cookie = await o.signIn(EMAIL);
    const page = await (await fetch(`${origin}/account/connected-apps`, { headers: { cookie } })).text();
    const rows = [...page.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]);
    const idOf = (name: string) => /name="connection_id" value="([^"]+)"/.exec(rows.find((row) => row.includes(name))!)![1];
    const csrf = csrfOf(page);

    expect((await o.post('/account/connected-apps/revoke', { csrf_token: csrf, connection_id: idOf('Cursor') }, 'form', { cookie })).status).toBe(303);
    await h.as(app.access_token).get('/api/v1/me').expect(401);
    expect((await refresh(app.clientId, app.refresh_token)).status).toBe(400);

    expect(rows.find((row) => row.includes('on the MCP server'))).toBeDefined();
    await o.post('/account/connected-apps/revoke', { csrf_token: csrf, connection_id: idOf('on the MCP server') }, 'form', { cookie });
    await expect(keyClient.callTool({ name: 'postline_list_workspaces', arguments: {} })).rejects.toMatchObject({ code: 401 });
    await h.as().get('/api/v1/me').expect(200);

    // Another owner's connection id revokes nothing.
    const other = await o.post('/account/connected-apps/revoke', { csrf_token: csrf, connection_id: 'mcn_not_yours' }, 'form', { cookie });
    expect(other.status).toBe(404);
  });

  it('refuses consent and sign-in posts without their CSRF token, keeps the session cookie HttpOnly and SameSite=Lax, and limits failed sign-ins', async () => {
    const clientId = await o.register(callback, SCOPES);
    const cookie = await o.signIn(EMAIL);
    const html = await (await fetch(o.authorizeUrl(clientId, callback, pkce().challenge, SCOPES), { headers: { cookie } })).text();
    const { csrf_token: _, ...fields } = hiddenFields(html);
    const consent = await o.post('/oauth/authorize', { ...fields, decision: 'approve' }, 'form', { cookie });
    expect([consent.status, consent.headers.get('location')]).toEqual([403, null]);

    const form = await fetch(`${origin}/account/sign-in`);
    const noToken = await o.post('/account/sign-in', { email: EMAIL, password: PASSWORD }, 'form', { cookie: cookieOf(form) });
    expect(noToken.status).toBe(403);
    const ok = await o.post('/account/sign-in', { email: EMAIL, password: PASSWORD, csrf_token: csrfOf(await form.text()) }, 'form', {
      cookie: cookieOf(form),
    });
    const session = ok.headers.getSetCookie().find((c) => c.startsWith('plf_session='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);

    // Failed sign-ins are limited per account: the eleventh wrong attempt is refused before its password is checked.
    const token = csrfOf(await (await fetch(`${origin}/account/sign-in`, { headers: { cookie: cookieOf(form) } })).text());
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await o.post('/account/sign-in', { email: 'nobody@example.com', password: 'wrong password!!', csrf_token: token }, 'form', {
        cookie: cookieOf(form),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
  });
});
