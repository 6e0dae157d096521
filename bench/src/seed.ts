import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createWorkspaceWithKey } from './access';
import { Benchmark, choiceOption, emit, intOption, log as logToStderr, numberOption, parseOptions, round, secondsSince, UsageError } from './cli';
import { BENCH_DATABASE, ensureBenchDatabase, redactUrl } from './databases';
import { SEED_EMAIL_DOMAIN, SeedCustomField, SUBSCRIBER_COLUMNS, SubscriberRowGenerator } from './seed-data';

const USAGE = `seed --count N [--workspace wsp_...] [--database-url URL] [--indexes auto|keep|rebuild]
       [--fk-check auto|per-row|once] [--offset N] [--years 5] [--seed 42] [--batch-rows 2000] [--dry-run]
  Bulk-loads N generated subscribers with COPY (pg-copy-streams), in one transaction.
  --workspace     load into this workspace (default: create one, with an all-scopes API key)
  --database-url  a migrated email database (default: ${BENCH_DATABASE}, created and migrated if missing)
  --indexes       keep: COPY into the indexed table; rebuild: drop the secondary indexes, COPY, re-create
                  them (same transaction); auto (default): rebuild when the table holds fewer rows than N
  --fk-check      per-row: PostgreSQL checks workspace_id for every row (its FK trigger); once: lock the
                  workspace row (FOR KEY SHARE, as that trigger would) and skip the per-row trigger with
                  session_replication_role = replica (needs a superuser and no user triggers on the table);
                  auto (default): once when allowed, else per-row
  --offset        first email number (default: after the workspace's highest user<n>@${SEED_EMAIL_DOMAIN})
  --years         spread created_at over this many past years (default 5)
  --seed          content PRNG seed: same seed, same names/statuses/countries/times (ids stay random)
  --dry-run       only generate the rows (measures the generator; touches no database)`;

export type IndexMode = 'auto' | 'keep' | 'rebuild';
export type FkMode = 'auto' | 'per-row' | 'once';

/**
 * Whether the per-row foreign-key trigger may be skipped: only a superuser may set
 * session_replication_role, and it would silently skip any other trigger too, so none may exist.
 * (workspace_id is the only foreign key among the columns the seed fills.)
 */
async function canCheckFkOnce(client: Client): Promise<{ ok: boolean; why?: string }> {
  const { rows } = await client.query<{ superuser: boolean; triggers: string }>(
    `SELECT current_setting('is_superuser') = 'on' AS superuser,
            (SELECT count(*) FROM pg_trigger WHERE tgrelid = 'subscribers'::regclass AND NOT tgisinternal) AS triggers`,
  );
  if (!rows[0].superuser) return { ok: false, why: 'the database user is not a superuser' };
  if (Number(rows[0].triggers) > 0) return { ok: false, why: 'subscribers has triggers of its own' };
  return { ok: true };
}

interface IndexDefinition {
  name: string;
  definition: string;
}

/** Indexes of subscribers not backing a constraint (so not the primary key): the ones `rebuild` drops. */
async function secondaryIndexes(client: Client): Promise<IndexDefinition[]> {
  const { rows } = await client.query<IndexDefinition>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = 'subscribers'::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
      ORDER BY i.relname`,
  );
  return rows;
}

/** Rows in subscribers, from the planner's estimate when there is one (count(*) on a big table is slow). */
async function tableRows(client: Client): Promise<number> {
  const { rows } = await client.query<{ estimate: string }>(`SELECT reltuples::bigint AS estimate FROM pg_class WHERE oid = 'subscribers'::regclass`);
  const estimate = Number(rows[0].estimate);
  if (estimate >= 0) return estimate;
  const { rows: counted } = await client.query<{ n: string }>('SELECT count(*) AS n FROM subscribers');
  return Number(counted[0].n);
}

/** The number after the workspace's highest seeded email, so repeated seeds never collide. */
async function nextEmailNumber(client: Client, workspaceId: string): Promise<number> {
  const { rows } = await client.query<{ next: string }>(
    `SELECT coalesce(max(substring(email from '^user([0-9]+)@seed\\.example$')::bigint) + 1, 0) AS next
       FROM subscribers WHERE workspace_id = $1 AND email LIKE 'user%@seed.example'`,
    [workspaceId],
  );
  return Number(rows[0].next);
}

function progress(generator: SubscriberRowGenerator, total: number, started: number, log: (message: string) => void): NodeJS.Timeout {
  const timer = setInterval(() => {
    const done = generator.generated;
    const seconds = (performance.now() - started) / 1000;
    log(`seed: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} rows sent (${Math.round(done / seconds).toLocaleString('en-US')} rows/s)`);
  }, 2000);
  timer.unref();
  return timer;
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    count: { type: 'string' },
    workspace: { type: 'string' },
    'database-url': { type: 'string' },
    indexes: { type: 'string' },
    'fk-check': { type: 'string' },
    offset: { type: 'string' },
    years: { type: 'string' },
    seed: { type: 'string' },
    'batch-rows': { type: 'string' },
    'dry-run': { type: 'boolean' },
  });
  if (o.count === undefined) throw new UsageError('--count is required');
  const count = intOption(o.count, 'count', 0, 1, 1_000_000_000);
  const indexMode = choiceOption<IndexMode>(o.indexes, 'indexes', 'auto', ['auto', 'keep', 'rebuild']);
  const fkMode = choiceOption<FkMode>(o['fk-check'], 'fk-check', 'auto', ['auto', 'per-row', 'once']);
  const years = numberOption(o.years, 'years', 5, 0.01, 50);
  const seed = intOption(o.seed, 'seed', 42, 0, 2 ** 32 - 1);
  const batchRows = intOption(o['batch-rows'], 'batch-rows', 2000, 1, 1_000_000);
  const offset = o.offset === undefined ? undefined : intOption(o.offset, 'offset', 0);
  if (o.workspace !== undefined && !/^wsp_[0-9A-Za-z]+$/.test(o.workspace)) throw new UsageError('--workspace must look like wsp_<ULID>');

  if (o['dry-run']) {
    const generator = new SubscriberRowGenerator({ workspaceId: 'wsp_00000000000000000000000000', count, offset: 0, years, now: Date.now(), seed });
    const started = performance.now();
    let bytes = 0;
    for (const batch of generator.batches(batchRows)) bytes += batch.length;
    const seconds = secondsSince(started);
    emit({ bench: 'seed-generate', rows: count, seconds, rows_per_second: Math.round(count / seconds), mb: round(bytes / 1e6, 1) });
    return;
  }

  const url = o['database-url'] ?? (await ensureBenchDatabase()).url;
  let workspaceId = o.workspace;
  let apiKey: string | undefined;
  if (!workspaceId) {
    const created = await createWorkspaceWithKey(url, 'Bench seed workspace');
    workspaceId = created.workspace_id;
    apiKey = created.api_key;
    logToStderr(`seed: created workspace ${workspaceId} (all-scopes key ${created.api_key_id})`);
  }

  const result = await seedSubscribers({ url, workspaceId, count, offset, years, seed, batchRows, indexMode, fkMode });
  emit({
    bench: 'seed',
    ...result,
    ...(apiKey ? { api_key: apiKey } : {}),
    database_url: redactUrl(url),
  });
}

export interface SeedParams {
  url: string;
  workspaceId: string;
  count: number;
  /** Default: after the workspace's highest seeded email number. */
  offset?: number;
  years: number;
  seed: number;
  batchRows: number;
  indexMode: IndexMode;
  fkMode: FkMode;
  /** Values drawn into each row's custom_fields (default: none, `{}`). */
  customFields?: readonly SeedCustomField[];
  /** Progress lines (default: stderr). */
  log?: (message: string) => void;
}

export interface SeedResult {
  rows: number;
  /** BEGIN to COMMIT: the rows are loaded, indexed and visible. */
  seconds: number;
  rows_per_second: number;
  copy_seconds: number;
  index_seconds: number;
  vacuum_analyze_seconds: number;
  total_seconds: number;
  indexes: 'keep' | 'rebuild';
  fk_check: 'once' | 'per-row';
  table_rows_before: number;
  generated_mb: number;
  table_total_mb: number;
  workspace_id: string;
  first_email: string;
}

/** Loads generated subscribers into an existing workspace with one COPY, in one transaction. */
export async function seedSubscribers(params: SeedParams): Promise<SeedResult> {
  const { url, workspaceId, count, years, seed, batchRows, indexMode, fkMode, customFields, log = logToStderr } = params;
  const client = new Client({ connectionString: url, application_name: 'bench-seed' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM workspaces WHERE id = $1', [workspaceId]);
    if (!rowCount) throw new UsageError(`workspace ${workspaceId} does not exist in ${redactUrl(url)}`);
    const offset = params.offset ?? (await nextEmailNumber(client, workspaceId));
    const rowsBefore = await tableRows(client);
    const indexesBefore = (await secondaryIndexes(client)).map((index) => index.name);
    const rebuild = indexMode === 'rebuild' || (indexMode === 'auto' && rowsBefore < count);
    let fkOnce = false;
    if (fkMode !== 'per-row') {
      const allowed = await canCheckFkOnce(client);
      if (!allowed.ok && fkMode === 'once') throw new UsageError(`--fk-check once is not possible: ${allowed.why}`);
      if (!allowed.ok) log(`seed: checking workspace_id per row (${allowed.why})`);
      fkOnce = allowed.ok;
    }
    log(
      `seed: ${count.toLocaleString('en-US')} rows into ${workspaceId} (emails from user${offset}), table has ~${rowsBefore.toLocaleString('en-US')} rows, ` +
        `indexes: ${rebuild ? 'rebuild' : 'keep'}, fk check: ${fkOnce ? 'once' : 'per-row'}`,
    );

    const generator = new SubscriberRowGenerator({ workspaceId, count, offset, years, now: Date.now(), seed, customFields });
    const started = performance.now();
    await client.query('BEGIN');
    let indexSeconds = 0;
    let copySeconds = 0;
    let bytes = 0;
    try {
      // Index builds sort in memory when they can (the default 64MB spills to disk at ~1M rows).
      await client.query(`SET LOCAL maintenance_work_mem = '512MB'`);
      if (fkOnce) {
        // What the FK trigger does per row, done once: the workspace cannot go away before COMMIT.
        const { rowCount: locked } = await client.query('SELECT 1 FROM workspaces WHERE id = $1 FOR KEY SHARE', [workspaceId]);
        if (!locked) throw new Error(`workspace ${workspaceId} disappeared`);
        await client.query('SET LOCAL session_replication_role = replica');
      }
      const dropped = rebuild ? await secondaryIndexes(client) : [];
      for (const index of dropped) await client.query(`DROP INDEX "${index.name}"`);

      const timer = progress(generator, count, started, log);
      const copyStarted = performance.now();
      try {
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            bytes += chunk.length;
            callback(null, chunk);
          },
        });
        const copy = client.query(copyFrom(`COPY subscribers (${SUBSCRIBER_COLUMNS.join(', ')}) FROM STDIN`));
        await pipeline(Readable.from(generator.batches(batchRows)), counter, copy);
      } finally {
        clearInterval(timer);
      }
      copySeconds = secondsSince(copyStarted);
      log(`seed: COPY done in ${copySeconds}s`);

      const indexStarted = performance.now();
      for (const index of dropped) {
        log(`seed: re-creating ${index.name}`);
        await client.query(index.definition);
      }
      indexSeconds = secondsSince(indexStarted);
      if (fkOnce) await client.query('SET LOCAL session_replication_role = origin');
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    const loaded = secondsSince(started);

    // Statistics and a visibility map now, while nothing else runs: otherwise autovacuum, throttled,
    // does it in the background later, in the middle of whatever benchmark runs next.
    const vacuumStarted = performance.now();
    await client.query('VACUUM (ANALYZE) subscribers');
    const vacuumSeconds = secondsSince(vacuumStarted);

    const after = new Set((await secondaryIndexes(client)).map((index) => index.name));
    const lost = indexesBefore.filter((name) => !after.has(name));
    if (lost.length) throw new Error(`indexes missing after the load: ${lost.join(', ')}`);
    const { rows: size } = await client.query<{ bytes: string }>(`SELECT pg_total_relation_size('subscribers') AS bytes`);
    return {
      rows: count,
      seconds: loaded,
      rows_per_second: Math.round(count / loaded),
      copy_seconds: copySeconds,
      index_seconds: indexSeconds,
      vacuum_analyze_seconds: vacuumSeconds,
      total_seconds: secondsSince(started),
      indexes: rebuild ? ('rebuild' as const) : ('keep' as const),
      fk_check: fkOnce ? ('once' as const) : ('per-row' as const),
      table_rows_before: rowsBefore,
      generated_mb: round(bytes / 1e6, 1),
      table_total_mb: round(Number(size[0].bytes) / 1e6, 1),
      workspace_id: workspaceId,
      first_email: `user${offset}@${SEED_EMAIL_DOMAIN}`,
    };
  } finally {
    await client.end();
  }
}

export const seedBenchmark: Benchmark = {
  name: 'seed',
  summary: 'bulk-load N generated subscribers with COPY; prints rows/s',
  usage: USAGE,
  run,
};
