import { audienceBenchmark } from './audience';
import { AUDIENCE_TAGS } from './audience-seed';
import { captureBenchmarkOutput } from './capture-output';
import { useTestDatabase } from '@shared/testing';

/**
 * A tiny run of the audience benchmark on a throw-away database: it seeds, checks the compiled count and pages against
 * hand-written SQL (it throws when they disagree), prints its lines, and reuses or replaces the seed as told.
 */
describe('audience benchmark', () => {
  const db = useTestDatabase('email');
  const { results } = captureBenchmarkOutput();

  const args = (...extra: string[]) => [
    '--database-url',
    db.url,
    '--count',
    '4000',
    '--events',
    '40000',
    '--repeat',
    '2',
    '--warmup',
    '0',
    '--page-size',
    '5',
    '--lifetime-value-over',
    '20',
    '--opened-days',
    '90',
    ...extra,
  ];
  const one = async (sql: string, values: unknown[]) => (await db.client.query(sql, values)).rows[0] as Record<string, unknown>;

  let firstWorkspace: string;

  it('seeds the data set-based, then prints the count and both pages with their goals', async () => {
    await audienceBenchmark.run(args('--explain'));
    const [data, count, start, middle, ...rest] = results();
    expect(rest).toEqual([]);
    expect(data).toMatchObject({ bench: 'audience', phase: 'data', seeded: true, subscribers: 4000, engagement_rows: expect.any(Number) });
    const workspaceId = data.workspace_id as string;
    firstWorkspace = workspaceId;

    // What the seed wrote: 20 tags with exact counters, the events about what the line says, a rollup per recipient.
    expect(
      await one(
        'SELECT count(*)::int AS n, bool_and(subscriber_count = (SELECT count(*) FROM subscriber_tags st WHERE st.tag_id = t.id)) AS exact FROM tags t WHERE workspace_id = $1',
        [workspaceId],
      ),
    ).toEqual({ n: AUDIENCE_TAGS.length, exact: true });
    expect(await one('SELECT count(*)::int AS n FROM subscriber_tags WHERE workspace_id = $1', [workspaceId])).toEqual({ n: data.tag_memberships });
    expect(await one(`SELECT count(*)::int AS n FROM subscribers WHERE workspace_id = $1 AND custom_fields <> '{}'`, [workspaceId])).toEqual({
      n: expect.any(Number),
    });
    expect(data.events).toBeGreaterThan(40_000 * 0.9);
    expect(data.events).toBeLessThan(40_000 * 1.1);
    expect(await one('SELECT count(*)::int AS n FROM email_events WHERE workspace_id = $1', [workspaceId])).toEqual({ n: data.events });
    expect(data.machine_opens).toBeGreaterThan(0);
    // The rollup agrees with the events: human opens only in last_opened_at, machine opens apart.
    expect(
      await one(
        `SELECT count(*)::int AS wrong FROM subscriber_engagement g WHERE g.workspace_id = $1 AND (
           g.last_opened_at IS DISTINCT FROM (SELECT max(occurred_at) FROM email_events e WHERE e.workspace_id = $1 AND e.subscriber_id = g.subscriber_id AND e.type = 'opened' AND NOT e.machine)
           OR g.last_machine_opened_at IS DISTINCT FROM (SELECT max(occurred_at) FROM email_events e WHERE e.workspace_id = $1 AND e.subscriber_id = g.subscriber_id AND e.type = 'opened' AND e.machine))`,
        [workspaceId],
      ),
    ).toEqual({ wrong: 0 });

    expect(count).toMatchObject({ bench: 'audience', measure: 'count', runs: 2 });
    expect(count.matching_total).toBeGreaterThan(10);
    for (const key of ['compile_and_count_median_ms', 'count_median_ms', 'hand_sql_median_ms', 'count_to_hand_sql']) expect(count[key]).toBeGreaterThan(0);
    expect(typeof count.goal_compile_and_count_at_most_300_ms).toBe('boolean');
    expect(typeof count.goal_count_within_1_5x_hand_sql).toBe('boolean');
    expect(start).toMatchObject({ bench: 'audience', measure: 'page', from: 'start', ids: 5, goal_at_most_50_ms: expect.any(Boolean) });
    expect(middle).toMatchObject({ bench: 'audience', measure: 'page', from: 'middle', ids: 5 });
    expect(middle.median_ms).toBeGreaterThan(0);
  }, 120_000);

  it('reuses a finished seed with the same parameters', async () => {
    await audienceBenchmark.run(args());
    const [reused, count] = results();
    expect(reused).toMatchObject({ phase: 'data', seeded: false, workspace_id: firstWorkspace });
    expect(count).toMatchObject({ measure: 'count' });
  }, 120_000);

  it('seeds a new workspace with --reseed, deleting the earlier one', async () => {
    await audienceBenchmark.run(args('--reseed'));
    const [reseeded] = results();
    expect(reseeded).toMatchObject({ phase: 'data', seeded: true });
    expect(reseeded.workspace_id).not.toBe(firstWorkspace);
    expect(await one('SELECT count(*)::int AS n FROM workspaces WHERE id = $1', [firstWorkspace])).toEqual({ n: 0 });
    expect(await one('SELECT count(*)::int AS n FROM email_events WHERE workspace_id = $1', [firstWorkspace])).toEqual({ n: 0 });
  }, 120_000);
});
