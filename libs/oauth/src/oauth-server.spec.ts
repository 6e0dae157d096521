import { createHash } from 'node:crypto';
import { OAuthServer } from './oauth-server';
import { parseClientRegistration } from './client-registration';
import { pkceMatches, tokenDigest } from './secrets';
import { Consumed, OAuthClient, OAuthStore, StoredAuthorizationCode, StoredToken } from './store';

/** The store contract in memory: what a service implements on its tables. */
class MemoryStore implements OAuthStore {
  clients = new Map<string, OAuthClient>();
  codes = new Map<string, StoredAuthorizationCode & { used: boolean }>();
  tokens = new Map<string, StoredToken & { used: boolean }>();
  revokedGrants = new Set<string>();

  async createClient(client: OAuthClient) {
    this.clients.set(client.id, client);
  }
  async findClient(id: string) {
    return this.clients.get(id) ?? null;
  }
  async saveAuthorizationCode(code: StoredAuthorizationCode) {
    this.codes.set(code.codeHash, { ...code, used: false });
  }
  async consumeAuthorizationCode(codeHash: string): Promise<Consumed<StoredAuthorizationCode> | null> {
    const code = this.codes.get(codeHash);
    if (!code) return null;
    const firstUse = !code.used;
    code.used = true;
    return { record: code, firstUse };
  }
  async saveTokens(tokens: StoredToken[]) {
    if (this.revokedGrants.has(tokens[0].grantId)) return false;
    for (const token of tokens) this.tokens.set(token.tokenHash, { ...token, used: false });
    return true;
  }
  async consumeRefreshToken(tokenHash: string): Promise<Consumed<StoredToken> | null> {
    const token = this.tokens.get(tokenHash);
    if (!token || token.kind !== 'refresh') return null;
    const firstUse = !token.used;
    token.used = true;
    return { record: token, firstUse };
  }
  async findToken(tokenHash: string) {
    return this.tokens.get(tokenHash) ?? null;
  }
  async revokeFamily(familyId: string, now: Date) {
    for (const token of this.tokens.values()) if (token.familyId === familyId) token.revokedAt ??= now;
  }
}

const SCOPES = ['tags:read', 'tags:write'];
const verifier = 'v'.repeat(43);
const challenge = createHash('sha256').update(verifier).digest('base64url');
let counter = 0;

function setup() {
  const store = new MemoryStore();
  const server = new OAuthServer(store, {
    issuer: 'https://api.example.test',
    scopes: SCOPES,
    accessTokenPrefix: 'mra_',
    refreshTokenPrefix: 'mrt_',
    codePrefix: 'mrc_',
    accessTokenTtlMs: 3_600_000,
    refreshTokenTtlMs: 86_400_000,
    codeTtlMs: 60_000,
    newId: (kind) => `${kind}_${++counter}`,
  });
  return { store, server };
}

async function codeFor(server: OAuthServer, query: Record<string, string> = {}) {
  const { client_id } = (await server.register({ client_name: 'App', redirect_uris: ['http://127.0.0.1:8123/cb'] })) as { client_id: string };
  const check = await server.checkAuthorize({
    client_id,
    redirect_uri: 'http://127.0.0.1:8123/cb',
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 's1',
    ...query,
  });
  if (check.kind !== 'consent') throw new Error(JSON.stringify(check));
  const location = new URL(await server.approve(check.request, { grantId: 'grant_1', userId: 'usr_1', workspaceId: 'wsp_1', scopes: check.request.scopes }));
  return { clientId: client_id, code: location.searchParams.get('code')!, location };
}

describe('OAuthServer', () => {
  it('issues a code with the state and issuer, exchanged once for tokens stored only as digests', async () => {
    const { server, store } = setup();
    const { clientId, code, location } = await codeFor(server);
    expect([location.searchParams.get('state'), location.searchParams.get('iss')]).toEqual(['s1', 'https://api.example.test']);
    const tokens = await server.token({ grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier });
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'tags:read tags:write' });
    expect(store.tokens.has(tokenDigest(tokens.access_token))).toBe(true);
    expect(JSON.stringify([...store.tokens.values()])).not.toContain(tokens.access_token);
  });

  it('refuses a wrong verifier, another client, and a replayed code (revoking what it issued)', async () => {
    const { server, store } = setup();
    const { code } = await codeFor(server);
    await expect(server.token({ grant_type: 'authorization_code', client_id: 'client_x', code, code_verifier: verifier })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const second = await codeFor(server);
    await expect(
      server.token({ grant_type: 'authorization_code', client_id: second.clientId, code: second.code, code_verifier: 'w'.repeat(43) }),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const third = await codeFor(server);
    const tokens = await server.token({ grant_type: 'authorization_code', client_id: third.clientId, code: third.code, code_verifier: verifier });
    await expect(
      server.token({ grant_type: 'authorization_code', client_id: third.clientId, code: third.code, code_verifier: verifier }),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(store.tokens.get(tokenDigest(tokens.access_token))!.revokedAt).not.toBeNull();
  });

  it('rotates refresh tokens and revokes the family when a rotated one comes back', async () => {
    const { server, store } = setup();
    const { clientId, code } = await codeFor(server);
    const first = await server.token({ grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier });
    const second = await server.token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token, scope: 'tags:read' });
    expect(second.scope).toBe('tags:read');
    await expect(server.token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(store.tokens.get(tokenDigest(second.access_token))!.revokedAt).not.toBeNull();
    await expect(server.token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: second.refresh_token })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('leaves the refresh token as it was when a refresh is refused: another client, a wider scope, expired', async () => {
    const { server, store } = setup();
    const { clientId, code } = await codeFor(server, { scope: 'tags:read' });
    const first = await server.token({ grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier });
    const refresh = (params: Record<string, string>) =>
      server.token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token, ...params });
    await expect(refresh({ scope: 'tags:write' })).rejects.toMatchObject({ error: 'invalid_scope' });
    // Another client's token is answered like an unknown one.
    await expect(refresh({ client_id: 'client_x' })).rejects.toMatchObject({ error: 'invalid_grant', message: 'The refresh token is not valid.' });
    const second = await refresh({});
    expect(second.scope).toBe('tags:read');

    // Presented by another client, even a rotated token revokes nothing; presented by its own, it still does.
    await expect(refresh({ client_id: 'client_x' })).rejects.toMatchObject({ error: 'invalid_grant', message: 'The refresh token is not valid.' });
    expect(store.tokens.get(tokenDigest(second.access_token))!.revokedAt).toBeNull();
    await expect(refresh({})).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(store.tokens.get(tokenDigest(second.access_token))!.revokedAt).not.toBeNull();

    const other = await codeFor(server);
    const tokens = await server.token({ grant_type: 'authorization_code', client_id: other.clientId, code: other.code, code_verifier: verifier });
    const stored = store.tokens.get(tokenDigest(tokens.refresh_token))!;
    stored.expiresAt = new Date(Date.now() - 1000);
    await expect(server.token({ grant_type: 'refresh_token', client_id: other.clientId, refresh_token: tokens.refresh_token })).rejects.toMatchObject({
      error: 'invalid_grant',
      message: 'The refresh token has expired.',
    });
    expect(stored.used).toBe(false);
  });

  it('narrows only the access token on refresh: the new refresh token keeps the scopes of the one presented', async () => {
    const { server, store } = setup();
    const { clientId, code } = await codeFor(server);
    const first = await server.token({ grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier });
    const narrowed = await server.token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token, scope: 'tags:read' });
    expect(narrowed.scope).toBe('tags:read');
    expect(store.tokens.get(tokenDigest(narrowed.access_token))!.scopes).toEqual(['tags:read']);
    expect(store.tokens.get(tokenDigest(narrowed.refresh_token))!.scopes).toEqual(SCOPES);
    const widened = await server.token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: narrowed.refresh_token,
      scope: 'tags:read tags:write',
    });
    expect(widened.scope).toBe('tags:read tags:write');
  });

  it('issues one pair for concurrent refreshes with the same token, and revokes the family for the other', async () => {
    const { server, store } = setup();
    const { clientId, code } = await codeFor(server);
    const first = await server.token({ grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier });
    const answers = await Promise.allSettled(
      [0, 1].map(() => server.token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
    const issued = answers.find((answer) => answer.status === 'fulfilled')!;
    expect(store.tokens.get(tokenDigest(issued.value.access_token))!.revokedAt).not.toBeNull();
  });

  it('issues nothing for a grant the service revoked meanwhile', async () => {
    const { server, store } = setup();
    const { clientId, code } = await codeFor(server);
    store.revokedGrants.add('grant_1');
    await expect(server.token({ grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('checks authorization requests: errors shown here until the redirect URI is verified, then sent back with the state', async () => {
    const { server } = setup();
    const { client_id } = (await server.register({ redirect_uris: ['https://app.example/cb'], scope: 'tags:read' })) as { client_id: string };
    expect(await server.checkAuthorize({ client_id: 'nope' })).toMatchObject({ kind: 'refuse' });
    expect(await server.checkAuthorize({ client_id, redirect_uri: 'https://app.example/cb/' })).toMatchObject({ kind: 'refuse' });
    const base = { client_id, redirect_uri: 'https://app.example/cb', response_type: 'code', code_challenge: challenge, state: 'z' };
    const plain = await server.checkAuthorize({ ...base, code_challenge_method: 'plain' });
    expect(plain.kind === 'redirect' && new URL(plain.location).searchParams.get('error')).toBe('invalid_request');
    const wider = await server.checkAuthorize({ ...base, code_challenge_method: 'S256', scope: 'tags:write' });
    expect(wider.kind === 'redirect' && new URL(wider.location).searchParams.get('error')).toBe('invalid_scope');
    const token = await server.checkAuthorize({ ...base, code_challenge_method: 'S256', response_type: 'token' });
    expect(token.kind === 'redirect' && new URL(token.location).searchParams.get('state')).toBe('z');
  });
});

describe('parseClientRegistration', () => {
  it('accepts https and loopback http redirect URIs, defaulting to every scope', () => {
    expect(parseClientRegistration({ redirect_uris: ['https://a.example/cb', 'http://[::1]:9/cb'] }, SCOPES)).toEqual({
      name: 'Unnamed app',
      redirectUris: ['https://a.example/cb', 'http://[::1]:9/cb'],
      scopes: SCOPES,
      clientUri: null,
    });
  });

  it.each([
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['http://a.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://a.example/cb#frag'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://a.example/cb'], scope: 'tags:read nope' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'client_secret_post' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
  ])('refuses %j as a whole with %s', (body, error) => {
    expect(() => parseClientRegistration(body, SCOPES)).toThrow(expect.objectContaining({ error }));
  });
});

describe('pkceMatches', () => {
  it('is the RFC 7636 appendix B example', () => {
    expect(pkceMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(pkceMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
  });
});
