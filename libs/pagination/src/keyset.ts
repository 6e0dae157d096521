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

// Exactly what toISOString writes for years 0001-9999, which PostgreSQL's timestamp range holds with room to spare.
const ISO_INSTANT = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// prefix_ULID as IdGenerator makes them; no room for control characters or SQL-unstorable text.
const ROW_ID = /^[a-z]{1,16}_[0-9A-Za-z]{1,64}$/;

/** A position this codebase could have written: a real instant in the ISO form above and a row id. */
export function isKeysetPosition(position: unknown): position is KeysetPosition {
  const { created_at: createdAt, id } = (position ?? {}) as Partial<Record<keyof KeysetPosition, unknown>>;
  if (typeof createdAt !== 'string' || typeof id !== 'string' || !ISO_INSTANT.test(createdAt) || !ROW_ID.test(id)) return false;
  const instant = new Date(createdAt);
  // Round-tripping refuses dates that do not exist (02-30, 24:00) yet match the pattern.
  return !Number.isNaN(instant.getTime()) && instant.toISOString() === createdAt;
}

/** Parses `limit` and `starting_after` for a newest-first list scoped to one workspace and resource. */
export function readKeysetPage(codec: CursorCodec, scope: string, query: { limit?: string; starting_after?: string }): KeysetPage {
  const limit = parseLimit(query.limit);
  if (!query.starting_after) return { limit };
  const position = codec.decode(scope, query.starting_after, isKeysetPosition);
  return { limit, after: { created_at: new Date(position.created_at), id: position.id } };
}

export function cursorFor(codec: CursorCodec, scope: string, row: { created_at: Date; id: string }): string {
  return codec.encode(scope, { created_at: row.created_at.toISOString(), id: row.id } satisfies KeysetPosition);
}

/** The Prisma `where` fragment for "after this position" in newest-first order (empty on page 1). */
export function keysetWhere(page: KeysetPage) {
  return page.after ? { OR: [{ created_at: { lt: page.after.created_at } }, { created_at: page.after.created_at, id: { lt: page.after.id } }] } : {};
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
