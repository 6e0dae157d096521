import { createHash, randomBytes } from 'node:crypto';

/** Workspace API keys look like `mrk_<43 url-safe characters>` (256 random bits). */
export const API_KEY_PREFIX = 'mrk_';

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * Keys are stored only as a SHA-256 digest. A slow hash (argon2) buys nothing for 256-bit random
 * secrets and would cost milliseconds on every request.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What a person may see again later: the prefix and the last four characters. */
export function previewApiKey(key: string): string {
  return `${API_KEY_PREFIX}…${key.slice(-4)}`;
}
