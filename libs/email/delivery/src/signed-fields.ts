import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** Ids, source types and other fields are short, URL-safe words: anything else is refused when a token is built and when one is read. */
const FIELD = /^[A-Za-z0-9_-]{1,100}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** HMAC-SHA256 truncated to 128 bits (RFC 2104 §5 allows any length of at least half the output): links stay short. */
const MAC_BYTES = 16;
const MAX_TOKEN_LENGTH = 600;

/** A key for one purpose, derived from the configured CURSOR_SECRET by HKDF-SHA256, so no two purposes share a key. */
export function derivedKey(secret: string, purpose: string): Buffer {
  if (!secret) throw new Error(`${purpose} needs a secret`);
  return Buffer.from(hkdfSync('sha256', secret, 'postline', purpose, 32));
}

/** HMAC-SHA256 of `text` under `key`, truncated to 128 bits. */
export function truncatedMac(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest().subarray(0, MAC_BYTES);
}

/** Whether `given` (base64url) is the MAC `expected`, compared in constant time. */
export function macMatches(given: string, expected: Buffer): boolean {
  if (!BASE64URL.test(given)) return false;
  const bytes = Buffer.from(given, 'base64url');
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

/**
 * Signed tokens of URL-safe fields: `<version>.<base64url of the fields joined by '~'>.<base64url mac>`, the MAC taken
 * over `<version>.<payload>` with a key of this purpose alone. The unsubscribe links and the tracking links use it.
 */
export class SignedFields {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly version: string,
    purpose: string,
  ) {
    this.key = derivedKey(secret, purpose);
  }

  sign(fields: readonly string[]): string {
    if (!fields.every((field) => FIELD.test(field))) throw new RangeError('signed token fields must be URL-safe ids');
    const payload = Buffer.from(fields.join('~'), 'utf8').toString('base64url');
    return `${this.version}.${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The token's fields when it was signed with this key and has one of the `counts` of fields; null otherwise. */
  verify(token: unknown, counts: readonly number[]): string[] | null {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== this.version) return null;
    const [, payload, mac] = parts;
    if (!BASE64URL.test(payload) || !macMatches(mac, this.mac(payload))) return null;
    const fields = Buffer.from(payload, 'base64url').toString('utf8').split('~');
    return counts.includes(fields.length) && fields.every((field) => FIELD.test(field)) ? fields : null;
  }

  private mac(payload: string): Buffer {
    return truncatedMac(this.key, `${this.version}.${payload}`);
  }
}
