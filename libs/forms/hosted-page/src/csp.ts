/**
 * The Content-Security-Policy to send with the hosted page. Scripts only from the page's origin (the bundle at
 * `scriptUrl`; the embedded schema is a JSON data block, which CSP does not execute); styles inline (the theme);
 * images, media and fonts from any http(s) host because form authors link them; fetches only to the page's origin.
 * No frame-ancestors: forms are meant to be embedded on other sites.
 */
export const HOSTED_FORM_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  'img-src https: http:',
  'media-src https: http:',
  'font-src https: http:',
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
].join('; ');
