import { Client } from 'pg';
import { createWorkspaceWithKey } from './access';
import { round, secondsSince } from './cli';
import { TimeOrderedIds } from './ids';
import { seedSubscribers } from './seed';
import type { SeedCustomField } from './seed-data';

/**
 * The audience benchmark's data, set-based: subscribers through the seed's COPY (with custom field values), then tag
 * memberships, a half year of engagement events and the engagement rollup, each one INSERT … SELECT in PostgreSQL.
 * A marker row (bench_audience_seeds) records a finished seed with its parameters, so a later run reuses it.
 */

export const AUDIENCE_WORKSPACE_NAME = 'Bench audience';

/** Bump when the generated data changes, so an older seed is not taken for the current one. */
const SEED_VERSION = 1;

/** [tag name, share of subscribers holding it]: a long tail, as real tag use is (about 1.37 tags per subscriber). */
export const AUDIENCE_TAGS: ReadonlyArray<readonly [string, number]> = [
  ['Newsletter', 0.4],
  ['Customer', 0.25],
  ['Product updates', 0.18],
  ['Webinar attendee', 0.12],
  ['Trial', 0.09],
  ['Lead', 0.07],
  ['Ebook download', 0.055],
  ['Community', 0.045],
  ['Developer', 0.035],
  ['Conference 2026', 0.03],
  ['Podcast listener', 0.025],
  ['Churned', 0.02],
  ['Partner', 0.015],
  ['Agency', 0.012],
  ['VIP', 0.01],
  ['Affiliate', 0.008],
  ['Beta tester', 0.005],
  ['Enterprise lead', 0.003],
  ['Press', 0.002],
  ['Investor', 0.001],
];

export type AudienceFieldKey = 'company' | 'lifetime_value' | 'last_purchase' | 'plan' | 'beta_programme';

interface FieldSpec {
  key: AudienceFieldKey;
  label: string;
  /** The stored CustomFieldType label. */
  type: 'Text' | 'Number' | 'Date' | 'Single Select' | 'Checkbox';
  options: string[];
  /** [JSON value or undefined (not set), weight]. */
  values: (now: number) => Array<readonly [unknown, number]>;
}

const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Enterprises', 'Wonka', 'Tyrell', 'Cyberdyne'];
const DAY_MS = 86_400_000;

/** The five custom fields, one of each type the benchmark's conditions read, with realistic gaps (not every field is set). */
export const AUDIENCE_FIELDS: readonly FieldSpec[] = [
  { key: 'company', label: 'Company', type: 'Text', options: [], values: () => [...COMPANIES.map((c) => [c, 8] as const), [undefined, 20]] },
  {
    key: 'lifetime_value',
    label: 'Lifetime value',
    type: 'Number',
    options: [],
    // 0..1000 in steps of 5, weighted 1/(v+20): many small spenders, a long tail; 30% never bought.
    values: () => {
      const steps = Array.from({ length: 201 }, (_, i) => i * 5);
      const total = steps.reduce((sum, v) => sum + 1 / (v + 20), 0);
      return [...steps.map((v) => [v, (0.7 * (1 / (v + 20))) / total] as const), [undefined, 0.3]];
    },
  },
  {
    key: 'last_purchase',
    label: 'Last purchase',
    type: 'Date',
    options: [],
    // Any day of the last two years, or not set (40%).
    values: (now) => [...Array.from({ length: 730 }, (_, i) => [new Date(now - i * DAY_MS).toISOString().slice(0, 10), 1] as const), [undefined, 487]],
  },
  {
    key: 'plan',
    label: 'Plan',
    type: 'Single Select',
    options: ['Free', 'Starter', 'Pro', 'Enterprise'],
    values: () => [
      ['Free', 50],
      ['Starter', 25],
      ['Pro', 12],
      ['Enterprise', 3],
      [undefined, 10],
    ],
  },
  {
    key: 'beta_programme',
    label: 'Beta programme',
    type: 'Checkbox',
    options: [],
    values: () => [
      [true, 15],
      [false, 45],
      [undefined, 40],
    ],
  },
];

/** Broadcasts over the last half year: one a week, each to a random share of the subscribers who existed then. */
const SENDS = 26;
/** Share of recipients whose mail client prefetches every message (Apple Mail Privacy Protection and the like). */
const PREFETCH_SHARE = 0.35;
/** Share of human opens followed by a click. */
const CLICK_RATE = 0.25;

export interface AudienceSeedParams {
  subscribers: number;
  events: number;
  seed: number;
}

/** What a seed made: the ids the definitions refer to, and the data's figures. */
export interface AudienceSeed {
  workspaceId: string;
  /** Tag ids by name. */
  tags: Record<string, string>;
  /** Custom field ids by key. */
  fields: Record<AudienceFieldKey, string>;
  stats: AudienceSeedStats;
}

export interface AudienceSeedStats {
  subscribers: number;
  tag_memberships: number;
  events: number;
  events_by_type: Record<string, number>;
  /** Delivered messages whose recipients' clients prefetched them (stored as opened, machine = true). */
  machine_opens: number;
  engagement_rows: number;
  /** Subscribers whose last human open is within the last 30 days. */
  opened_last_30_days: number;
  seconds: Record<string, number>;
  /** subscribers, subscriber_tags, email_events and subscriber_engagement with their indexes. */
  total_mb: number;
}

const MARKER_TABLE = `
  CREATE TABLE IF NOT EXISTS bench_audience_seeds (
    workspace_id text PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
    params jsonb NOT NULL,
    seed jsonb NOT NULL,
    seeded_at timestamptz NOT NULL DEFAULT now())`;

const markerParams = (params: AudienceSeedParams) => ({ ...params, version: SEED_VERSION });

/** The finished seed made with these parameters, if the database holds one. */
export async function findAudienceSeed(client: Client, params: AudienceSeedParams): Promise<AudienceSeed | undefined> {
  const { rows: exists } = await client.query(`SELECT 1 FROM pg_class WHERE relname = 'bench_audience_seeds' AND relkind = 'r'`);
  if (!exists.length) return undefined;
  const { rows } = await client.query<{ seed: AudienceSeed }>(
    'SELECT seed FROM bench_audience_seeds WHERE params = $1::jsonb ORDER BY seeded_at DESC LIMIT 1',
    [JSON.stringify(markerParams(params))],
  );
  return rows[0]?.seed;
}

/** Workspaces of earlier audience seeds, finished or not (a seed names its workspace first). */
export async function earlierAudienceWorkspaces(client: Client): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>('SELECT id FROM workspaces WHERE name = $1', [AUDIENCE_WORKSPACE_NAME]);
  return rows.map((row) => row.id);
}

/** Deletes an earlier seed's workspace and everything in it (events first: they have no foreign key). */
export async function deleteAudienceWorkspace(client: Client, workspaceId: string): Promise<void> {
  await client.query('DELETE FROM email_events WHERE workspace_id = $1', [workspaceId]);
  await client.query('DELETE FROM workspaces WHERE id = $1', [workspaceId]);
}

/** Indexes and primary key of a table that `rebuild` drops before a bulk insert and re-creates after it. */
async function rebuildableIndexes(client: Client, table: string): Promise<{ indexes: string[]; primaryKey?: { name: string; definition: string } }> {
  const { rows: indexes } = await client.query<{ definition: string }>(
    `SELECT pg_get_indexdef(i.oid) AS definition FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) ORDER BY i.relname`,
    [table],
  );
  const { rows: keys } = await client.query<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`,
    [table],
  );
  // On a partitioned table the definition reads "ON ONLY", which would index the parent alone.
  return { indexes: indexes.map((i) => i.definition.replace(' ON ONLY ', ' ON ')), primaryKey: keys[0] };
}

/**
 * Lets a transaction skip the per-row foreign-key triggers, as the subscriber seed does (superuser only, and only when
 * the tables have no triggers of their own): the rows come from joins on the parent rows, so they cannot dangle.
 */
async function skipForeignKeyTriggers(client: Client, tables: string[]): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(
    `SELECT current_setting('is_superuser') = 'on'
        AND NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = ANY($1::regclass[]) AND NOT tgisinternal) AS ok`,
    [tables],
  );
  if (rows[0].ok) await client.query('SET LOCAL session_replication_role = replica');
  return rows[0].ok;
}

async function inTransaction<T>(client: Client, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** A uniform draw in [0, 1) from a row's id, the step's name and the seed: the same for the same row. */
const draw = (column: string, salt: string, seed: number) =>
  `((hashtextextended(${column} || '${salt}', ${seed}) & 4503599627370495)::float8 / 4503599627370496)`;

/** Seeds a new workspace; returns what it made (and records it in the marker table last). */
export async function seedAudience(url: string, params: AudienceSeedParams, log: (message: string) => void): Promise<AudienceSeed> {
  const started = performance.now();
  const seconds: Record<string, number> = {};
  const now = Date.now();
  const { workspace_id: workspaceId } = await createWorkspaceWithKey(url, AUDIENCE_WORKSPACE_NAME);
  log(
    `audience: seeding workspace ${workspaceId}: ${params.subscribers.toLocaleString('en-US')} subscribers, ~${params.events.toLocaleString('en-US')} events`,
  );

  const fieldIds = new TimeOrderedIds('cf');
  const fields = Object.fromEntries(AUDIENCE_FIELDS.map((field) => [field.key, fieldIds.next(now)])) as Record<AudienceFieldKey, string>;
  const tagIds = new TimeOrderedIds('tag');
  const tags = Object.fromEntries(AUDIENCE_TAGS.map(([name]) => [name, tagIds.next(now)]));
  const customFields: SeedCustomField[] = AUDIENCE_FIELDS.map((field) => ({ id: fields[field.key], values: field.values(now) }));

  const client = new Client({ connectionString: url, application_name: 'bench-audience-seed' });
  await client.connect();
  try {
    await client.query(`SET TimeZone = 'UTC'`);
    await client.query(MARKER_TABLE);
    await client.query(
      `INSERT INTO custom_fields (id, workspace_id, label, label_key, type, options, updated_at)
       SELECT f.id, $1, f.label, lower(f.label), f.type::"CustomFieldType", ARRAY(SELECT jsonb_array_elements_text(f.options)), now()
       FROM jsonb_to_recordset($2::jsonb) AS f(id text, label text, type text, options jsonb)`,
      [workspaceId, JSON.stringify(AUDIENCE_FIELDS.map((field) => ({ id: fields[field.key], label: field.label, type: field.type, options: field.options })))],
    );
    await client.query(
      `INSERT INTO tags (id, workspace_id, name, name_key, updated_at)
       SELECT t.id, $1, t.name, lower(t.name), now() FROM unnest($2::text[], $3::text[]) AS t(id, name)`,
      [workspaceId, Object.values(tags), Object.keys(tags)],
    );

    // 1. Subscribers: the seed's COPY, its statuses, countries and 5 years of sign-ups, plus the custom field values.
    let step = performance.now();
    const loaded = await seedSubscribers({
      url,
      workspaceId,
      count: params.subscribers,
      years: 5,
      seed: params.seed,
      batchRows: 2000,
      indexMode: 'auto',
      fkMode: 'auto',
      customFields,
      log,
    });
    seconds.subscribers = secondsSince(step);
    log(`audience: subscribers loaded in ${seconds.subscribers}s`);

    // 2. Tag memberships: one draw per subscriber and tag, against the tag's share; then the tags' exact counters.
    step = performance.now();
    const memberships = await inTransaction(client, async () => {
      await skipForeignKeyTriggers(client, ['subscriber_tags']);
      const { rowCount } = await client.query(
        `INSERT INTO subscriber_tags (workspace_id, subscriber_id, tag_id, created_at)
         SELECT s.workspace_id, s.id, t.id, s.created_at + ${draw('s.id', 'tag-at', params.seed)} * (now() - s.created_at)
         FROM subscribers s CROSS JOIN unnest($2::text[], $3::float8[]) AS t(id, share)
         WHERE s.workspace_id = $1 AND ${draw('s.id || t.id', 'tag', params.seed)} < t.share`,
        [workspaceId, AUDIENCE_TAGS.map(([name]) => tags[name]), AUDIENCE_TAGS.map(([, share]) => share)],
      );
      await client.query(
        `UPDATE tags t SET subscriber_count = c.n
         FROM (SELECT tag_id, count(*)::int AS n FROM subscriber_tags WHERE workspace_id = $1 GROUP BY tag_id) c
         WHERE t.workspace_id = $1 AND t.id = c.tag_id`,
        [workspaceId],
      );
      return rowCount ?? 0;
    });
    seconds.tags = secondsSince(step);
    log(`audience: ${memberships.toLocaleString('en-US')} tag memberships in ${seconds.tags}s`);

    // 3. Events: weekly broadcasts over the last 182 days, each delivered to a random share of the subscribers who
    //    existed (and could receive mail) then; machine opens seconds after delivery for prefetching clients; human
    //    opens by each subscriber's own propensity (skewed: most rarely open, a few always do); clicks after some.
    step = performance.now();
    const events = await inTransaction(client, async () => {
      await client.query(`SELECT setseed($1)`, [(params.seed % 1000) / 1000]);
      await client.query(`SET LOCAL maintenance_work_mem = '512MB'`);
      await client.query(`SET LOCAL work_mem = '64MB'`);
      await client.query(
        `SELECT email_events_ensure_partition(month::date)
         FROM generate_series(date_trunc('month', now() - interval '183 days'), now(), interval '1 month') AS month`,
      );
      await client.query(
        `CREATE TEMP TABLE bench_recipients ON COMMIT DROP AS
         SELECT id, created_at, power(${draw('id', 'engagement', params.seed)}, 2.5) AS engagement,
                ${draw('id', 'prefetch', params.seed)} < ${PREFETCH_SHARE} AS prefetch
         FROM subscribers WHERE workspace_id = $1 AND status IN ('Active', 'Unsubscribed', 'Bounced', 'Complained')`,
        [workspaceId],
      );
      await client.query(
        `CREATE TEMP TABLE bench_sends ON COMMIT DROP AS
         SELECT 'brd_bench_' || k AS id, date_trunc('day', now() - interval '182 days') + k * interval '7 days' + interval '10 hours' AS sent_at
         FROM generate_series(0, ${SENDS - 1}) AS k`,
      );
      // Events one delivery brings on average: itself, a machine open when prefetched, a human open and maybe a click.
      const { rows } = await client.query<{ weight: number }>(
        `SELECT coalesce(sum((1 + prefetch::int + engagement * ${1 + CLICK_RATE})
           * (SELECT count(*) FROM bench_sends b WHERE b.sent_at > r.created_at)), 0)::float8 AS weight
         FROM bench_recipients r`,
      );
      const share = rows[0].weight > 0 ? Math.min(1, params.events / rows[0].weight) : 0;
      if (share === 1) log(`audience: every eligible delivery is made, and gives fewer than ${params.events} events`);

      const { indexes, primaryKey } = await rebuildableIndexes(client, 'email_events');
      for (const definition of indexes) await client.query(`DROP INDEX ${/INDEX (\S+) ON/.exec(definition)![1]}`);
      if (primaryKey) await client.query(`ALTER TABLE email_events DROP CONSTRAINT ${primaryKey.name}`);
      const insertStarted = performance.now();
      const { rowCount } = await client.query(
        `INSERT INTO email_events (workspace_id, subscriber_id, type, occurred_at, source_type, source_id, machine, machine_reason)
         SELECT $1, d.id, e.type, e.at, 'broadcast', d.send_id, e.machine, e.reason
         FROM (
           SELECT r.id, b.id AS send_id, r.prefetch, b.sent_at + random() * interval '30 minutes' AS delivered_at,
                  random() < r.engagement AS opened, random() < ${CLICK_RATE} AS clicked,
                  interval '1 minute' + power(random(), 4) * interval '72 hours' AS open_delay
           FROM bench_sends b JOIN bench_recipients r ON r.created_at < b.sent_at
           WHERE random() < $2
         ) d
         CROSS JOIN LATERAL (VALUES
           ('delivered'::"EmailEventType", d.delivered_at, false, NULL::text, true),
           ('opened', d.delivered_at + (1 + random() * 8) * interval '1 second', true, 'apple_mail_privacy', d.prefetch),
           ('opened', d.delivered_at + d.open_delay, false, NULL, d.opened),
           ('clicked', d.delivered_at + d.open_delay + random() * interval '5 minutes', false, NULL, d.opened AND d.clicked)
         ) AS e(type, at, machine, reason, happened)
         WHERE e.happened AND e.at <= now()`,
        [workspaceId, share],
      );
      seconds.events_insert = secondsSince(insertStarted);
      const indexStarted = performance.now();
      for (const definition of indexes) await client.query(definition);
      if (primaryKey) await client.query(`ALTER TABLE email_events ADD CONSTRAINT ${primaryKey.name} ${primaryKey.definition}`);
      seconds.events_index = secondsSince(indexStarted);
      return rowCount ?? 0;
    });
    seconds.events = secondsSince(step);
    log(`audience: ${events.toLocaleString('en-US')} events in ${seconds.events}s (insert ${seconds.events_insert}s, indexes ${seconds.events_index}s)`);

    // 4. The engagement rollup, computed from the events as the writer keeps it: last times by kind (human and machine
    //    opens apart), and human opens and clicks in the 30 and 90 days up to now.
    step = performance.now();
    await client.query('ANALYZE email_events');
    const engagementRows = await inTransaction(client, async () => {
      await client.query(`SET LOCAL work_mem = '256MB'`);
      await skipForeignKeyTriggers(client, ['subscriber_engagement']);
      const { rowCount } = await client.query(
        `INSERT INTO subscriber_engagement (subscriber_id, workspace_id, last_delivered_at, last_opened_at, last_machine_opened_at,
           last_clicked_at, opens_30d, opens_90d, clicks_30d, clicks_90d, windows_as_of)
         SELECT e.subscriber_id, $1,
           max(e.occurred_at) FILTER (WHERE e.type = 'delivered'),
           max(e.occurred_at) FILTER (WHERE e.type = 'opened' AND NOT e.machine),
           max(e.occurred_at) FILTER (WHERE e.type = 'opened' AND e.machine),
           max(e.occurred_at) FILTER (WHERE e.type = 'clicked'),
           count(*) FILTER (WHERE e.type = 'opened' AND NOT e.machine AND e.occurred_at > now() - interval '30 days'),
           count(*) FILTER (WHERE e.type = 'opened' AND NOT e.machine AND e.occurred_at > now() - interval '90 days'),
           count(*) FILTER (WHERE e.type = 'clicked' AND NOT e.machine AND e.occurred_at > now() - interval '30 days'),
           count(*) FILTER (WHERE e.type = 'clicked' AND NOT e.machine AND e.occurred_at > now() - interval '90 days'),
           now()
         FROM email_events e WHERE e.workspace_id = $1
         GROUP BY e.subscriber_id`,
        [workspaceId],
      );
      return rowCount ?? 0;
    });
    seconds.engagement = secondsSince(step);
    log(`audience: ${engagementRows.toLocaleString('en-US')} engagement rows in ${seconds.engagement}s`);

    // 5. Statistics and visibility maps now (subscribers had theirs from the seed), not from autovacuum mid-benchmark.
    step = performance.now();
    for (const table of ['subscriber_tags', 'email_events', 'subscriber_engagement', 'tags', 'custom_fields']) await client.query(`VACUUM (ANALYZE) ${table}`);
    seconds.vacuum_analyze = secondsSince(step);
    seconds.total = secondsSince(started);

    const { rows: byType } = await client.query<{ type: string; machine: boolean; n: number }>(
      `SELECT type::text, machine, count(*)::int AS n FROM email_events WHERE workspace_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [workspaceId],
    );
    const eventsByType: Record<string, number> = {};
    for (const row of byType) eventsByType[row.type] = (eventsByType[row.type] ?? 0) + row.n;
    const { rows: figures } = await client.query<{ opened: number; mb: number }>(
      `SELECT (SELECT count(*)::int FROM subscriber_engagement WHERE workspace_id = $1 AND last_opened_at > now() - interval '30 days') AS opened,
              (SELECT sum(pg_total_relation_size(c.oid))::float8 / 1e6 FROM pg_class c
                WHERE c.relname IN ('subscribers', 'subscriber_tags', 'subscriber_engagement')
                   OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'email_events'::regclass)) AS mb`,
      [workspaceId],
    );
    const seed: AudienceSeed = {
      workspaceId,
      tags,
      fields,
      stats: {
        subscribers: loaded.rows,
        tag_memberships: memberships,
        events,
        events_by_type: eventsByType,
        machine_opens: byType.find((row) => row.type === 'opened' && row.machine)?.n ?? 0,
        engagement_rows: engagementRows,
        opened_last_30_days: figures[0].opened,
        seconds: Object.fromEntries(Object.entries(seconds).map(([k, v]) => [k, round(v, 1)])),
        total_mb: round(figures[0].mb, 0),
      },
    };
    await client.query('INSERT INTO bench_audience_seeds (workspace_id, params, seed) VALUES ($1, $2::jsonb, $3::jsonb)', [
      workspaceId,
      JSON.stringify(markerParams(params)),
      JSON.stringify(seed),
    ]);
    return seed;
  } finally {
    await client.end();
  }
}
