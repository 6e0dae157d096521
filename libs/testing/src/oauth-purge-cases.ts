const HOUR = 3_600_000;

/**
 * The rows both services' OAuth purge tests seed, timed against `now`, and the ids the purge must keep: live codes
 * and sessions, live tokens, a rotated refresh token that has not expired (reuse detection still needs it) and a
 * token revoked an hour ago. Each spec adds its own service's columns.
 */
export function oauthPurgeCases(now: number) {
  const at = (hours: number) => new Date(now + hours * HOUR);
  const token = (id: string, kind: 'access' | 'refresh', expiresInHours: number, extra: { used_at?: Date; revoked_at?: Date } = {}) => ({
    id,
    token_hash: `hash_${id}`,
    kind,
    expires_at: at(expiresInHours),
    ...extra,
  });
  return {
    codes: [
      { code_hash: 'code_expired', expires_at: at(-1) },
      { code_hash: 'code_used_expired', expires_at: at(-1), used_at: at(-1.05) },
      { code_hash: 'code_live', expires_at: at(0.05) },
    ],
    sessions: [
      { id: 'bss_expired', token_hash: 'hash_bss_expired', expires_at: at(-1) },
      { id: 'bss_live', token_hash: 'hash_bss_live', expires_at: at(12) },
    ],
    tokens: [
      token('oat_access_expired', 'access', -1),
      token('oat_access_live', 'access', 1),
      token('oat_refresh_expired', 'refresh', -1, { used_at: at(-24) }),
      token('oat_refresh_rotated', 'refresh', 24 * 29, { used_at: at(-2) }),
      token('oat_refresh_live', 'refresh', 24 * 29),
      token('oat_revoked_days_ago', 'refresh', 24 * 20, { revoked_at: at(-25) }),
      token('oat_revoked_recently', 'access', 0.5, { revoked_at: at(-1) }),
    ],
    kept: {
      codes: ['code_live'],
      sessions: ['bss_live'],
      tokens: ['oat_access_live', 'oat_refresh_live', 'oat_refresh_rotated', 'oat_revoked_recently'],
    },
    removed: { codes: 2, tokens: 3, sessions: 1 },
  };
}
