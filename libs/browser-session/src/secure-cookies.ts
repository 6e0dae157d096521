const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether the browser cookies of a service served at `publicBaseUrl` carry `Secure`: always, except for a plain-http
 * origin on a loopback host (local development and tests), where a browser would drop a Secure cookie. A plain-http
 * public origin anywhere else still gets Secure cookies, so a misconfigured deployment fails closed (no sign-in) rather
 * than sending a session over the network in clear.
 */
export function useSecureCookies(publicBaseUrl: string): boolean {
  const url = new URL(publicBaseUrl);
  return !(url.protocol === 'http:' && (LOOPBACK.has(url.hostname) || url.hostname.endsWith('.localhost')));
}
