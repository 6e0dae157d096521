import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { EmailSql } from '@email/data-access';
import { windowBounds, windowCountsSql } from './engagement-windows';

/** How many rollup rows one refresh statement takes: each batch is its own short transaction. */
export const WINDOW_REFRESH_BATCH = 5000;

export interface WindowRefreshResult {
  /** Rows whose four window counts were counted again and windows_as_of set. */
  refreshed: number;
  /** Stale rows left as they were because another transaction held their subscriber (a writer recounts them itself). */
  busy: number;
}

/** The next stale rows after $1 in subscriber id order; rows with nothing in their 90-day windows cannot change without an event. */
const STALE_ROWS = `
  SELECT subscriber_id FROM subscriber_engagement
  WHERE subscriber_id > $1 AND windows_as_of < $2 AND (opens_90d > 0 OR clicks_90d > 0)
  ORDER BY subscriber_id LIMIT $3`;

/**
 * The event writer's lock (subscribers FOR NO KEY UPDATE, in id order), so the counts below include every committed
 * event; a subscriber another transaction holds is skipped rather than waited for, so the refresh never waits on a
 * writer (nor holds one up longer than a batch) and cannot deadlock with one.
 */
const LOCK_FREE_SUBSCRIBERS = `
  SELECT id FROM subscribers WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE SKIP LOCKED`;

/**
 * Counts the locked rows' windows again as of $2, each in its own workspace. A row is written only if windows_as_of is
 * still the value counted against: a write that landed meanwhile (committed before this statement, or while it waited
 * for the row) is newer and stays.
 */
const REFRESH_WINDOWS = `
  UPDATE subscriber_engagement r
  SET opens_30d = c.opens_30d, opens_90d = c.opens_90d, clicks_30d = c.clicks_30d, clicks_90d = c.clicks_90d, windows_as_of = $2
  FROM (
    SELECT g.subscriber_id, g.windows_as_of AS counted_from, w.opens_30d, w.opens_90d, w.clicks_30d, w.clicks_90d
    FROM subscriber_engagement g
    CROSS JOIN LATERAL ${windowCountsSql('g.workspace_id', 'g.subscriber_id', ['$2', '$3', '$4'])} w
    WHERE g.subscriber_id = ANY($1::text[]) AND g.windows_as_of < $5
  ) c
  WHERE r.subscriber_id = c.subscriber_id AND r.windows_as_of = c.counted_from`;

/**
 * Keeps the rollup's window counts from going stale: the event writer counts a subscriber's windows only when it
 * records an event for them, so without this the counts of a subscriber who went quiet would describe an old day.
 */
@Injectable()
export class EngagementWindowsRepository {
  constructor(private readonly sql: EmailSql) {}

  /**
   * Counts again, as of `asOf`, the windows of every row counted before `staleBefore` that has something in its 90-day
   * windows, `batchSize` rows at a time (keyset on subscriber_id), each batch in its own transaction.
   * Across workspaces: a daily maintenance pass over the whole table; each row's events are counted in the row's own workspace.
   */
  async refreshStale(asOf: Date, staleBefore: Date, batchSize = WINDOW_REFRESH_BATCH): Promise<WindowRefreshResult> {
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size must be a positive whole number (got ${batchSize})`);
    const total: WindowRefreshResult = { refreshed: 0, busy: 0 };
    // Subscriber ids are never empty, so '' sorts before every one of them.
    let after = '';
    for (;;) {
      const batch = await this.sql.transaction((client) => this.refreshBatch(client, after, asOf, staleBefore, batchSize));
      total.refreshed += batch.refreshed;
      total.busy += batch.busy;
      if (batch.last === undefined || batch.seen < batchSize) return total;
      after = batch.last;
    }
  }

  private async refreshBatch(
    client: PoolClient,
    after: string,
    asOf: Date,
    staleBefore: Date,
    batchSize: number,
  ): Promise<WindowRefreshResult & { seen: number; last?: string }> {
    const { rows: stale } = await client.query<{ subscriber_id: string }>({
      name: 'engagement_windows_stale',
      text: STALE_ROWS,
      values: [after, staleBefore.toISOString(), batchSize],
    });
    const ids = stale.map((row) => row.subscriber_id);
    if (ids.length === 0) return { refreshed: 0, busy: 0, seen: 0 };
    const { rows: locked } = await client.query<{ id: string }>({ name: 'engagement_windows_lock', text: LOCK_FREE_SUBSCRIBERS, values: [ids] });
    const seen = { seen: ids.length, last: ids[ids.length - 1] };
    // A subscriber deleted since the rows were read is not locked either, and counted as busy too (its row went with it).
    if (locked.length === 0) return { refreshed: 0, busy: ids.length, ...seen };
    const { rowCount } = await client.query({
      name: 'engagement_windows_refresh',
      text: REFRESH_WINDOWS,
      values: [locked.map((row) => row.id), ...windowBounds(asOf), staleBefore.toISOString()],
    });
    return { refreshed: rowCount ?? 0, busy: ids.length - locked.length, ...seen };
  }
}
