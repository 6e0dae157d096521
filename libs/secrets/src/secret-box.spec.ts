import { SecretBox, SecretUnreadable } from './secret-box';

const OLD = 'old-key-'.repeat(5);
const NEW = 'new-key-'.repeat(5);
const CONTEXT = 'delivery_connection:edc_1:password';

/** Flips one character of one dot-separated part of a sealed secret. */
function altered(sealed: string, part: number): string {
  const parts = sealed.split('.');
  const text = parts[part];
  const i = Math.floor(text.length / 2);
  parts[part] = text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
  return parts.join('.');
}

describe('SecretBox', () => {
  const box = new SecretBox(NEW);

  it('opens what it sealed, unicode included, and never shows the plaintext in the sealed text', () => {
    const secret = 'pässwörd 🔑 with "quotes"';
    const sealed = box.seal(secret, CONTEXT);
    expect(box.open(sealed, CONTEXT)).toBe(secret);
    expect(sealed).not.toContain('pässwörd');
    expect(sealed).toMatch(/^pl1\.[0-9a-f]{12}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('seals the same secret differently every time (fresh data key and IVs)', () => {
    expect(box.seal('same', CONTEXT)).not.toBe(box.seal('same', CONTEXT));
  });

  it('refuses a secret opened for another record or field', () => {
    const sealed = box.seal('s3cret', CONTEXT);
    expect(() => box.open(sealed, 'delivery_connection:edc_2:password')).toThrow(SecretUnreadable);
  });

  it.each([
    ['the wrapped data key', 2],
    ['the data', 3],
  ])('refuses a secret whose %s was altered', (_, part) => {
    expect(() => box.open(altered(box.seal('s3cret', CONTEXT), part), CONTEXT)).toThrow(SecretUnreadable);
  });

  it.each(['', 'plain text', 'pl2.abc.def.ghi', 'pl1.abc.def'])('refuses %j as not a sealed secret', (text) => {
    expect(() => box.open(text, CONTEXT)).toThrow(SecretUnreadable);
  });

  it('names the key by the configured secret, alike in every process, and refuses a key it does not have', () => {
    const sealed = new SecretBox(OLD).seal('s3cret', CONTEXT);
    expect(new SecretBox(OLD).open(sealed, CONTEXT)).toBe('s3cret');
    expect(() => box.open(sealed, CONTEXT)).toThrow(/sealed under key [0-9a-f]{12}, which is not configured/);
  });

  it('rotates: a retired key still opens, rewrap moves the secret to the active key, which then opens it alone', () => {
    const sealed = new SecretBox(OLD).seal('s3cret', CONTEXT);
    const rotating = new SecretBox(NEW, [OLD]);
    expect(rotating.open(sealed, CONTEXT)).toBe('s3cret');
    expect(rotating.needsRewrap(sealed)).toBe(true);
    const rewrapped = rotating.rewrap(sealed, CONTEXT);
    expect(rotating.needsRewrap(rewrapped)).toBe(false);
    expect(rewrapped.split('.')[3]).toBe(sealed.split('.')[3]);
    expect(box.open(rewrapped, CONTEXT)).toBe('s3cret');
    expect(() => rotating.rewrap(sealed, 'another:record')).toThrow(SecretUnreadable);
  });
});
