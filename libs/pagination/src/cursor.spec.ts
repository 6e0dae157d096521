import { createHmac } from 'node:crypto';
import { DomainError } from '@shared/errors';
import { CursorCodec } from './cursor';
import { DEFAULT_LIMIT, parseLimit } from './page';

const anything = (_position: unknown): _position is unknown => true;

const invalidCursor = expect.objectContaining({ status: 400, code: 'invalid_cursor' });

describe('CursorCodec details', () => {
  const codec = new CursorCodec('s'.repeat(16));

  it('needs a secret of at least 16 characters', () => {
    expect(() => new CursorCodec('s'.repeat(15))).toThrow('Cursor secret must be at least 16 characters');
    expect(() => new CursorCodec('s'.repeat(16))).not.toThrow();
  });

  it('writes base64url JSON and a 22-character tag', () => {
    const [payload, tag] = codec.encode('scope', { n: 1 }).split('.');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).toEqual({ n: 1 });
    expect(tag).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('binds the tag to the scope exactly (no scope/payload ambiguity)', () => {
    const cursor = codec.encode('ab', { n: 1 });
    expect(() => codec.decode('a', cursor, anything)).toThrow(DomainError);
    expect(() => codec.decode('ab\0', cursor, anything)).toThrow(DomainError);
    expect(codec.decode('ab', cursor, anything)).toEqual({ n: 1 });
  });

  it('names the field it was given, with the recovery hint', () => {
    expect(() => codec.decode('s', 'nope', anything, 'cursor')).toThrow(
      expect.objectContaining({
        details: { field: 'cursor' },
        message: '"cursor" is not a cursor this list issued; pass next_cursor back unchanged.',
      }),
    );
    expect(() => codec.decode('s', 'nope', anything)).toThrow(expect.objectContaining({ details: { field: 'starting_after' } }));
  });

  it('refuses an empty payload or tag, a shortened or lengthened tag, and a position the caller rejects', () => {
    const cursor = codec.encode('s', { n: 1 });
    const [payload, tag] = cursor.split('.');
    for (const bad of [`.${tag}`, `${payload}.`, `${payload}.${tag.slice(0, -1)}`, `${payload}.${tag}A`, `${payload}.${tag}.`]) {
      expect(() => codec.decode('s', bad, anything)).toThrow(invalidCursor);
    }
    expect(() => codec.decode('s', cursor, (_p): _p is unknown => false)).toThrow(invalidCursor);
  });

  it('refuses a correctly signed payload that is not JSON', () => {
    const payload = Buffer.from('{not json').toString('base64url');
    const tag = createHmac('sha256', 's'.repeat(16)).update('s').update('\0').update(payload).digest('base64url').slice(0, 22);
    expect(() => codec.decode('s', `${payload}.${tag}`, anything)).toThrow(invalidCursor);
  });

  it('accepts a cursor of up to 1024 characters and refuses a longer one', () => {
    const fits = codec.encode('s', 'x'.repeat(740));
    expect(fits.length).toBeLessThanOrEqual(1024);
    expect(codec.decode('s', fits, anything)).toBe('x'.repeat(740));
    const tooLong = codec.encode('s', 'x'.repeat(760));
    expect(tooLong.length).toBeGreaterThan(1024);
    expect(() => codec.decode('s', tooLong, anything)).toThrow(invalidCursor);
  });
});

describe('parseLimit details', () => {
  it('treats absent, null and empty as the default', () => {
    for (const absent of [undefined, null, '']) expect(parseLimit(absent)).toBe(DEFAULT_LIMIT.default);
    expect(parseLimit(undefined, { default: 7, max: 9 })).toBe(7);
  });

  it('accepts 1 and the maximum, and names limit with the range when refusing', () => {
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit(9, { default: 7, max: 9 })).toBe(9);
    expect(() => parseLimit('10', { default: 7, max: 9 })).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_limit', details: { field: 'limit' }, message: '"limit" must be an integer from 1 to 9.' }),
    );
    expect(() => parseLimit(' 5')).toThrow(DomainError);
    expect(() => parseLimit('1234567')).toThrow(DomainError);
  });
});
