import { Queue } from 'bullmq';
import * as ExcelJS from 'exceljs';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { FormsJobPayloads, FormsQueues } from '@forms/contracts';
import { loadConfig } from '@shared/config';
import { queuePrefix } from '@shared/queue';
import { freePort } from '@shared/testing';
import { Benchmark, emit, intOption, log, parseOptions, round, secondsSince } from './cli';
import { openBenchDatabase, redactUrl, withClient } from './databases';
import { appEntry, processMemoryMb, startApp } from './server';
import { WORKER_MEMORY_OPTIONS, WorkerMemory, workerMemoryEnv, workerMemoryFigures, workerMemoryOption, workerMemoryUsage } from './worker-memory';

const DATABASE = 'pl_bench_forms_export';
const DEFAULT_ROWS = 100_000;
const GOAL_PEAK_MB = 200;
const BATCH = 1000;
const WS = 'wrk_bench_export';
const FORM = 'frm_bench_export';

/** The V8 memory limits forms-worker runs with wherever it is launched (npm start, docker/compose.yaml, k8s). */
const DEPLOYED_MEMORY: WorkerMemory = { heapMb: 192, semiSpaceMb: 4 };

const USAGE = `forms-xlsx-export [--rows ${DEFAULT_ROWS}] [--worker-heap-mb N] [--worker-semi-space-mb N] [--database-url URL]
  A spreadsheet export of --rows submissions (10 answers and a payment each) run by the built forms-worker as a real
  job (queued in Redis, rows read from PostgreSQL, the workbook streamed to its upload directory): time, rows/s and the
  worker's peak memory (VmHWM, whole process; goal < ${GOAL_PEAK_MB} MB). Against a bare exceljs streaming-writer loop over the
  same rows (same keyset batches, raw values, no layout or neutralisation) in this process, in the same run.
  ${workerMemoryUsage(DEPLOYED_MEMORY)}`;

/** Ten answerable fields (two of them numbers) and a payment, like a medium survey with a fee. */
const FIELDS = Array.from({ length: 10 }, (_, i) => ({ id: `fld_${i}`, type: i < 2 ? 'number' : 'text', label: `Question ${i + 1}`, required: false }));
const SCHEMA = { steps: [{ id: 'stp_1', fields: [...FIELDS, { id: 'fld_fee', type: 'payment', label: 'Fee', currency: 'EUR', required: false }] }] };

/** The forms workspace, form, version and `rows` submissions, written by PostgreSQL itself (generate_series). */
async function seed(url: string, rows: number): Promise<void> {
  await withClient(url, async (client) => {
    await client.query('DELETE FROM workspaces WHERE id = $1', [WS]);
    await client.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ($1, 'Bench export', now())`, [WS]);
    await client.query(
      `INSERT INTO forms (id, workspace_id, title, status, draft_schema, draft_updated_at, published_version, public_id, updated_at)
       VALUES ($1, $2, 'Bench export', 'published', '{}', now(), 1, 'pub_bench_export', now())`,
      [FORM, WS],
    );
    await client.query(`INSERT INTO form_versions (form_id, version, schema, published_at) VALUES ($1, 1, $2, now())`, [FORM, JSON.stringify(SCHEMA)]);
    await client.query(
      `INSERT INTO form_submissions (id, form_id, published_version, record, created_at)
       SELECT 'sbm_' || lpad(n::text, 8, '0'), $1, 1,
              json_build_object(
                'submission', json_build_object('id', 'sbm_' || n, 'status', 'completed',
                  'payments', json_build_array(json_build_object('fieldId', 'fld_fee', 'amount', 4900, 'currency', 'EUR', 'status', 'unpaid'))),
                'answers', json_build_array(
                  json_build_object('fieldId', 'fld_0', 'value', n, 'text', n::text),
                  json_build_object('fieldId', 'fld_1', 'value', n % 97, 'text', (n % 97)::text),
                  ${Array.from({ length: 8 }, (_, i) => `json_build_object('fieldId', 'fld_${i + 2}', 'value', 'Answer ${i + 2} of ' || n, 'text', 'Answer ${i + 2} of ' || n)`).join(',\n                  ')})),
              timestamptz '2026-01-01' + n * interval '1 second'
       FROM generate_series(1, $2) AS n`,
      [FORM, rows],
    );
    await client.query('ANALYZE form_submissions');
  });
}

/** The bare baseline: the same rows in the same keyset batches, straight into exceljs's streaming writer. */
async function bareExport(url: string, file: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: createWriteStream(file), useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet('Responses');
    let after: [Date | string, string] = ['-infinity', ''];
    let count = 0;
    for (;;) {
      const { rows } = await client.query<{ id: string; created_at: Date; record: { answers: { value: unknown }[] } }>(
        `SELECT id, created_at, record FROM form_submissions WHERE form_id = $1 AND (created_at, id) > ($2::timestamptz, $3::text)
         ORDER BY created_at, id LIMIT ${BATCH}`,
        [FORM, ...after],
      );
      for (const row of rows) sheet.addRow([row.id, row.created_at.toISOString(), ...row.record.answers.map((answer) => answer.value)]).commit();
      count += rows.length;
      if (rows.length < BATCH) break;
      after = [rows[rows.length - 1].created_at, rows[rows.length - 1].id];
    }
    sheet.commit();
    await workbook.commit();
    return count;
  } finally {
    await client.end();
  }
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, { rows: { type: 'string' }, ...WORKER_MEMORY_OPTIONS, 'database-url': { type: 'string' } });
  const rows = intOption(o.rows, 'rows', DEFAULT_ROWS, 1, 5_000_000);
  const limits = workerMemoryOption(o, DEPLOYED_MEMORY);
  const database = await openBenchDatabase('forms-xlsx-export', { name: DATABASE, service: 'forms', givenUrl: o['database-url'], keep: false });
  const { url } = database;
  const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-bench-xlsx-'));
  const prefix = `bench-xlsx-${process.pid}`;
  const port = await freePort();
  const worker = await startApp(appEntry('forms-worker'), {
    port,
    env: {
      HEALTH_PORT: String(port),
      FORMS_DATABASE_URL: url,
      FORMS_UPLOAD_DIR: filesDir,
      QUEUE_PREFIX: prefix,
      ...workerMemoryEnv(limits),
    },
  });
  const queue = new Queue<FormsJobPayloads['forms-export']>(FormsQueues.formsExport, {
    connection: { url: loadConfig(process.env).redisUrl },
    prefix: queuePrefix(prefix, FormsQueues.formsExport),
  });
  try {
    const seeded = performance.now();
    await seed(url, rows);
    log(`forms-xlsx-export: seeded ${rows.toLocaleString('en-US')} submissions in ${secondsSince(seeded)} s`);
    const idle = processMemoryMb(worker.pid);

    const exportId = 'sxp_bench';
    await withClient(url, (client) =>
      client.query(`INSERT INTO submission_exports (id, workspace_id, form_id, selected_submission_ids, updated_at) VALUES ($1, $2, $3, '{}', now())`, [
        exportId,
        WS,
        FORM,
      ]),
    );
    const started = performance.now();
    await queue.add('export', { workspaceId: WS, exportId }, { jobId: exportId });
    type ExportState = { status: string; row_count: number | null; file_size: number | null; error: string | null };
    let done: ExportState;
    for (;;) {
      const { rows: states } = await withClient(url, (client: Client) =>
        client.query<ExportState>(`SELECT status, row_count, file_size, error FROM submission_exports WHERE id = $1`, [exportId]),
      );
      done = states[0];
      if (done.status === 'completed' || done.status === 'failed') break;
      await sleep(50);
    }
    const seconds = secondsSince(started);
    const memory = processMemoryMb(worker.pid);
    if (done.status !== 'completed' || done.row_count !== rows) throw new Error(`export ended ${done.status} with ${done.row_count} rows: ${done.error}`);
    log(`forms-xlsx-export: worker export ${seconds} s, ${round((done.file_size ?? 0) / 1048576, 1)} MB, worker peak ${memory.peak} MB`);

    const bareFile = path.join(filesDir, 'bare.xlsx');
    const bareStarted = performance.now();
    const bareRows = await bareExport(url, bareFile);
    const bareSeconds = secondsSince(bareStarted);
    if (bareRows !== rows) throw new Error(`bare loop wrote ${bareRows} rows`);
    const rate = rows / seconds;
    emit({
      bench: 'forms-xlsx-export',
      rows,
      batch_rows: BATCH,
      seconds: round(seconds, 3),
      rows_per_s: Math.round(rate),
      file_mb: round((done.file_size ?? 0) / 1048576, 1),
      worker_rss_idle_mb: idle.rss,
      worker_peak_mb: memory.peak,
      ...workerMemoryFigures(limits),
      bare_seconds: round(bareSeconds, 3),
      bare_rows_per_s: Math.round(rows / bareSeconds),
      bare_file_mb: round(statSync(bareFile).size / 1048576, 1),
      ratio_export_over_bare: round(rate / (rows / bareSeconds), 3),
      goal_peak_mb: GOAL_PEAK_MB,
      meets_goal: memory.peak < GOAL_PEAK_MB,
      database_url: redactUrl(url),
    });
  } finally {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await worker.stop();
    rmSync(filesDir, { recursive: true, force: true });
    await database.release();
  }
}

export const formsXlsxExportBenchmark: Benchmark = {
  name: 'forms-xlsx-export',
  summary: `a ${DEFAULT_ROWS.toLocaleString('en-US')}-submission spreadsheet export run by forms-worker (goal: peak memory < ${GOAL_PEAK_MB} MB) vs a bare exceljs loop`,
  usage: USAGE,
  run,
};
