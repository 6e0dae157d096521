import { parseClientRegistration } from './client-registration';
import { OAuthError } from './oauth-error';
import { newOpaqueToken, pkceMatches, tokenDigest, tokenPreview } from './secrets';
import { OAuthClient, OAuthGrant, OAuthStore } from './store';

export interface OAuthServerOptions {
  /** The authorization server's identifier (its origin), sent back as `iss` with every code (RFC 9207). */
  issuer: string;
  /** Every scope the service knows; a client registers a subset. */
  scopes: readonly string[];
  /** e.g. `mra_` and `mrt_`. */
  accessTokenPrefix: string;
  refreshTokenPrefix: string;
  /** e.g. `mrc_`: authorization codes. */
  codePrefix: string;
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  codeTtlMs: number;
  newId: (prefix: 'client' | 'token' | 'family') => string;
  now?: () => Date;
}

/** An authorization request whose client and redirect URI were verified, waiting for a person's decision. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string;
}

/** The outcome of checking /authorize's query: show the consent, redirect with an error, or show the error here. */
export type AuthorizeCheck = { kind: 'consent'; request: AuthorizationRequest } | { kind: 'redirect'; location: string } | { kind: 'refuse'; message: string };

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

type Params = Record<string, unknown>;
const text = (params: Params, name: string): string | undefined => (typeof params[name] === 'string' ? params[name] : undefined);
const invalidGrant = (message: string) => new OAuthError('invalid_grant', message);

/**
 * The OAuth 2.1 mechanism, free of any service: public clients registered dynamically, the authorization code grant
 * with PKCE S256 only, opaque access and refresh tokens (stored as digests) tied to one grant, refresh rotation with
 * reuse detection, RFC 7009 revocation. The service supplies the storage, the person's decision and the HTTP glue.
 */
export class OAuthServer {
  private readonly now: () => Date;

  constructor(
    private readonly store: OAuthStore,
    private readonly options: OAuthServerOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** RFC 7591 registration: the response body of the 201. */
  async register(body: unknown): Promise<Record<string, unknown>> {
    const registration = parseClientRegistration(body, this.options.scopes);
    const client: OAuthClient = { id: this.options.newId('client'), ...registration, createdAt: this.now() };
    await this.store.createClient(client);
    return {
      client_id: client.id,
      client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: client.scopes.join(' '),
      ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    };
  }

  /**
   * Checks an authorization request. Until the client and its exact redirect URI are known, errors are shown to the
   * person (never sent to an unverified URI); after that they go back to the client with its `state`.
   */
  async checkAuthorize(query: Params): Promise<AuthorizeCheck> {
    const clientId = text(query, 'client_id');
    const client = clientId ? await this.store.findClient(clientId) : null;
    if (!client) return { kind: 'refuse', message: 'This app is not registered with this service (unknown client_id).' };
    const redirectUri = text(query, 'redirect_uri') ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (!redirectUri || !client.redirectUris.includes(redirectUri))
      return { kind: 'refuse', message: 'The redirect_uri does not exactly match one the app registered.' };
    const state = text(query, 'state') ?? null;
    const fail = (error: string, description: string): AuthorizeCheck => ({
      kind: 'redirect',
      location: this.redirect(redirectUri, state, { error, error_description: description }),
    });
    if (text(query, 'response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code.');
    const challenge = text(query, 'code_challenge');
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return fail('invalid_request', 'A code_challenge (PKCE, S256) is required.');
    if (text(query, 'code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256.');
    const requested = text(query, 'scope');
    const scopes = requested === undefined ? client.scopes : [...new Set(requested.split(' ').filter(Boolean))];
    const refused = scopes.filter((scope) => !client.scopes.includes(scope));
    if (refused.length || scopes.length === 0)
      return fail('invalid_scope', refused.length ? `Not registered for this client: ${refused.join(' ')}.` : 'scope names no scope.');
    return { kind: 'consent', request: { client, redirectUri, scopes, state, codeChallenge: challenge } };
  }

  /** After the person approved: a single-use code for the grant, and where to send the browser. */
  async approve(request: AuthorizationRequest, grant: OAuthGrant): Promise<string> {
    const code = newOpaqueToken(this.options.codePrefix);
    await this.store.saveAuthorizationCode({
      ...grant,
      codeHash: tokenDigest(code),
      clientId: request.client.id,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      familyId: this.options.newId('family'),
      expiresAt: new Date(this.now().getTime() + this.options.codeTtlMs),
    });
    return this.redirect(request.redirectUri, request.state, { code });
  }

  /** After the person declined. */
  deny(request: AuthorizationRequest): string {
    return this.redirect(request.redirectUri, request.state, { error: 'access_denied', error_description: 'The person declined the request.' });
  }

  /** The token endpoint (form parameters): a code exchange or a refresh. */
  async token(params: Params): Promise<TokenResponse> {
    const clientId = text(params, 'client_id');
    if (!clientId) throw new OAuthError('invalid_request', 'client_id is required.');
    const grantType = text(params, 'grant_type');
    if (grantType === 'authorization_code') return this.exchangeCode(clientId, params);
    if (grantType === 'refresh_token') return this.refresh(clientId, params);
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }

  /** RFC 7009: revokes the token's whole family; answers the same whether or not the token was known. */
  async revoke(params: Params): Promise<void> {
    const token = text(params, 'token');
    if (!token) throw new OAuthError('invalid_request', 'token is required.');
    const stored = await this.store.findToken(tokenDigest(token));
    const clientId = text(params, 'client_id');
    // A public client proves nothing but its id: a token is revoked only when named with its own client's id.
    if (stored && (clientId === undefined || clientId === stored.clientId)) await this.store.revokeFamily(stored.familyId, this.now());
  }

  private async exchangeCode(clientId: string, params: Params): Promise<TokenResponse> {
    const code = text(params, 'code');
    const verifier = text(params, 'code_verifier');
    if (!code || !verifier) throw new OAuthError('invalid_request', 'code and code_verifier are required.');
    const consumed = await this.store.consumeAuthorizationCode(tokenDigest(code), this.now());
    if (!consumed) throw invalidGrant('The authorization code is not valid.');
    const { record, firstUse } = consumed;
    if (!firstUse) {
      // RFC 6749 §4.1.2: a replayed code may mean it leaked; what it issued is revoked.
      await this.store.revokeFamily(record.familyId, this.now());
      throw invalidGrant('The authorization code was already used; the tokens it issued are revoked.');
    }
    if (record.expiresAt <= this.now()) throw invalidGrant('The authorization code has expired.');
    if (record.clientId !== clientId) throw invalidGrant('The authorization code was issued to another client.');
    if (text(params, 'redirect_uri') !== undefined && text(params, 'redirect_uri') !== record.redirectUri)
      throw invalidGrant('redirect_uri does not match the authorization request.');
    if (!pkceMatches(verifier, record.codeChallenge)) throw invalidGrant('The code_verifier does not match the code_challenge.');
    return this.issue(record);
  }

  /**
   * A refused refresh leaves the token as it was (RFC 6749 §5.2, OAuth 2.1 §4.3): it is checked first and consumed only
   * to issue a new pair. Another client's token is answered like an unknown one and left alone: a public client's id
   * proves nothing, so naming the wrong one must neither reveal the token's state nor revoke its family.
   */
  private async refresh(clientId: string, params: Params): Promise<TokenResponse> {
    const refreshToken = text(params, 'refresh_token');
    if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required.');
    const stored = await this.store.findToken(tokenDigest(refreshToken));
    if (stored?.kind !== 'refresh' || stored.clientId !== clientId) throw invalidGrant('The refresh token is not valid.');
    if (stored.revokedAt) throw invalidGrant('The refresh token was revoked.');
    if (stored.expiresAt <= this.now()) throw invalidGrant('The refresh token has expired.');
    const requested = text(params, 'scope');
    const scopes = requested === undefined ? stored.scopes : [...new Set(requested.split(' ').filter(Boolean))];
    if (scopes.some((scope) => !stored.scopes.includes(scope))) throw new OAuthError('invalid_scope', 'A refresh may only narrow the granted scopes.');
    const consumed = await this.store.consumeRefreshToken(stored.tokenHash, this.now());
    if (!consumed) throw invalidGrant('The refresh token is not valid.');
    const { record, firstUse } = consumed;
    // Read again after the atomic consume: the family may have been revoked since the check above.
    if (record.revokedAt) throw invalidGrant('The refresh token was revoked.');
    if (!firstUse) {
      // A rotated refresh token presented again: either the client or a thief holds a copy, so the family goes.
      await this.store.revokeFamily(record.familyId, this.now());
      throw invalidGrant('The refresh token was already used; every token of this authorization is revoked.');
    }
    return this.issue(record, scopes);
  }

  /** A new pair under the grant; a narrower `accessScopes` narrows the access token only (RFC 6749 §6). */
  private async issue(grant: OAuthGrant & { clientId: string; familyId: string }, accessScopes = grant.scopes): Promise<TokenResponse> {
    const now = this.now();
    const access = newOpaqueToken(this.options.accessTokenPrefix);
    const refresh = newOpaqueToken(this.options.refreshTokenPrefix);
    const base = {
      grantId: grant.grantId,
      userId: grant.userId,
      workspaceId: grant.workspaceId,
      clientId: grant.clientId,
      familyId: grant.familyId,
      revokedAt: null,
      createdAt: now,
    };
    const saved = await this.store.saveTokens([
      {
        ...base,
        id: this.options.newId('token'),
        kind: 'access',
        scopes: accessScopes,
        tokenHash: tokenDigest(access),
        preview: tokenPreview(access, this.options.accessTokenPrefix),
        expiresAt: new Date(now.getTime() + this.options.accessTokenTtlMs),
      },
      {
        ...base,
        id: this.options.newId('token'),
        kind: 'refresh',
        scopes: grant.scopes,
        tokenHash: tokenDigest(refresh),
        preview: tokenPreview(refresh, this.options.refreshTokenPrefix),
        expiresAt: new Date(now.getTime() + this.options.refreshTokenTtlMs),
      },
    ]);
    if (!saved) throw invalidGrant('This app’s access was revoked; connect it again.');
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: Math.floor(this.options.accessTokenTtlMs / 1000),
      refresh_token: refresh,
      scope: accessScopes.join(' '),
    };
  }

  private redirect(redirectUri: string, state: string | null, params: Record<string, string>): string {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    if (state !== null) url.searchParams.set('state', state);
    url.searchParams.set('iss', this.options.issuer);
    return url.toString();
  }
}
