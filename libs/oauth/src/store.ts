/** A registered client (RFC 7591): always public, authenticated by PKCE alone. */
export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
  /** The most this client may ever ask for. */
  scopes: string[];
  clientUri: string | null;
  createdAt: Date;
}

/**
 * What a person approved: `grantId` is the service's record of the connection (connected app), which revokes every
 * token issued under it; `workspaceId` is the one tenant the tokens act in.
 */
export interface OAuthGrant {
  grantId: string;
  userId: string;
  workspaceId: string;
  scopes: string[];
}

export interface StoredAuthorizationCode extends OAuthGrant {
  codeHash: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  /** The family every token of this code's exchange joins, so a replayed code revokes them all. */
  familyId: string;
  expiresAt: Date;
}

export interface StoredToken extends OAuthGrant {
  id: string;
  tokenHash: string;
  kind: 'access' | 'refresh';
  /** Every token descended from one code exchange: rotation keeps it, reuse revokes it whole. */
  familyId: string;
  clientId: string;
  preview: string;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
}

/** A single-use record's state after an atomic "mark used" (false: it had been used before this call). */
export interface Consumed<T> {
  record: T;
  firstUse: boolean;
}

/** What a service implements on its own tables for the OAuth server. */
export interface OAuthStore {
  createClient(client: OAuthClient): Promise<void>;
  findClient(id: string): Promise<OAuthClient | null>;
  saveAuthorizationCode(code: StoredAuthorizationCode): Promise<void>;
  /** Marks the code used in one atomic statement; null when no code has this digest. */
  consumeAuthorizationCode(codeHash: string, now: Date): Promise<Consumed<StoredAuthorizationCode> | null>;
  /** Saves an access and a refresh token together; refuses (returns false) when the grant was revoked meanwhile. */
  saveTokens(tokens: StoredToken[]): Promise<boolean>;
  /** Marks a refresh token rotated in one atomic statement; null when no refresh token has this digest. */
  consumeRefreshToken(tokenHash: string, now: Date): Promise<Consumed<StoredToken> | null>;
  findToken(tokenHash: string): Promise<StoredToken | null>;
  revokeFamily(familyId: string, now: Date): Promise<void>;
}
