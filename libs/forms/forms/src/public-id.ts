import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 22;

/**
 * A form's public id: 22 random base32 characters (110 bits) after `pub_`. Independent of the form id, so the hosted
 * page address reveals neither the form id nor when the form was made.
 */
export function newPublicId(): string {
  // 256 is a multiple of 32, so each byte maps to a character without bias.
  const bytes = randomBytes(LENGTH);
  let id = 'pub_';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}
