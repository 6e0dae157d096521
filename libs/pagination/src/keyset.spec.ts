import { DomainError } from '@shared/errors';
import { CursorCodec } from './cursor';
import { cursorFor, isKeysetPosition, KeysetPage, keysetList, keysetWhere, readKeysetPage } from './keyset';

const codec = new CursorCodec('k'.repeat(32));
const row = (id: string, at: string) => ({ id, created_at: new Date(at) });

describe('keysetWhere', () => {
  it('is empty on the first page', () => {
    expect(keysetWhere({ limit: 10 })).toEqual({});
  });

  it('selects rows older than the position, or as old with a smaller id (newest first, ties by id)', () => {
    const at = new Date('2026-03-01T10:00:00.000Z');
    expect(keysetWhere({ limit: 10, after: { created_at: at, id: 'sub_5' } })).toEqual({
      OR: [{ created_at: { lt: at } }, { created_at: at, id: { lt: 'sub_5' } }],
    });
  });
});

describe('cursorFor and readKeysetPage', () => {
  it('round-trip the last row of a page within its scope', () => {
    const last = row('tag_01ABC', '2026-03-01T10:00:00.250Z');
    const cursor = cursorFor(codec, 'wsp_1:tags', last);
    expect(codec.decode('wsp_1:tags', cursor, isKeysetPosition)).toEqual({ created_at: '2026-03-01T10:00:00.250Z', id: 'tag_01ABC' });
    expect(readKeysetPage(codec, 'wsp_1:tags', { limit: '5', starting_after: cursor })).toEqual({ limit: 5, after: last });
    expect(() => readKeysetPage(codec, 'wsp_2:tags', { starting_after: cursor })).toThrow(DomainError);
  });

  it('reads the first page when there is no cursor, with the default limit', () => {
    expect(readKeysetPage(codec, 's', {})).toEqual({ limit: 25 });
    expect(readKeysetPage(codec, 's', { limit: '3', starting_after: '' })).toEqual({ limit: 3 });
  });
});

describe('isKeysetPosition', () => {
  const at = '2026-03-01T10:00:00.000Z';

  it('accepts what cursorFor writes, and ids at the limits of the pattern', () => {
    expect(isKeysetPosition({ created_at: at, id: 'sub_1' })).toBe(true);
    expect(isKeysetPosition({ created_at: '0001-01-01T00:00:00.000Z', id: `abcdefghijklmnop_${'Z'.repeat(64)}` })).toBe(true);
    expect(isKeysetPosition({ created_at: '9999-12-31T23:59:59.999Z', id: 'a_0' })).toBe(true);
  });

  it.each([
    ['text before the instant', { created_at: `x${at}`, id: 'sub_1' }],
    ['text after the instant', { created_at: `${at}x`, id: 'sub_1' }],
    ['text before the id', { created_at: at, id: ' sub_1' }],
    ['text after the id', { created_at: at, id: 'sub_1 ' }],
    ['an id without prefix', { created_at: at, id: '_1' }],
    ['an id without body', { created_at: at, id: 'sub_' }],
    ['an upper-case prefix', { created_at: at, id: 'SUB_1' }],
    ['an over-long prefix', { created_at: at, id: 'abcdefghijklmnopq_1' }],
    ['an id with punctuation', { created_at: at, id: 'sub_1-2' }],
    ['an hour that does not exist', { created_at: '2026-03-01T24:00:00.000Z', id: 'sub_1' }],
    ['a numeric instant', { created_at: Date.parse(at), id: 'sub_1' }],
    ['no id', { created_at: at }],
    ['nothing', undefined],
  ])('refuses %s', (_case, position) => {
    expect(isKeysetPosition(position)).toBe(false);
  });
});

describe('keysetList', () => {
  const rows = [row('sub_3', '2026-03-03T00:00:00.000Z'), row('sub_2', '2026-03-02T00:00:00.000Z'), row('sub_1', '2026-03-01T00:00:00.000Z')];

  it('fetches limit + 1 rows, maps the page and signs the cursor of its last row', async () => {
    const asked: KeysetPage[] = [];
    const fetch = async (page: KeysetPage) => {
      asked.push(page);
      return rows.slice(0, page.limit + 1);
    };
    const first = await keysetList(codec, 'wsp_1:subscribers', { limit: '2' }, fetch, (r) => r.id);
    expect(first.data).toEqual(['sub_3', 'sub_2']);
    expect(first.pagination.has_more).toBe(true);
    expect(first.pagination.next_cursor).toBe(cursorFor(codec, 'wsp_1:subscribers', rows[1]));

    await keysetList(codec, 'wsp_1:subscribers', { limit: '2', starting_after: first.pagination.next_cursor! }, fetch, (r) => r.id);
    expect(asked).toEqual([{ limit: 2 }, { limit: 2, after: rows[1] }]);
  });

  it('ends with has_more false and no cursor', async () => {
    const page = await keysetList(
      codec,
      's',
      { limit: '5' },
      async () => rows,
      (r) => r.id.toUpperCase(),
    );
    expect(page).toEqual({ data: ['SUB_3', 'SUB_2', 'SUB_1'], pagination: { has_more: false, next_cursor: null } });
  });
});
