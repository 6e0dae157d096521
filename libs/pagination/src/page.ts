import { ApiProperty } from '@nestjs/swagger';
import { SharedErrors } from '@shared/errors';

export class Pagination {
  @ApiProperty() has_more!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Pass as starting_after to get the next page.' }) next_cursor!: string | null;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface LimitRule {
  default: number;
  max: number;
}

export const DEFAULT_LIMIT: LimitRule = { default: 25, max: 100 };

/** Parses the `limit` query value: absent → default; anything but an integer in 1..max → 400 naming `limit`. */
export function parseLimit(raw: unknown, rule: LimitRule = DEFAULT_LIMIT): number {
  if (raw === undefined || raw === null || raw === '') return rule.default;
  const text = String(raw);
  const value = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > rule.max) {
    throw SharedErrors.invalid('invalid_limit', `"limit" must be an integer from 1 to ${rule.max}.`, 'limit');
  }
  return value;
}

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only proves there is more.
 * `cursorOf` turns the last returned row into the next cursor.
 */
export function toPage<Row, Out>(rows: Row[], limit: number, map: (row: Row) => Out, cursorOf: (row: Row) => string): Page<Out> {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: kept.map(map),
    pagination: { has_more: hasMore, next_cursor: hasMore ? cursorOf(kept[kept.length - 1]) : null },
  };
}
