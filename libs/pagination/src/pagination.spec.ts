import { DomainError } from '@shared/errors';
import { CursorCodec } from './cursor';
import { isKeysetPosition, readKeysetPage } from './keyset';
import { parseLimit, toPage } from './page';

const anyPosition = (_position: unknown): _position is unknown => true;

describe('CursorCodec', () => {
  const codec = new CursorCodec('x'.repeat(32));

  it('round-trips a position', () => {
    const cursor = codec.encode('wsp_1:subscribers', { created_at: '2026-01-01T00:00:00.000Z', id: 'sub_9' });
    expect(codec.decode('wsp_1:subscribers', cursor, isKeysetPosition)).toEqual({ created_at: '2026-01-01T00:00:00.000Z', id: 'sub_9' });
  });

  it('rejects a forged cursor with a 400 naming starting_after', () => {
    const cursor = codec.encode('wsp_1:subscribers', { id: 'sub_9' });
    const [, tag] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ id: 'sub_1' })).toString('base64url')}.${tag}`;
    try {
      codec.decode('wsp_1:subscribers', forged, anyPosition);
      throw new Error('accepted a forged cursor');
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).status).toBe(400);
      expect((error as DomainError).code).toBe('invalid_cursor');
      expect((error as DomainError).details).toEqual({ field: 'starting_after' });
    }
  });

  it('rejects a cursor from another scope (tenant or list)', () => {
    const cursor = codec.encode('wsp_1:subscribers', { id: 'sub_9' });
    expect(() => codec.decode('wsp_2:subscribers', cursor, anyPosition)).toThrow(DomainError);
  });

  it('rejects garbage', () => {
    for (const bad of ['', 'abc', 'a.b.c', '.', 'x'.repeat(2000)]) expect(() => codec.decode('s', bad, anyPosition)).toThrow(DomainError);
  });

  it('rejects a cursor signed with another secret', () => {
    const other = new CursorCodec('y'.repeat(32));
    expect(() => codec.decode('s', other.encode('s', { id: 1 }), anyPosition)).toThrow(DomainError);
  });
});

describe('readKeysetPage', () => {
  const codec = new CursorCodec('x'.repeat(32));
  const signed = (position: unknown) => ({ starting_after: codec.encode('scope', position) });

  it('reads a position this codec wrote', () => {
    const after = readKeysetPage(codec, 'scope', signed({ created_at: '2026-01-01T00:00:00.123Z', id: 'sub_01KAB3XYZ' })).after;
    expect(after).toEqual({ created_at: new Date('2026-01-01T00:00:00.123Z'), id: 'sub_01KAB3XYZ' });
  });

  it.each([
    ['a year PostgreSQL cannot hold', { created_at: '+275760-09-13T00:00:00.000Z', id: 'sub_1' }],
    ['a negative year', { created_at: '-271821-04-20T00:00:00.000Z', id: 'sub_1' }],
    ['year zero', { created_at: '0000-01-01T00:00:00.000Z', id: 'sub_1' }],
    ['a date that does not exist', { created_at: '2026-02-30T00:00:00.000Z', id: 'sub_1' }],
    ['a time zone offset', { created_at: '2026-01-01T00:00:00.000+25:00', id: 'sub_1' }],
    ['a bare date', { created_at: '2026-01-01', id: 'sub_1' }],
    ['garbage time', { created_at: 'yesterday', id: 'sub_1' }],
    ['a NUL in the id', { created_at: '2026-01-01T00:00:00.000Z', id: 'sub_1\u0000' }],
    ['a control character in the id', { created_at: '2026-01-01T00:00:00.000Z', id: 'sub\n1' }],
    ['an over-long id', { created_at: '2026-01-01T00:00:00.000Z', id: `sub_${'A'.repeat(65)}` }],
    ['a numeric id', { created_at: '2026-01-01T00:00:00.000Z', id: 7 }],
    ['no position at all', null],
    ['a list', ['2026-01-01T00:00:00.000Z', 'sub_1']],
  ])('refuses a validly signed cursor holding %s with invalid_cursor', (_case, position) => {
    let error: unknown;
    try {
      readKeysetPage(codec, 'scope', signed(position));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_cursor', details: { field: 'starting_after' } });
  });
});

describe('parseLimit', () => {
  it('defaults and enforces the maximum', () => {
    expect(parseLimit(undefined)).toBe(25);
    expect(parseLimit('100')).toBe(100);
    for (const bad of ['0', '101', '-1', '1.5', 'ten', '1e2']) expect(() => parseLimit(bad)).toThrow(DomainError);
  });
});

describe('toPage', () => {
  it('uses the extra row only to set has_more', () => {
    const page = toPage(
      [1, 2, 3],
      2,
      (n) => n * 10,
      (n) => `c${n}`,
    );
    expect(page).toEqual({ data: [10, 20], pagination: { has_more: true, next_cursor: 'c2' } });
    expect(toPage([1], 2, (n) => n, String).pagination).toEqual({ has_more: false, next_cursor: null });
  });
});
