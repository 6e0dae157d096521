/**
 * The email service's OAuth 2.1 authorization server end to end: the full dance in headless Chromium (register,
 * authorize with PKCE, sign in, consent, exchange, MCP with the token, refresh, revoke, 401), then the refusals over
 * plain HTTP. Screenshots of the three pages go to `<tmp>/postline-oauth-screenshots/` for a person to look at.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  approveInBrowser,
  cookieOf,
  csrfOf,
  hiddenFields,
  launchChromium,
  listenOnLoopback,
  oauthCallbackServer,
  OAuthTestClient,
  OAuthTokens,
  oauthTestClient,
  pkce,
  screenshotConsent,
  signInInBrowser,
} from '@shared/testing';
import { EmailPrisma } from '@email/data-access';
import { UsersService } from '@email/oauth';
import { emailApi, EmailApiHarness } from './helpers';

const SCREENSHOTS = path.join(tmpdir(), 'postline-oauth-screenshots');
const PASSWORD = 'correct horse battery staple';
const SCOPES = 'workspace:read subscribers:read subscribers:write tags:read tags:write';

type Tokens = OAuthTokens;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('email-api: OAuth 2.1 authorization server, sign-in and consent', () => {
  let h: EmailApiHarness;
  let origin: string;
  let browser: Browser;
  let callbackServer: { url: string; close(): void };
  let callback: string;
  let otherWorkspace: { workspace_id: string; api_key: string };
  let o: OAuthTestClient;
  const email = 'agent-owner@example.test';
  const mcpClients: Client[] = [];

  beforeAll(async () => {
    h = await emailApi();
    origin = await listenOnLoopback(h.app);
    o = oauthTestClient(origin);
    otherWorkspace = await h.newWorkspace('Second workspace');
    await h.app.get(UsersService).createUser({ email, name: 'Ada', password: PASSWORD, workspaceIds: [h.workspaceId, otherWorkspace.workspace_id] });
    callbackServer = await oauthCallbackServer();
    callback = callbackServer.url;
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await Promise.all(mcpClients.map((client) => client.close()));
    await browser?.close();
    callbackServer?.close();
    await h?.close();
  });

  const register = (body: Record<string, unknown> = {}) => o.register(callback, SCOPES, body);
  const post: OAuthTestClient['post'] = (...args) => o.post(...args);
  const authorizeUrl = (clientId: string, challenge: string, extra: Record<string, string> = {}) =>
    o.authorizeUrl(clientId, callback, challenge, SCOPES, extra);
  const signIn = () => o.signIn(email, PASSWORD, { return_to: '/account/connected-apps' });

  /** Sign-in and consent over plain HTTP: the redirect back to the client, with its code. */
  async function authorizeOverHttp(clientId: string, challenge: string, workspaceId = h.workspaceId): Promise<URL> {
    return o.approve(await signIn(), authorizeUrl(clientId, challenge), { workspace_id: workspaceId });
  }

  const exchange = (clientId: string, code: string, verifier: string) => o.exchange(clientId, callback, code, verifier);

  async function tokensFor(clientId: string, workspaceId = h.workspaceId): Promise<Tokens> {
    const { verifier, challenge } = pkce();
    const redirect = await authorizeOverHttp(clientId, challenge, workspaceId);
    const res = await exchange(clientId, redirect.searchParams.get('code')!, verifier);
    expect(res.status).toBe(200);
    return (await res.json()) as Tokens;
  }

  async function mcp(token: string): Promise<Client> {
    const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    mcpClients.push(client);
    return client;
  }

  const callTool = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: { response: { data: Record<string, unknown> } } };

  it('publishes the authorization server and protected-resource metadata', async () => {
    const server = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      authorization_endpoint: expect.stringMatching(/\/oauth\/authorize$/),
      token_endpoint: expect.stringMatching(/\/oauth\/token$/),
      registration_endpoint: expect.stringMatching(/\/oauth\/register$/),
      revocation_endpoint: expect.stringMatching(/\/oauth\/revoke$/),
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
    const resource = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(resource.authorization_servers).toEqual([server.issuer]);
    const preflight = await fetch(`${origin}/oauth/token`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
    // The REST API's own RFC 9728 document, which browser-based apps read across origins too.
    const api = await fetch(`${origin}/.well-known/oauth-protected-resource`);
    expect([api.status, ((await api.json()) as Record<string, unknown>).authorization_servers]).toEqual([200, [server.issuer]]);
    const apiPreflight = await fetch(`${origin}/.well-known/oauth-protected-resource`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET' },
    });
    expect([apiPreflight.status, apiPreflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
    const metadata = await h.as().get('/v1').expect(200);
    expect(JSON.stringify(metadata.body)).toContain('/.well-known/oauth-authorization-server');
  });

  it('runs the whole dance in Chromium: register, authorize with PKCE, sign in, consent, exchange, MCP, refresh, revoke, 401', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(authorizeUrl(clientId, challenge));
    await signInInBrowser(page, { email, password: PASSWORD }, SCREENSHOTS);
    expect(await page.textContent('h1')).toBe('Allow Claude Desktop to use your workspace?');
    expect(await page.textContent('ul.scopes')).toContain('Create, change and delete subscribers');
    await screenshotConsent(page, SCREENSHOTS);
    await page.selectOption('#workspace', h.workspaceId);
    const redirect = await approveInBrowser(page);
    expect(redirect.searchParams.get('state')).toBe('st-123');

    const exchanged = await exchange(clientId, redirect.searchParams.get('code')!, verifier);
    expect(exchanged.headers.get('cache-control')).toBe('no-store');
    const tokens = (await exchanged.json()) as Tokens;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: SCOPES });
    expect(tokens.access_token).toMatch(/^mra_[A-Za-z0-9_-]{43}$/);
    expect(tokens.refresh_token).toMatch(/^mrt_[A-Za-z0-9_-]{43}$/);

    const client = await mcp(tokens.access_token);
    const capabilities = await callTool(client, 'discovery_get_capabilities');
    // The OAuth credential variant fits the tool's output schema, generated from the same DTOs as the REST API.
    const tool = (await client.listTools()).tools.find((t) => t.name === 'discovery_get_capabilities')!;
    const validate = addFormats(new Ajv({ strict: false, allErrors: true })).compile(tool.outputSchema!);
    expect(validate(capabilities.structuredContent) || validate.errors).toBe(true);
    const data = capabilities.structuredContent.response.data;
    expect(data.workspace).toEqual({ id: h.workspaceId, name: 'Test workspace' });
    expect(data.credential).toMatchObject({
      type: 'oauth_access_token',
      status: 'active',
      scopes: ['subscribers:read', 'subscribers:write', 'tags:read', 'tags:write', 'workspace:read'],
      token_preview: `mra_…${tokens.access_token.slice(-4)}`,
      client: { id: clientId, name: 'Claude Desktop' },
      created_by_user_id: expect.stringMatching(/^usr_/),
      last_authorized_by_user_id: expect.stringMatching(/^usr_/),
    });
    expect(JSON.stringify(capabilities)).not.toContain(tokens.access_token);
    const list = await callTool(client, 'subscribers_list', { limit: 1 });
    expect(list.isError).toBeFalsy();

    const refreshed = await post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as Tokens;
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    const again = await mcp(next.access_token);
    expect((await callTool(again, 'workspace_get')).isError).toBeFalsy();

    expect((await post('/oauth/revoke', { token: next.refresh_token, client_id: clientId })).status).toBe(200);
    for (const token of [tokens.access_token, next.access_token]) {
      const res = await h.as(token).get('/v1/workspace');
      expect([res.status, res.body.error.code, res.body.error.reconnect_required]).toEqual([401, 'credential_revoked', true]);
    }
    await expect(callTool(again, 'workspace_get')).rejects.toMatchObject({ code: 401 });

    // The connected apps page, with this app listed and still revocable as a connection.
    await page.goto(`${origin}/account/connected-apps`);
    expect(await page.textContent('table')).toContain('Claude Desktop');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'connected-apps.png'), fullPage: true });
    await page.close();
  });

  it('refuses a wrong PKCE verifier, and a reused code revokes what the code issued', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const code = (await authorizeOverHttp(clientId, challenge)).searchParams.get('code')!;
    const wrong = await exchange(clientId, code, pkce().verifier);
    expect([wrong.status, ((await wrong.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    // The wrong attempt used the code up: single use even when refused.
    expect((await exchange(clientId, code, verifier)).status).toBe(400);

    const { verifier: v2, challenge: c2 } = pkce();
    const code2 = (await authorizeOverHttp(clientId, c2)).searchParams.get('code')!;
    const first = (await (await exchange(clientId, code2, v2)).json()) as Tokens;
    await h.as(first.access_token).get('/v1/workspace').expect(200);
    const replay = await exchange(clientId, code2, v2);
    expect([replay.status, ((await replay.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    await h.as(first.access_token).get('/v1/workspace').expect(401);
  });

  it('revokes the whole family when a rotated refresh token is used again', async () => {
    const clientId = await register();
    const tokens = await tokensFor(clientId);
    const rotated = (await (
      await post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token })
    ).json()) as Tokens;
    await h.as(rotated.access_token).get('/v1/workspace').expect(200);
    const reuse = await post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token });
    expect([reuse.status, ((await reuse.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    await h.as(rotated.access_token).get('/v1/workspace').expect(401);
    const latest = await post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: rotated.refresh_token });
    expect(latest.status).toBe(400);
  });

  it('leaves the refresh token usable after a refused refresh, and narrows only the access token', async () => {
    const clientId = await register();
    const granted = await o.tokensWith(await signIn(), clientId, callback, 'tags:read tags:write', { workspace_id: h.workspaceId });
    const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
      post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken, ...extra });
    const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: string }).error];

    expect(await errorOf(await refresh(granted.refresh_token, { scope: 'tags:read subscribers:read' }))).toEqual([400, 'invalid_scope']);
    expect(await errorOf(await refresh(granted.refresh_token, { client_id: 'mcl_another_app' }))).toEqual([400, 'invalid_grant']);
    const narrowed = await refresh(granted.refresh_token, { scope: 'tags:read' });
    expect(narrowed.status).toBe(200);
    const next = (await narrowed.json()) as Tokens;
    expect(next.scope).toBe('tags:read');
    await h.as(next.access_token).get('/v1/tags').expect(200);
    await h.as(next.access_token).post('/v1/tags').send({ name: 'Narrowed' }).expect(403);

    const restored = await refresh(next.refresh_token, { scope: 'tags:read tags:write' });
    expect(restored.status).toBe(200);
    expect(((await restored.json()) as Tokens).scope).toBe('tags:read tags:write');
  });

  it('sends a declined request back to the app with access_denied and its state', async () => {
    const clientId = await register();
    const cookie = await signIn();
    const html = await (await fetch(authorizeUrl(clientId, pkce().challenge), { headers: { cookie } })).text();
    const fields = hiddenFields(html);
    const res = await post('/oauth/authorize', { ...fields, workspace_id: h.workspaceId, decision: 'deny' }, 'form', { cookie });
    const location = new URL(res.headers.get('location')!);
    expect([res.status, location.searchParams.get('error'), location.searchParams.get('state'), location.searchParams.get('code')]).toEqual([
      303,
      'access_denied',
      'st-123',
      null,
    ]);
  });

  it('shows a redirect URI mismatch to the person and never redirects to it', async () => {
    const clientId = await register();
    const res = await fetch(authorizeUrl(clientId, pkce().challenge, { redirect_uri: 'https://attacker.example/cb' }), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('does not exactly match');
    // Once the client and redirect URI are verified, errors go back to the client with the state.
    const plain = await fetch(authorizeUrl(clientId, pkce().challenge, { code_challenge_method: 'plain' }), { redirect: 'manual' });
    const location = new URL(plain.headers.get('location')!);
    expect([location.searchParams.get('error'), location.searchParams.get('state')]).toEqual(['invalid_request', 'st-123']);
  });

  it('rejects a registration naming an unknown scope, or an http redirect URI off loopback, as a whole', async () => {
    const unknown = await post('/oauth/register', { client_name: 'X', redirect_uris: [callback], scope: 'tags:read tags:delete_everything' }, 'json');
    expect([unknown.status, ((await unknown.json()) as { error: string }).error]).toEqual([400, 'invalid_client_metadata']);
    const http = await post('/oauth/register', { client_name: 'X', redirect_uris: ['http://example.com/cb'] }, 'json');
    expect([http.status, ((await http.json()) as { error: string }).error]).toEqual([400, 'invalid_redirect_uri']);
    const confidential = await post('/oauth/register', { redirect_uris: [callback], token_endpoint_auth_method: 'client_secret_basic' }, 'json');
    expect(confidential.status).toBe(400);
  });

  it("keeps a token to its workspace: workspace A's token never reaches workspace B's data", async () => {
    const clientId = await register();
    const tokenA = await tokensFor(clientId, h.workspaceId);
    const tagB = await h.as(otherWorkspace.api_key).post('/v1/tags').send({ name: 'Only in B' }).expect(201);
    const idB = (tagB.body as { data?: { id: string }; id?: string }).data?.id ?? (tagB.body as { id: string }).id;
    const res = await h.as(tokenA.access_token).get(`/v1/tags/${idB}`);
    expect(res.status).toBe(404);
    const tags = await h.as(tokenA.access_token).get('/v1/tags').expect(200);
    expect(JSON.stringify(tags.body)).not.toContain('Only in B');
    // A scope the person did not grant answers 403 with the OAuth recovery.
    const denied = await h.as(tokenA.access_token).get('/v1/webhook-subscriptions').expect(403);
    expect(denied.body.error).toMatchObject({ credential_type: 'oauth_access_token', reconnect_required: true, recovery: { action: 'reconnect_oauth' } });
  });

  it('refuses consent and sign-in posts without their CSRF token', async () => {
    const clientId = await register();
    const cookie = await signIn();
    const { challenge } = pkce();
    const page = await fetch(authorizeUrl(clientId, challenge), { headers: { cookie } });
    const html = await page.text();
    const fields = hiddenFields(html);
    delete fields.csrf_token;
    const consent = await post('/oauth/authorize', { ...fields, workspace_id: h.workspaceId, decision: 'approve' }, 'form', { cookie });
    expect(consent.status).toBe(403);
    expect(consent.headers.get('location')).toBeNull();
    const forged = await post('/oauth/authorize', { ...fields, csrf_token: 'x'.repeat(43), workspace_id: h.workspaceId, decision: 'approve' }, 'form', {
      cookie,
    });
    expect(forged.status).toBe(403);

    const signInForm = await fetch(`${origin}/account/sign-in`);
    const noToken = await post('/account/sign-in', { email, password: PASSWORD }, 'form', { cookie: cookieOf(signInForm) });
    expect(noToken.status).toBe(403);
    expect(noToken.headers.getSetCookie().some((c) => c.startsWith('pl_session='))).toBe(false);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax, and limits sign-in attempts per account', async () => {
    const form = await fetch(`${origin}/account/sign-in`);
    const csrfCookie = cookieOf(form);
    const token = csrfOf(await form.text());
    const ok = await post('/account/sign-in', { email, password: PASSWORD, csrf_token: token }, 'form', { cookie: csrfCookie });
    const session = ok.headers.getSetCookie().find((c) => c.startsWith('pl_session='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Secure/i); // http on loopback: a browser would drop a Secure cookie here
    const sessionCookie = session.split(';')[0];
    const apps = await fetch(`${origin}/account/connected-apps`, { headers: { cookie: sessionCookie } });
    const signOut = await post('/account/sign-out', { csrf_token: csrfOf(await apps.text()) }, 'form', { cookie: sessionCookie });
    expect(signOut.status).toBe(303);
    const after = await fetch(`${origin}/account/connected-apps`, { headers: { cookie: sessionCookie }, redirect: 'manual' });
    expect([after.status, after.headers.get('location')]).toEqual([303, '/account/sign-in?return_to=%2Faccount%2Fconnected-apps']);

    const target = 'someone-else@example.test';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await post('/account/sign-in', { email: target, password: 'wrong password!!', csrf_token: token }, 'form', { cookie: csrfCookie });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    // Successful sign-ins count for nothing: the account used all along signs in still.
    expect(await signIn()).toMatch(/^pl_session=/);
  });

  it('revoking a connected app blocks its tokens at once, while API keys keep working', async () => {
    const clientId = await register({ client_name: 'Cursor' });
    const tokens = await tokensFor(clientId);
    // The API key used on /mcp is listed as a connection too.
    const keyClient = await mcp(h.key);
    expect((await callTool(keyClient, 'workspace_get')).isError).toBeFalsy();

    const cookie = await signIn();
    const page = await (await fetch(`${origin}/account/connected-apps`, { headers: { cookie } })).text();
    const forms = [...page.matchAll(/name="connection_id" value="([^"]+)">\s*<input type="hidden" name="workspace_id" value="([^"]+)">/g)];
    const rows = [...page.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]);
    const idOf = (name: string) => /name="connection_id" value="([^"]+)"/.exec(rows.find((row) => row.includes(name))!)![1];
    expect(forms.length).toBeGreaterThanOrEqual(2);
    const csrf = csrfOf(page);

    const revoke = await post('/account/connected-apps/revoke', { csrf_token: csrf, connection_id: idOf('Cursor'), workspace_id: h.workspaceId }, 'form', {
      cookie,
    });
    expect(revoke.status).toBe(303);
    await h.as(tokens.access_token).get('/v1/workspace').expect(401);
    const refresh = await post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token });
    expect(refresh.status).toBe(400);
    await h.as().get('/v1/workspace').expect(200);

    // Revoking the key's MCP connection stops it on /mcp only.
    await post('/account/connected-apps/revoke', { csrf_token: csrf, connection_id: idOf('Default key'), workspace_id: h.workspaceId }, 'form', { cookie });
    await expect(callTool(keyClient, 'workspace_get')).rejects.toMatchObject({ code: 401 });
    await h.as().get('/v1/workspace').expect(200);

    // Approving the app again reconnects it with new tokens; the revoked ones stay revoked.
    const reconnected = await tokensFor(clientId);
    await h.as(reconnected.access_token).get('/v1/workspace').expect(200);
    await h.as(tokens.access_token).get('/v1/workspace').expect(401);

    // Another person's workspace id in the form revokes nothing.
    const other = await post('/account/connected-apps/revoke', { csrf_token: csrf, connection_id: 'mcn_unknown', workspace_id: 'wsp_someone_else' }, 'form', {
      cookie,
    });
    expect(other.status).toBe(404);
  });

  it("drops a family's expired tokens when it issues new ones, keeping a rotated refresh token until it expires", async () => {
    const clientId = await register();
    const first = await tokensFor(clientId);
    const prisma = h.app.get(EmailPrisma);
    await prisma.oAuthToken.updateMany({ where: { token_hash: sha256(first.access_token) }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect((await post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token })).status).toBe(200);
    expect(await prisma.oAuthToken.count({ where: { token_hash: sha256(first.access_token) } })).toBe(0);
    expect(await prisma.oAuthToken.count({ where: { token_hash: sha256(first.refresh_token), used_at: { not: null } } })).toBe(1);
  });

  // Last: it spends this address's registration allowance.
  it('limits client registrations per address', async () => {
    const answers: Response[] = [];
    for (let i = 0; i < 25; i++) answers.push(await post('/oauth/register', { client_name: `Bulk ${i}`, redirect_uris: [callback] }, 'json'));
    const last = answers.at(-1)!;
    expect([last.status, ((await last.json()) as { error: string }).error]).toEqual([429, 'too_many_requests']);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status === 201).length).toBeLessThan(20);
  });
});
