import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** An opaque credential: the prefix and 256 random bits; only its digest is stored. */
export const newOpaqueToken = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');

/** What a person sees of a token: its prefix and last four characters. */
export const tokenPreview = (token: string, prefix: string): string => `${prefix}…${token.slice(-4)}`;

/** RFC 7636 S256: BASE64URL(SHA256(code_verifier)) equals the code challenge. */
export function pkceMatches(codeVerifier: string, codeChallenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(codeVerifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(codeVerifier).digest('base64url'));
  const expected = Buffer.from(codeChallenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
