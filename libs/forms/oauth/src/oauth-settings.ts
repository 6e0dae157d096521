import { OAUTH_LIFETIMES } from '@shared/oauth';

/**
 * Lifetimes, prefixes and cookie names of the forms service's OAuth credentials and browser sessions. Prefixes and
 * cookie names differ from the email service's: cookies ignore ports, and a token is recognised by its own prefix.
 */
export const FORMS_OAUTH = {
  accessTokenPrefix: 'pfa_',
  refreshTokenPrefix: 'pfr_',
  codePrefix: 'pfc_',
  ...OAUTH_LIFETIMES,
  sessionCookie: 'plf_session',
  signInCsrfCookie: 'plf_signin_csrf',
  connectedAppsPath: '/account/connected-apps',
  /** The header a signed-in app sends its session's CSRF token in, on every unsafe request. */
  csrfHeader: 'x-csrf-token',
} as const;
