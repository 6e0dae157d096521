import type { Theme } from '@forms/draft-schema';
import { customFontOrigin } from './theme';

/**
 * The Content-Security-Policy to send with the hosted page. Scripts only from the page's origin (the bundle at
 * `scriptUrl`; the embedded schema is a JSON data block, which CSP does not execute); styles from the page's origin
 * (the fixed stylesheet) and inline (the theme);
 * images and media from any http(s) host because form authors link them; fonts from the page's origin (self-hosted,
 * see fonts.ts; `hostedFormCsp` adds a custom font's host); fetches only to the page's origin.
 * No frame-ancestors: forms are meant to be embedded on other sites.
 */
export const HOSTED_FORM_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  'img-src https: http:',
  'media-src https: http:',
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
].join('; ');

/** The policy for one form's page: the custom font's origin, if the theme has one, joins 'self' as a font source. */
export function hostedFormCsp(theme: Theme): string {
  const origin = customFontOrigin(theme);
  return origin ? HOSTED_FORM_CSP.replace("font-src 'self'", `font-src 'self' ${origin}`) : HOSTED_FORM_CSP;
}

/**
 * A page with a payment step also loads the provider's checkout script and lets it talk to, and frame, the provider:
 * `origins` (the configured checkout script and API origins; local fakes in tests) join script-src, connect-src and
 * a frame-src.
 */
export function withPaymentOrigins(csp: string, origins: readonly string[]): string {
  if (!origins.length) return csp;
  const list = [...new Set(origins)].join(' ');
  return csp
    .replace("script-src 'self'", `script-src 'self' ${list}`)
    .replace("connect-src 'self'", `connect-src 'self' ${list}`)
    .concat(`; frame-src ${list}`);
}
