import { createHash, randomBytes } from 'node:crypto';

/** Forms API keys look like `fsk_<43 url-safe characters>` (256 random bits); only a SHA-256 digest is stored. */
export const FORMS_KEY_PREFIX = 'fsk_';

export function generateFormsKey(): { secret: string; prefix: string; last4: string; hash: string } {
  const secret = FORMS_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { secret, prefix: secret.slice(0, 8), last4: secret.slice(-4), hash: hashFormsKey(secret) };
}

export function hashFormsKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
