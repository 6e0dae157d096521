/** Lifetimes and prefixes of the email service's OAuth credentials (the contract treats mra_/mrt_ + 12 chars as secrets). */
export const EMAIL_OAUTH = {
  accessTokenPrefix: 'mra_',
  refreshTokenPrefix: 'mrt_',
  codePrefix: 'mrc_',
  accessTokenTtlMs: 60 * 60_000,
  refreshTokenTtlMs: 30 * 24 * 60 * 60_000,
  codeTtlMs: 5 * 60_000,
  sessionTtlMs: 12 * 60 * 60_000,
  sessionCookie: 'pl_session',
  signInCsrfCookie: 'pl_signin_csrf',
  connectedAppsPath: '/account/connected-apps',
} as const;
