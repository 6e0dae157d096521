import { toPage } from './page';

/** `toPage` receives up to limit + 1 rows; only the extra row means there is another page. */
describe('toPage at the page boundary', () => {
  const LIMIT = 3;
  const rows = (count: number) => Array.from({ length: count }, (_, i) => i + 1);
  const page = (count: number) =>
    toPage(
      rows(count),
      LIMIT,
      (n) => `row${n}`,
      (n) => `after${n}`,
    );

  it('limit - 1 rows: all of them, no more', () => {
    expect(page(LIMIT - 1)).toEqual({ data: ['row1', 'row2'], pagination: { has_more: false, next_cursor: null } });
  });

  it('exactly limit rows: a full last page, no more', () => {
    expect(page(LIMIT)).toEqual({ data: ['row1', 'row2', 'row3'], pagination: { has_more: false, next_cursor: null } });
  });

  it('limit + 1 rows: limit of them, more, and the cursor of the last one returned', () => {
    expect(page(LIMIT + 1)).toEqual({ data: ['row1', 'row2', 'row3'], pagination: { has_more: true, next_cursor: 'after3' } });
  });

  it('no rows: an empty last page', () => {
    expect(page(0)).toEqual({ data: [], pagination: { has_more: false, next_cursor: null } });
  });
});
