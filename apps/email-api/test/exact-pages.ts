import { EmailApiHarness } from './helpers';

type Agent = ReturnType<EmailApiHarness['as']>;

/**
 * On a list that starts empty: 3 rows fill a limit-3 page exactly (has_more false, no cursor); a 4th row makes
 * has_more true, and the page after it holds that one row and ends.
 */
export async function expectExactPages(as: Agent, path: string, create: (i: number) => Promise<unknown>): Promise<void> {
  const join = path.includes('?') ? '&' : '?';
  for (let i = 0; i < 3; i++) await create(i);
  const full = await as.get(`${path}${join}limit=3`).expect(200);
  expect({ rows: full.body.data.length, pagination: full.body.pagination }).toEqual({ rows: 3, pagination: { has_more: false, next_cursor: null } });
  await create(3);
  const first = await as.get(`${path}${join}limit=3`).expect(200);
  expect({ rows: first.body.data.length, has_more: first.body.pagination.has_more }).toEqual({ rows: 3, has_more: true });
  const last = await as.get(`${path}${join}limit=3&starting_after=${encodeURIComponent(first.body.pagination.next_cursor)}`).expect(200);
  expect({ rows: last.body.data.length, pagination: last.body.pagination }).toEqual({ rows: 1, pagination: { has_more: false, next_cursor: null } });
}
