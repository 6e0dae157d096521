/** What the lookup of an access token by its digest gives back that decides whether the token may be used. */
export interface AccessTokenState {
  revoked_at: Date | null;
  expires_at: Date;
  connection: { revoked_at: Date | null };
}

export type AccessTokenRefusal = 'invalid_credential' | 'credential_revoked' | 'credential_expired';

/**
 * The access token found by its digest, once it may be used: an unknown token, one revoked (itself or its
 * connection) and one expired at `now` are refused with the error the service builds from its own registry.
 */
export function usableAccessToken<T extends AccessTokenState>(row: T | null, now: Date, refuse: (code: AccessTokenRefusal, message: string) => Error): T {
  if (!row) throw refuse('invalid_credential', 'The OAuth access token is not valid.');
  if (row.revoked_at || row.connection.revoked_at) throw refuse('credential_revoked', 'This OAuth access token was revoked; connect the app again.');
  if (row.expires_at <= now) throw refuse('credential_expired', 'This OAuth access token has expired; refresh it.');
  return row;
}
