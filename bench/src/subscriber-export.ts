import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { EmailPrisma, EmailSql, Prisma } from '@email/data-access';
import { copyStatement, ExportRunner, TagLookup, tagLookupFor } from '@email/jobs';
import { trustedWorkspaceId } from '@shared/core';
import { Benchmark, emit, intOption, log, parseOptions, round, secondsSince } from './cli';
import { openBenchDatabase, redactUrl, withClient } from './databases';
import { rssPeak, subscriberJobsContext } from './subscriber-jobs-bench';

/** Its own database: the import benchmarks, which other people may run at the same time, drop theirs when done. */
const DATABASE = 'pl_bench_subscriber_export';
const FULL = 1_000_000;
const GOAL_ROWS_PER_S = 100_000;
const WS = 'wsp_bench_export';
/** A workspace a hundredth the size of the main one, exported from the same database after it. */
const SMALL_WS = 'wsp_bench_export_small';
/** The two custom fields each bench workspace has, by the id prefix of its rows. */
const fieldsOf = (idPrefix: string) => [
  { id: `cf_${idPrefix}_plan`, type: 'Text' },
  { id: `cf_${idPrefix}_score`, type: 'Number' },
];

const USAGE = `subscriber-export [--rows 200000 | --full] [--database-url URL]
  A subscriber export as email-jobs-worker runs it, in this process: one COPY of the workspace's subscribers (every
  standard column, their tags and two custom fields by label, each cell formatted and guarded) streamed as CSV into the
  job files store. Against a bare COPY (SELECT …) TO STDOUT of the same rows and columns into a file, in the same run:
  PostgreSQL's own text forms, the tags from a subquery per row. --full: ${FULL.toLocaleString('en-US')} subscribers
  (goal ≥ ${GOAL_ROWS_PER_S.toLocaleString('en-US')} rows/s, memory flat). Then a workspace a hundredth that size (at least
  1,000) is exported from the same database, and its COPY is timed with each way of finding the tags: a small
  workspace among large ones must not read every workspace's memberships.`;

/** A workspace with the two custom fields and `count` subscribers, every one of them tagged. */
async function seedWorkspace(client: Client, workspaceId: string, idPrefix: string, count: number): Promise<void> {
  await client.query('DELETE FROM workspaces WHERE id = $1', [workspaceId]);
  await client.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ($1, 'Bench export', now())`, [workspaceId]);
  await client.query(
    `INSERT INTO custom_fields (id, workspace_id, label, label_key, type, options, updated_at)
    VALUES ($2 || 'plan', $1, 'Plan', 'plan', 'Text', '{}', now()), ($2 || 'score', $1, 'Score', 'score', 'Number', '{}', now())`,
    [workspaceId, `cf_${idPrefix}_`],
  );
  await client.query(`INSERT INTO tags (id, workspace_id, name, name_key, updated_at) VALUES ($2, $1, 'Customers', 'customers', now())`, [
    workspaceId,
    `tag_${idPrefix}`,
  ]);
  await client.query(
    `INSERT INTO subscribers (id, workspace_id, email, name, status, country, custom_fields, subscribed_at, created_at, updated_at)
     SELECT 'sub_' || $3 || '_' || lpad(i::text, 8, '0'), $1, 'user' || i || '@bench.example', 'User ' || i, 'Active', 'DE',
            jsonb_build_object($4::text, 'plan-' || (i % 7), $5::text, i % 100), now(), now(), now()
     FROM generate_series(1, $2::int) AS i`,
    [workspaceId, count, idPrefix, ...fieldsOf(idPrefix).map((field) => field.id)],
  );
  await client.query(
    `INSERT INTO subscriber_tags (workspace_id, subscriber_id, tag_id, created_at) SELECT $1, id, $2, now() FROM subscribers WHERE workspace_id = $1`,
    [workspaceId, `tag_${idPrefix}`],
  );
}

/** Seconds the export's COPY of a whole workspace takes with `lookup`, its output discarded. */
async function timedCopy(sql: EmailSql, workspaceId: string, idPrefix: string, lookup: TagLookup): Promise<number> {
  const started = performance.now();
  await sql.transaction(
    (client) =>
      pipeline(
        client.query(copyTo(copyStatement(client, workspaceId, Prisma.sql`s.workspace_id = ${workspaceId}`, fieldsOf(idPrefix), lookup))),
        new Writable({ write: (_chunk, _encoding, done) => done() }),
      ),
    { timeoutMs: 0 },
  );
  return secondsSince(started);
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, { rows: { type: 'string' }, full: { type: 'boolean' }, 'database-url': { type: 'string' } });
  const rows = o.full ? FULL : intOption(o.rows, 'rows', 200_000, 1, 10_000_000);
  const database = await openBenchDatabase('subscriber-export', { name: DATABASE, givenUrl: o['database-url'], keep: false });
  const { url } = database;
  const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-bench-export-'));
  const app = await subscriberJobsContext(url, { filesDir });
  try {
    const smallRows = Math.max(1000, Math.round(rows / 100));
    await withClient(url, async (client) => {
      await seedWorkspace(client, WS, 'bx', rows);
      await seedWorkspace(client, SMALL_WS, 'bs', smallRows);
      await client.query('VACUUM ANALYZE subscribers');
      await client.query('VACUUM ANALYZE subscriber_tags');
    });
    log(`subscriber-export: ${rows.toLocaleString('en-US')} subscribers made`);

    const copyFile = path.join(filesDir, 'bare.csv');
    const copyStarted = performance.now();
    await withClient(url, (client) =>
      pipeline(
        client.query(
          copyTo(`COPY (SELECT s.id, s.email, s.name, s.status, s.country, s.subscribed_at, s.last_opened_at, s.created_at, s.updated_at,
                  (SELECT string_agg(t.name, ', ') FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id = s.id),
                  s.custom_fields->>'cf_bx_plan', s.custom_fields->>'cf_bx_score'
                FROM subscribers s WHERE s.workspace_id = '${WS}' ORDER BY s.id) TO STDOUT (FORMAT csv, HEADER true)`),
        ),
        createWriteStream(copyFile),
      ),
    );
    const copySeconds = secondsSince(copyStarted);

    const prisma = app.get(EmailPrisma);
    await prisma.subscriberExportJob.create({ data: { id: 'exp_bench', workspace_id: WS } });
    const rssBeforeMb = Math.round(process.memoryUsage.rss() / 1048576);
    const memory = rssPeak();
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const outcome = await app.get(ExportRunner).run(trustedWorkspaceId(WS), 'exp_bench');
    const seconds = secondsSince(started);
    const cpu = process.cpuUsage(cpuBefore);
    const rssMb = memory.stop();
    const job = await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: 'exp_bench' } });
    if (outcome !== 'completed' || job.exported_count !== rows) throw new Error(`export: ${outcome}, ${job.exported_count} rows`);
    const bytes = statSync(path.join(filesDir, 'exports', WS, 'exp_bench.csv')).size;
    log(`subscriber-export: ${round(seconds, 2)} s, bare COPY ${round(copySeconds, 2)} s, RSS ${rssBeforeMb} → ≤ ${rssMb} MB`);
    const rate = rows / seconds;
    emit({
      bench: 'subscriber-export',
      rows,
      file_mb: round(bytes / 1048576, 1),
      seconds: round(seconds, 3),
      rows_per_s: Math.round(rate),
      // This process's CPU (reading COPY's messages, writing the file), which runs beside PostgreSQL's on another core.
      node_cpu_seconds: round((cpu.user + cpu.system) / 1e6, 3),
      rss_before_mb: rssBeforeMb,
      rss_peak_mb: rssMb,
      bare_copy_seconds: round(copySeconds, 3),
      bare_copy_rows_per_s: Math.round(rows / copySeconds),
      ratio_export_over_copy: round(rate / (rows / copySeconds), 3),
      goal_rows_per_s: GOAL_ROWS_PER_S,
      meets_goal: rate >= GOAL_ROWS_PER_S,
      database_url: redactUrl(url),
    });

    await prisma.subscriberExportJob.create({ data: { id: 'exp_bench_small', workspace_id: SMALL_WS } });
    const smallStarted = performance.now();
    await app.get(ExportRunner).run(trustedWorkspaceId(SMALL_WS), 'exp_bench_small');
    const smallSeconds = secondsSince(smallStarted);
    const sql = app.get(EmailSql);
    const chosen = await sql.transaction((client) => tagLookupFor(client, SMALL_WS, Prisma.sql`s.workspace_id = ${SMALL_WS}`));
    const perRow = await timedCopy(sql, SMALL_WS, 'bs', 'per-row');
    const onePass = await timedCopy(sql, SMALL_WS, 'bs', 'one-pass');
    emit({
      bench: 'subscriber-export-small-workspace',
      rows: smallRows,
      other_workspace_rows: rows,
      seconds: round(smallSeconds, 3),
      rows_per_s: Math.round(smallRows / smallSeconds),
      tag_lookup_chosen: chosen,
      copy_per_row_seconds: round(perRow, 3),
      copy_one_pass_seconds: round(onePass, 3),
      ratio_one_pass_over_per_row: round(onePass / perRow, 2),
    });
  } finally {
    await app.close();
    rmSync(filesDir, { recursive: true, force: true });
    await database.release();
  }
}

export const subscriberExportBenchmark: Benchmark = {
  name: 'subscriber-export',
  summary: 'export 200,000 subscribers to CSV (--full: 1,000,000; goal ≥ 100,000 rows/s, flat memory) vs a raw COPY TO',
  usage: USAGE,
  run,
};
