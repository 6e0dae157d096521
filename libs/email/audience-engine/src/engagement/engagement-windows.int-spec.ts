/**
 * The daily refresh of the rollup's window counts (opens_30d … clicks_90d): stale rows counted again as of now with
 * the writer's own definitions, fresh and all-zero rows left alone, a newer write never overwritten. Real PostgreSQL.
 */
import { Client } from 'pg';
import { trustedWorkspaceId } from '@shared/core';
import { EngagementEventInput } from './engagement.repository';
import { WINDOWS_STALE_AFTER_MS } from './engagement-maintenance.service';
import { ago, DAY, GMAIL, NOW, useEngagementTestBed } from './engagement.fixture';

const A = trustedWorkspaceId('wsp_windows_a');
const B = trustedWorkspaceId('wsp_windows_b');
const HOUR = 3_600_000;
const APPLE_PROXY = 'Mozilla/5.0';

describe('EngagementMaintenance: stale window counts (real PostgreSQL)', () => {
  const bed = useEngagementTestBed(NOW, A, B);
  beforeEach(async () => {
    // The refresh works across the whole table: every test starts from none (rollups go with their subscribers).
    await bed.prisma.$executeRaw`DELETE FROM email_events`;
    await bed.prisma.$executeRaw`DELETE FROM subscribers`;
  });

  const subscriber = (workspace = A) => bed.subscriber(workspace);

  /** Records the events with the clock at `at`, as the event writer would have then. */
  async function recordAt(at: Date, workspace: typeof A, events: EngagementEventInput[]): Promise<void> {
    const before = bed.now;
    bed.now = at;
    try {
      await bed.writer.record(workspace, events);
    } finally {
      bed.now = before;
    }
  }

  const open = (subscriberId: string, occurredAt: Date, userAgent = GMAIL): EngagementEventInput => ({ subscriberId, type: 'opened', occurredAt, userAgent });
  const click = (subscriberId: string, occurredAt: Date): EngagementEventInput => ({ subscriberId, type: 'clicked', occurredAt });
  const windowsOf = async (subscriberId: string) => {
    const [row] = await bed.prisma.$queryRaw<
      Array<{ opens_30d: number; opens_90d: number; clicks_30d: number; clicks_90d: number; windows_as_of: Date; version: string }>
    >`SELECT opens_30d, opens_90d, clicks_30d, clicks_90d, windows_as_of, xmin::text AS version FROM subscriber_engagement WHERE subscriber_id = ${subscriberId}`;
    return row;
  };
  const counts = async (subscriberId: string) => {
    const { opens_30d, opens_90d, clicks_30d, clicks_90d, windows_as_of } = await windowsOf(subscriberId);
    return { opens_30d, opens_90d, clicks_30d, clicks_90d, windows_as_of };
  };

  /** A history that changes between ten days ago and now: some events leave the 30-day window, one the 90-day one. */
  const history = (id: string): EngagementEventInput[] => [
    open(id, ago(25 * DAY)),
    open(id, ago(35 * DAY)),
    open(id, ago(95 * DAY)),
    open(id, ago(12 * DAY), APPLE_PROXY),
    click(id, ago(38 * DAY)),
    click(id, ago(50 * DAY)),
  ];

  it('counts a stale row again as of now: events that aged out of 30 or 90 days drop out, machine opens stay out', async () => {
    const id = await subscriber();
    await recordAt(ago(10 * DAY), A, history(id));
    expect(await counts(id)).toEqual({ opens_30d: 2, opens_90d: 3, clicks_30d: 1, clicks_90d: 2, windows_as_of: ago(10 * DAY) });

    const report = await bed.maintenance.run();
    expect(report).toMatchObject({ windowsRefreshed: 1, windowsBusy: 0 });
    expect(await counts(id)).toEqual({ opens_30d: 1, opens_90d: 2, clicks_30d: 0, clicks_90d: 2, windows_as_of: NOW });
  });

  it('gives the counts the event writer gives for the same history at the same instant', async () => {
    const [refreshed, written] = [await subscriber(), await subscriber()];
    await recordAt(ago(10 * DAY), A, [...history(refreshed), ...history(written)]);
    // The writer counts `written` again when it gets an event; the refresh counts `refreshed`.
    await bed.writer.record(A, [{ subscriberId: written, type: 'delivered', occurredAt: ago(HOUR) }]);
    expect(await bed.maintenance.refreshStaleWindows()).toEqual({ refreshed: 1, busy: 0 });
    expect(await counts(refreshed)).toEqual(await counts(written));
  });

  it('leaves fresh rows and rows with nothing in their windows untouched', async () => {
    const fresh = await subscriber();
    const edge = await subscriber();
    const justStale = await subscriber();
    const zero = await subscriber();
    await recordAt(ago(2 * HOUR), A, [open(fresh, ago(40 * DAY))]);
    await recordAt(ago(WINDOWS_STALE_AFTER_MS), A, [open(edge, ago(40 * DAY))]);
    await recordAt(ago(WINDOWS_STALE_AFTER_MS + 1), A, [open(justStale, ago(40 * DAY))]);
    await recordAt(ago(10 * DAY), A, [{ subscriberId: zero, type: 'delivered', occurredAt: ago(11 * DAY) }, open(zero, ago(11 * DAY), APPLE_PROXY)]);
    const before = { fresh: await windowsOf(fresh), edge: await windowsOf(edge), zero: await windowsOf(zero) };

    expect(await bed.maintenance.refreshStaleWindows()).toEqual({ refreshed: 1, busy: 0 });
    // The same row versions: not rewritten at all.
    expect({ fresh: await windowsOf(fresh), edge: await windowsOf(edge), zero: await windowsOf(zero) }).toEqual(before);
    expect(await counts(justStale)).toMatchObject({ opens_90d: 1, windows_as_of: NOW });
  });

  it('counts a row down to zero once, then leaves it', async () => {
    const id = await subscriber();
    await recordAt(ago(10 * DAY), A, [open(id, ago(92 * DAY)), click(id, ago(99 * DAY))]);
    expect(await counts(id)).toMatchObject({ opens_90d: 1, clicks_90d: 1 });
    expect(await bed.maintenance.refreshStaleWindows()).toEqual({ refreshed: 1, busy: 0 });
    expect(await counts(id)).toEqual({ opens_30d: 0, opens_90d: 0, clicks_30d: 0, clicks_90d: 0, windows_as_of: NOW });

    bed.now = new Date(NOW.getTime() + 2 * DAY);
    const version = (await windowsOf(id)).version;
    expect(await bed.maintenance.refreshStaleWindows()).toEqual({ refreshed: 0, busy: 0 });
    expect((await windowsOf(id)).version).toBe(version);
  });

  it("refreshes every workspace's rows, across batches, counting each row's events in its own workspace only", async () => {
    // Across workspaces: maintenance covers the whole table, so B's rows are refreshed by the same run as A's.
    const owners = [A, B, A, B, B];
    const ids: string[] = [];
    for (const workspace of owners) ids.push(await subscriber(workspace));
    for (const [i, id] of ids.entries()) await recordAt(ago(10 * DAY), owners[i], [open(id, ago(35 * DAY)), open(id, ago(15 * DAY))]);
    // An event filed under A for B's subscriber (never written by the writer): not B's, so never counted for B.
    await bed.prisma.$executeRaw`INSERT INTO email_events (workspace_id, subscriber_id, type, occurred_at) VALUES (${A}, ${ids[1]}, 'opened', ${ago(DAY)})`;

    expect(await bed.maintenance.refreshStaleWindows(2)).toEqual({ refreshed: 5, busy: 0 });
    for (const id of ids) expect(await counts(id)).toEqual({ opens_30d: 1, opens_90d: 2, clicks_30d: 0, clicks_90d: 0, windows_as_of: NOW });
  });

  describe('with writers at work', () => {
    let holder: Client;
    let observer: Client;
    beforeEach(async () => {
      holder = new Client({ connectionString: bed.db.url });
      observer = new Client({ connectionString: bed.db.url });
      await Promise.all([holder.connect(), observer.connect()]);
    });
    afterEach(async () => {
      await holder.query('ROLLBACK');
      await Promise.all([holder.end(), observer.end()]);
    });

    /** Resolves once another session waits for a row lock (rejects after about five seconds). */
    async function someoneWaits(): Promise<void> {
      for (let attempt = 0; attempt < 500; attempt++) {
        const { rows } = await observer.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (rows[0].waiting > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('no session ever waited for a lock');
    }

    it('skips a subscriber a writer holds (the writer counts it itself), refreshes the others, and the writer’s count stands', async () => {
      const [held, free] = [await subscriber(), await subscriber()];
      await recordAt(ago(10 * DAY), A, [...history(held), ...history(free)]);
      // A writer mid-record: it has locked its subscriber, as EngagementRepository.record does, and not yet written.
      await holder.query('BEGIN');
      await holder.query(`SELECT id FROM subscribers WHERE id = $1 FOR NO KEY UPDATE`, [held]);

      expect(await bed.maintenance.refreshStaleWindows()).toEqual({ refreshed: 1, busy: 1 });
      expect(await counts(free)).toMatchObject({ opens_30d: 1, windows_as_of: NOW });

      await holder.query(`UPDATE subscriber_engagement SET opens_30d = 7, windows_as_of = $2 WHERE subscriber_id = $1`, [held, NOW]);
      await holder.query('COMMIT');
      await holder.query('BEGIN');
      expect(await counts(held)).toMatchObject({ opens_30d: 7, windows_as_of: NOW });
    });

    it('does not overwrite a newer count committed while it waited for the row', async () => {
      const id = await subscriber();
      await recordAt(ago(10 * DAY), A, history(id));
      // A newer write to the rollup row, not committed yet when the refresh reads the row as stale.
      await holder.query('BEGIN');
      await holder.query(
        `UPDATE subscriber_engagement SET opens_30d = 42, opens_90d = 42, clicks_30d = 42, clicks_90d = 42, windows_as_of = $2 WHERE subscriber_id = $1`,
        [id, ago(HOUR)],
      );
      const refresh = bed.maintenance.refreshStaleWindows();
      await someoneWaits();
      await holder.query('COMMIT');
      await holder.query('BEGIN');

      expect(await refresh).toEqual({ refreshed: 0, busy: 0 });
      expect(await counts(id)).toEqual({ opens_30d: 42, opens_90d: 42, clicks_30d: 42, clicks_90d: 42, windows_as_of: ago(HOUR) });
    });
  });
});
