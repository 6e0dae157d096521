import { OAuthError } from './oauth-error';

/** The validated metadata of a registration request (RFC 7591 §2). */
export interface ClientRegistration {
  name: string;
  redirectUris: string[];
  scopes: string[];
  clientUri: string | null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const MAX_REDIRECT_URIS = 10;

const invalid = (message: string) => new OAuthError('invalid_client_metadata', message);

/** A redirect URI a public client may register: https anywhere, plain http only to a loopback host (RFC 8252 §7.3). */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password || value.length > 2000) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * Checks a registration request. Only public clients using the authorization code grant are registered; an unknown
 * scope, auth method, grant or response type refuses the whole request rather than registering less than was asked.
 */
export function parseClientRegistration(body: unknown, knownScopes: readonly string[]): ClientRegistration {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('The request body must be a JSON object.');
  const metadata = body as Record<string, unknown>;
  const { redirect_uris: redirectUris, client_name: name, scope, client_uri: clientUri } = metadata;
  if (!isStringList(redirectUris) || redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS)
    throw new OAuthError('invalid_redirect_uri', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs.`);
  const badUri = redirectUris.find((uri) => !isAllowedRedirectUri(uri));
  if (badUri !== undefined)
    throw new OAuthError(
      'invalid_redirect_uri',
      `Redirect URI ${JSON.stringify(badUri.slice(0, 200))} must use https, or http on a loopback host, without a fragment.`,
    );
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') throw invalid('token_endpoint_auth_method must be "none": only public clients using PKCE are registered.');
  const grants = metadata.grant_types ?? ['authorization_code'];
  if (!isStringList(grants) || grants.some((grant) => grant !== 'authorization_code' && grant !== 'refresh_token'))
    throw invalid('grant_types may list only authorization_code and refresh_token.');
  const responses = metadata.response_types ?? ['code'];
  if (!isStringList(responses) || responses.some((type) => type !== 'code')) throw invalid('response_types may list only code.');
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 100)) throw invalid('client_name must be 1 to 100 characters.');
  if (clientUri !== undefined && (typeof clientUri !== 'string' || !/^https:\/\//.test(clientUri) || clientUri.length > 500))
    throw invalid('client_uri must be an https URL.');
  if (scope !== undefined && typeof scope !== 'string') throw invalid('scope must be a space-separated string.');
  const scopes = scope === undefined ? [...knownScopes] : [...new Set(scope.split(' ').filter(Boolean))];
  const unknown = scopes.filter((item) => !knownScopes.includes(item));
  if (unknown.length) throw invalid(`Unknown scope: ${unknown.map((item) => JSON.stringify(item.slice(0, 100))).join(', ')}.`);
  if (scopes.length === 0) throw invalid('scope must name at least one scope.');
  return { name: typeof name === 'string' ? name.trim() : 'Unnamed app', redirectUris: [...new Set(redirectUris)], scopes, clientUri: clientUri ?? null };
}
