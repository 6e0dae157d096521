import { OAUTH_LIFETIMES } from '@shared/oauth';

/** Lifetimes and prefixes of the email service's OAuth credentials (the contract treats mra_/mrt_ + 12 chars as secrets). */
export const EMAIL_OAUTH = {
  accessTokenPrefix: 'mra_',
  refreshTokenPrefix: 'mrt_',
  codePrefix: 'mrc_',
  ...OAUTH_LIFETIMES,
  sessionCookie: 'pl_session',
  signInCsrfCookie: 'pl_signin_csrf',
  connectedAppsPath: '/account/connected-apps',
} as const;
