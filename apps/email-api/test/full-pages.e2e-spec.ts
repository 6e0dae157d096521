/**
 * Every implemented cursor list of the contract (a GET taking `starting_after`), filled with exactly ROWS rows in a
 * workspace of its own: a page of limit ROWS - 1, ROWS and ROWS + 1, and a walk one row at a time. An exactly full
 * last page has `has_more: false` and no cursor; a page with rows after it has both, and the cursor leads to them.
 */
import { isImplemented } from './contract';
import { CURSOR_LISTS, LIST_FILLERS, ListPage } from './cursor-lists';
import { emailApi, EmailApiHarness } from './helpers';

const ROWS = 3;

describe('email-api: exactly full pages of every cursor list', () => {
  let h: EmailApiHarness;
  beforeAll(async () => {
    h = await emailApi({ RATE_LIMIT_REQUESTS: '0' });
  });
  afterAll(() => h?.close());

  it('has an entry for every implemented cursor list', async () => {
    const implemented: string[] = [];
    for (const op of CURSOR_LISTS) if (await isImplemented(h, op)) implemented.push(op.operation_id);
    expect(implemented.sort()).toEqual(Object.keys(LIST_FILLERS).sort());
  });

  it.each(Object.keys(LIST_FILLERS))('%s', async (operationId) => {
    const op = CURSOR_LISTS.find((o) => o.operation_id === operationId)!;
    const workspace = await h.newWorkspace(`Pages of ${operationId}`);
    await LIST_FILLERS[operationId](h, workspace, ROWS);
    const list = async (query: string): Promise<ListPage> => (await h.as(workspace.api_key).get(`${op.path}?${query}`).expect(200)).body;
    const shape = (page: ListPage) => ({ rows: page.data.length, has_more: page.pagination.has_more, cursor: typeof page.pagination.next_cursor });

    expect(shape(await list(`limit=${ROWS + 1}`))).toEqual({ rows: ROWS, has_more: false, cursor: 'object' });
    const all = await list(`limit=${ROWS}`);
    expect(shape(all)).toEqual({ rows: ROWS, has_more: false, cursor: 'object' });
    expect(all.pagination.next_cursor).toBeNull();
    const first = await list(`limit=${ROWS - 1}`);
    expect(shape(first)).toEqual({ rows: ROWS - 1, has_more: true, cursor: 'string' });
    // The rest is exactly one row: a full last page.
    const rest = await list(`limit=1&starting_after=${encodeURIComponent(first.pagination.next_cursor!)}`);
    expect({ ...shape(rest), cursor: rest.pagination.next_cursor }).toEqual({ rows: 1, has_more: false, cursor: null });

    // One row at a time: every page but the last says there is more, and the walk sees each row once.
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < ROWS; i++) {
      const page: ListPage = await list(`limit=1${cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.data.map((row) => row.id));
      expect({ step: i, has_more: page.pagination.has_more }).toEqual({ step: i, has_more: i < ROWS - 1 });
      cursor = page.pagination.next_cursor;
    }
    expect(seen).toEqual(all.data.map((row) => row.id));
    expect(cursor).toBeNull();
  });
});
