import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const FORMAT = 'pl1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed secret that cannot be opened: tampered, bound to another record, or sealed under a key this process lacks. */
export class SecretUnreadable extends Error {
  constructor(why: string) {
    super(`the stored secret cannot be opened: ${why}`);
    this.name = 'SecretUnreadable';
  }
}

interface KeyEncryptionKey {
  id: string;
  key: Buffer;
}

/** The key id is derived from the configured secret (never stored beside it), so every replica names a key alike. */
function keyEncryptionKey(configured: string): KeyEncryptionKey {
  const id = createHash('sha256').update(configured).digest('hex').slice(0, 12);
  const key = Buffer.from(hkdfSync('sha256', configured, 'postline', 'secret-box key-encryption key v1', 32));
  return { id, key };
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

function encrypt(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(aad));
  return Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

function decrypt(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new SecretUnreadable('too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES)).setAAD(Buffer.from(aad));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SecretUnreadable('it was altered, or belongs to another record');
  }
}

/**
 * Envelope encryption for credentials stored at rest (AES-256-GCM). Each secret gets its own random data key; the
 * data key is stored wrapped by the key-encryption key, whose id travels in the sealed text so keys can rotate:
 * seal with the active key, open with it or any retired one still configured, and `rewrap` moves a secret to the
 * active key without touching its data. `context` names the record and field (e.g. `delivery_connection:edc_1:password`)
 * and is authenticated, so a sealed value copied onto another record does not open there.
 */
export class SecretBox {
  private readonly active: KeyEncryptionKey;
  private readonly keys: Map<string, KeyEncryptionKey>;

  constructor(activeKey: string, retiredKeys: readonly string[] = []) {
    this.active = keyEncryptionKey(activeKey);
    this.keys = new Map([...retiredKeys.map(keyEncryptionKey), this.active].map((kek) => [kek.id, kek]));
  }

  seal(plaintext: string, context: string): string {
    const dataKey = randomBytes(32);
    const data = encrypt(dataKey, Buffer.from(plaintext, 'utf8'), context);
    return this.envelope(this.active, dataKey, data, context);
  }

  open(sealed: string, context: string): string {
    const { kek, wrappedKey, data } = this.parse(sealed);
    const dataKey = decrypt(kek.key, wrappedKey, `data-key:${context}`);
    return decrypt(dataKey, data, context).toString('utf8');
  }

  /** Whether the secret was sealed under a key other than the active one. */
  needsRewrap(sealed: string): boolean {
    return this.parse(sealed).kek.id !== this.active.id;
  }

  /** The same secret with its data key wrapped by the active key; the data itself is not re-encrypted. */
  rewrap(sealed: string, context: string): string {
    const { kek, wrappedKey, data } = this.parse(sealed);
    const dataKey = decrypt(kek.key, wrappedKey, `data-key:${context}`);
    return this.envelope(this.active, dataKey, data, context);
  }

  private envelope(kek: KeyEncryptionKey, dataKey: Buffer, data: Buffer, context: string): string {
    return [FORMAT, kek.id, b64(encrypt(kek.key, dataKey, `data-key:${context}`)), b64(data)].join('.');
  }

  private parse(sealed: string): { kek: KeyEncryptionKey; wrappedKey: Buffer; data: Buffer } {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== FORMAT) throw new SecretUnreadable('not a sealed secret');
    const kek = this.keys.get(parts[1]);
    if (!kek) throw new SecretUnreadable(`it was sealed under key ${parts[1]}, which is not configured`);
    return { kek, wrappedKey: Buffer.from(parts[2], 'base64url'), data: Buffer.from(parts[3], 'base64url') };
  }
}
