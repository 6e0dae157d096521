import { DomainError } from '@shared/errors';
import { CursorCodec } from './cursor';
import { parseLimit, toPage } from './page';

describe('CursorCodec', () => {
  const codec = new CursorCodec('x'.repeat(32));

  it('round-trips a position', () => {
    const cursor = codec.encode('wsp_1:subscribers', { created_at: '2026-01-01T00:00:00.000Z', id: 'sub_9' });
    expect(codec.decode('wsp_1:subscribers', cursor)).toEqual({ created_at: '2026-01-01T00:00:00.000Z', id: 'sub_9' });
  });

  it('rejects a forged cursor with a 400 naming starting_after', () => {
    const cursor = codec.encode('wsp_1:subscribers', { id: 'sub_9' });
    const [, tag] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ id: 'sub_1' })).toString('base64url')}.${tag}`;
    try {
      codec.decode('wsp_1:subscribers', forged);
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
    expect(() => codec.decode('wsp_2:subscribers', cursor)).toThrow(DomainError);
  });

  it('rejects garbage', () => {
    for (const bad of ['', 'abc', 'a.b.c', '.', 'x'.repeat(2000)]) expect(() => codec.decode('s', bad)).toThrow(DomainError);
  });

  it('rejects a cursor signed with another secret', () => {
    const other = new CursorCodec('y'.repeat(32));
    expect(() => codec.decode('s', other.encode('s', { id: 1 }))).toThrow(DomainError);
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
    const page = toPage([1, 2, 3], 2, (n) => n * 10, (n) => `c${n}`);
    expect(page).toEqual({ data: [10, 20], pagination: { has_more: true, next_cursor: 'c2' } });
    expect(toPage([1], 2, (n) => n, String).pagination).toEqual({ has_more: false, next_cursor: null });
  });
});
