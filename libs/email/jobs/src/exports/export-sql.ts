import type { PoolClient } from 'pg';
import { Prisma } from '@email/data-access';

/**
 * How a row's tags are found: `per-row` looks each selected subscriber's memberships up by its id; `one-pass` reads
 * the memberships table once, keeps the workspace's, and merges them in subscriber order with the subscribers. No
 * index leads with the workspace, so the pass scans every workspace's memberships, though a dropped one costs little.
 */
export type TagLookup = 'per-row' | 'one-pass';

/**
 * PostgreSQL time per row, in µs, measured on 1 and 2 million memberships: a per-row lookup (a selected subscriber), a
 * membership the pass keeps, and one it scans and drops (half that when the scan gets parallel workers).
 */
const COST_US = { lookup: 5, kept: 2, scanned: 0.05 };

/**
 * `safeCell` in SQL: text starting with a formula character (`=`, `+`, `-`, `@`, tab, carriage return) gets a leading
 * quote; empty text is an empty cell. It names its argument three times, so the argument must be cheap to evaluate
 * again: a column or a JSON field, never a subquery (for those, `safeOnce`). A third of the cost of a regexp_replace.
 */
const safe = (text: string) => `CASE WHEN ascii(${text}) IN (9, 13, 43, 45, 61, 64) THEN '''' || ${text} ELSE NULLIF(${text}, '') END`;

/** `safe` for an argument evaluated once (a subquery). */
const safeOnce = (text: string) => `NULLIF(regexp_replace(${text}, '^([-=+@\\t\\r])', '''\\1'), '')`;

/** An instant as JavaScript's toISOString writes it. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A custom field's cell: a Multi Select's list comma-joined (a subquery), any other value as written. */
const fieldCell = (field: { id: string; type: string }, quote: (text: string) => string) => {
  if (field.type !== 'Multi_Select') return safe(`(s.custom_fields ->> ${quote(field.id)})`);
  const value = `s.custom_fields -> ${quote(field.id)}`;
  return safeOnce(
    `(SELECT string_agg(e, ', ') FROM jsonb_array_elements_text(CASE jsonb_typeof(${value}) WHEN 'array' THEN ${value} ELSE jsonb_build_array(${value}) END) AS e)`,
  );
};

/**
 * The tags as `tl.tags`, names in order and comma-joined. In one pass the names are sorted before they are grouped,
 * so the aggregate keeps that order without a sort per subscriber (PostgreSQL 15 sorts every group of an ordered
 * aggregate on its own); a subquery with ORDER BY is never flattened, so the order holds.
 */
const tagsJoin = (lookup: TagLookup, workspace: string) =>
  lookup === 'per-row'
    ? `LEFT JOIN LATERAL (SELECT string_agg(t.name, ', ' ORDER BY t.name) AS tags FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id
         WHERE st.subscriber_id = s.id AND st.workspace_id = s.workspace_id) tl ON true`
    : `LEFT JOIN (SELECT sorted.subscriber_id, string_agg(sorted.name, ', ') AS tags
         FROM (SELECT st.subscriber_id, t.name FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id
               WHERE st.workspace_id = ${workspace} ORDER BY st.subscriber_id, t.name) sorted
         GROUP BY sorted.subscriber_id) tl ON tl.subscriber_id = s.id`;

/** The conditions as SQL text, their values inlined as literals quoted by the connection's own escaping. */
function inlined(client: PoolClient, where: Prisma.Sql): string {
  const literal = (value: unknown): string => {
    if (typeof value === 'string') return client.escapeLiteral(value);
    if (value instanceof Date) return `${client.escapeLiteral(value.toISOString())}::timestamptz`;
    throw new TypeError(`an export condition has a ${typeof value} value`);
  };
  return where.text.replace(/\$(\d+)/g, (_, n: string) => literal(where.values[Number(n) - 1]));
}

/** The planner's estimate of the rows a query reads. */
async function estimatedRows(client: PoolClient, query: string): Promise<number> {
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(`EXPLAIN (FORMAT JSON) ${query}`);
  return rows[0]['QUERY PLAN'][0].Plan['Plan Rows'];
}

/**
 * Whichever costs less by the planner's estimates: per-row for a few subscribers (a search, or a small workspace in
 * a database of large ones), one pass for most of a workspace's list.
 */
export async function tagLookupFor(client: PoolClient, workspaceId: string, where: Prisma.Sql): Promise<TagLookup> {
  const selected = await estimatedRows(client, `SELECT 1 FROM subscribers s WHERE ${inlined(client, where)}`);
  const kept = await estimatedRows(client, `SELECT 1 FROM subscriber_tags WHERE workspace_id = ${client.escapeLiteral(workspaceId)}`);
  const scanned = await estimatedRows(client, 'SELECT 1 FROM subscriber_tags');
  return selected * COST_US.lookup >= kept * COST_US.kept + scanned * COST_US.scanned ? 'one-pass' : 'per-row';
}

/**
 * The COPY statement: every cell written by PostgreSQL (ISO times, tags and list values comma-joined, the formula
 * guard), rows in id order. COPY takes no bind parameters, so the selection's values are written into its text as
 * literals (the only values are strings and instants).
 */
export function copyStatement(
  client: PoolClient,
  workspaceId: string,
  where: Prisma.Sql,
  fields: Array<{ id: string; type: string }>,
  lookup: TagLookup,
): string {
  const quote = (text: string) => client.escapeLiteral(text);
  const columns = [
    's.id',
    safe('s.email'),
    safe('s.name'),
    's.status::text',
    's.country',
    ...['s.subscribed_at', 's.last_opened_at', 's.created_at', 's.updated_at'].map(iso),
    safe('tl.tags'),
    ...fields.map((field) => fieldCell(field, quote)),
  ];
  return `COPY (SELECT ${columns.join(', ')} FROM subscribers s ${tagsJoin(lookup, quote(workspaceId))}
    WHERE ${inlined(client, where)} ORDER BY s.id) TO STDOUT (FORMAT csv)`;
}

/** Subscribed before the cutoff, and no human open or click (the engagement rollup) since. */
export function coldCondition(cutoff: Date): Prisma.Sql {
  return Prisma.sql`s.subscribed_at < ${cutoff} AND NOT EXISTS (
    SELECT 1 FROM subscriber_engagement e WHERE e.subscriber_id = s.id AND (e.last_opened_at >= ${cutoff} OR e.last_clicked_at >= ${cutoff}))`;
}
