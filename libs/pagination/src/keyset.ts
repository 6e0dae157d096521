import { CursorCodec } from './cursor';
import { Page, parseLimit, toPage } from './page';

/** Position of the last row of a newest-first page. */
export interface KeysetPosition {
  created_at: string;
  id: string;
}

export interface KeysetPage {
  limit: number;
  after?: { created_at: Date; id: string };
}

/** Parses `limit` and `starting_after` for a newest-first list scoped to one workspace and resource. */
export function readKeysetPage(codec: CursorCodec, scope: string, query: { limit?: string; starting_after?: string }): KeysetPage {
  const limit = parseLimit(query.limit);
  if (!query.starting_after) return { limit };
  const position = codec.decode<KeysetPosition>(scope, query.starting_after);
  const createdAt = new Date(position?.created_at);
  if (typeof position?.id !== 'string' || Number.isNaN(createdAt.getTime())) return { limit };
  return { limit, after: { created_at: createdAt, id: position.id } };
}

export function cursorFor(codec: CursorCodec, scope: string, row: { created_at: Date; id: string }): string {
  return codec.encode(scope, { created_at: row.created_at.toISOString(), id: row.id } satisfies KeysetPosition);
}

/** The Prisma `where` fragment for "after this position" in newest-first order (empty on page 1). */
export function keysetWhere(page: KeysetPage) {
  return page.after
    ? { OR: [{ created_at: { lt: page.after.created_at } }, { created_at: page.after.created_at, id: { lt: page.after.id } }] }
    : {};
}

/** One newest-first page: reads limit and cursor, fetches limit + 1 rows, maps them and signs the next cursor. */
export async function keysetList<Row extends { created_at: Date; id: string }, Out>(
  codec: CursorCodec,
  scope: string,
  query: { limit?: string; starting_after?: string },
  fetch: (page: KeysetPage) => Promise<Row[]>,
  map: (row: Row) => Out,
): Promise<Page<Out>> {
  const page = readKeysetPage(codec, scope, query);
  return toPage(await fetch(page), page.limit, map, (row) => cursorFor(codec, scope, row));
}
