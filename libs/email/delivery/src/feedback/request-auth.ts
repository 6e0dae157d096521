import { createHash, timingSafeEqual } from 'node:crypto';
import { EmailErrors } from '@email/contracts';
import type { FeedbackRequest } from './feedback-event';

/**
 * The answer to a request that is not signed or authenticated by the provider: 401, nothing recorded. The message
 * never says which check failed or echoes a credential. `challenge` goes into WWW-Authenticate: SNS sends the
 * basic-auth credentials of the subscription URL only after a 401 that asks for them.
 */
export function notFromProvider(challenge?: string) {
  return EmailErrors.fail('invalid_credential', 'The delivery feedback request is not signed or authenticated by the provider of this connection.', {
    ...(challenge ? { headers: { 'www-authenticate': challenge } } : {}),
  });
}

/** The first value of a request header. */
export function headerOf(request: FeedbackRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Compares two secrets in constant time whatever their lengths (both are hashed first). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return expected.length > 0 && timingSafeEqual(digest(given), digest(expected));
}

const BASIC_CHALLENGE = 'Basic realm="delivery-feedback", charset="UTF-8"';

/** Requires `Authorization: Basic …` whose password is the connection's feedback token (any user name). */
export function requireBasicPassword(request: FeedbackRequest, token: string): void {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(headerOf(request, 'authorization') ?? '');
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0 || !sameSecret(decoded.slice(colon + 1), token)) throw notFromProvider(BASIC_CHALLENGE);
}

/** Requires `Authorization: Bearer <the connection's feedback token>`. */
export function requireBearer(request: FeedbackRequest, token: string): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headerOf(request, 'authorization') ?? '');
  if (!match || !sameSecret(match[1], token)) throw notFromProvider('Bearer realm="delivery-feedback"');
}
