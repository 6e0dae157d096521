import { CursorCodec } from './cursor';
import { parseLimit } from './page';

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
