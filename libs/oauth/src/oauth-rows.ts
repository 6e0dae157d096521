import type { OAuthClient, OAuthGrant, StoredAuthorizationCode, StoredToken } from './store';

/*
 * The columns both services' OAuth tables share, mapped to and from the mechanism's records. Each repository runs its
 * own Prisma statements with these (the two generated clients have no common delegate type that keeps Prisma's column
 * checks) and adds the columns that say whose grant a row is: `user_id` and `workspace_id` in email, `owner_id` in forms.
 */

export interface OAuthClientColumns {
  id: string;
  name: string;
  redirect_uris: string[];
  scopes: string[];
  client_uri: string | null;
  created_at: Date;
}

export const oauthClientColumns = (client: OAuthClient): OAuthClientColumns => ({
  id: client.id,
  name: client.name,
  redirect_uris: client.redirectUris,
  scopes: client.scopes,
  client_uri: client.clientUri,
  created_at: client.createdAt,
});

export const oauthClientOf = (row: OAuthClientColumns): OAuthClient => ({
  id: row.id,
  name: row.name,
  redirectUris: row.redirect_uris,
  scopes: row.scopes,
  clientUri: row.client_uri,
  createdAt: row.created_at,
});

/** Whose grant a code or token is, read from the service's own columns. */
export type GrantHolder = Pick<OAuthGrant, 'userId' | 'workspaceId'>;

export interface OAuthCodeColumns {
  code_hash: string;
  connection_id: string;
  client_id: string;
  scopes: string[];
  redirect_uri: string;
  code_challenge: string;
  family_id: string;
  expires_at: Date;
}

export const oauthCodeColumns = (code: StoredAuthorizationCode): OAuthCodeColumns => ({
  code_hash: code.codeHash,
  connection_id: code.grantId,
  client_id: code.clientId,
  scopes: code.scopes,
  redirect_uri: code.redirectUri,
  code_challenge: code.codeChallenge,
  family_id: code.familyId,
  expires_at: code.expiresAt,
});

export const storedCodeOf = (row: OAuthCodeColumns, holder: GrantHolder): StoredAuthorizationCode => ({
  codeHash: row.code_hash,
  grantId: row.connection_id,
  clientId: row.client_id,
  ...holder,
  scopes: row.scopes,
  redirectUri: row.redirect_uri,
  codeChallenge: row.code_challenge,
  familyId: row.family_id,
  expiresAt: row.expires_at,
});

export interface OAuthTokenColumns {
  id: string;
  token_hash: string;
  kind: StoredToken['kind'];
  family_id: string;
  connection_id: string;
  client_id: string;
  scopes: string[];
  token_preview: string;
  expires_at: Date;
  created_at: Date;
}

export const oauthTokenColumns = (token: StoredToken): OAuthTokenColumns => ({
  id: token.id,
  token_hash: token.tokenHash,
  kind: token.kind,
  family_id: token.familyId,
  connection_id: token.grantId,
  client_id: token.clientId,
  scopes: token.scopes,
  token_preview: token.preview,
  expires_at: token.expiresAt,
  created_at: token.createdAt,
});

export const storedTokenOf = (row: OAuthTokenColumns & { revoked_at: Date | null }, holder: GrantHolder): StoredToken => ({
  id: row.id,
  tokenHash: row.token_hash,
  kind: row.kind,
  familyId: row.family_id,
  grantId: row.connection_id,
  clientId: row.client_id,
  ...holder,
  scopes: row.scopes,
  preview: row.token_preview,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  createdAt: row.created_at,
});
