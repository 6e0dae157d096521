import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { EmailPrisma } from '@email/data-access';
import { detectFormat, ImportRunner, jobFileKey, JobFiles, readHead, scanCsv } from '@email/jobs';
import { trustedWorkspaceId } from '@shared/core';
import { Benchmark, emit, intOption, log, parseOptions, round, secondsSince } from './cli';
import { openBenchDatabase, redactUrl, withClient } from './databases';
import { rssPeak, subscriberJobsContext } from './subscriber-jobs-bench';
import { JobsWorkerProcess, startJobsWorker } from './worker-process';
import { backendCpu, cpuSince, processCpuSeconds } from './cpu-seconds';
import { importSchemaFloorSeconds } from './subscriber-import-floor';
import { WORKER_MEMORY_OPTIONS, WorkerMemory, workerMemoryEnv, workerMemoryFigures, workerMemoryOption, workerMemoryUsage } from './worker-memory';

const DATABASE = 'pl_bench_subscriber_jobs';
const FULL = 1_000_000;
const GOAL_ROWS_PER_S = 60_000;
const GOAL_RSS_MB = 300;
/** The V8 memory limits email-jobs-worker runs with wherever it is launched (npm start, docker/compose.yaml, k8s). */
const DEPLOYED_MEMORY: WorkerMemory = { heapMb: 256, semiSpaceMb: 4 };
const WS = 'wsp_bench_import';

const USAGE = `subscriber-import [--rows 200000 | --full] [--batch 5000] [--writers 2] [--in-process] [--worker-heap-mb N] [--worker-semi-space-mb N] [--database-url URL]
  A subscriber import end to end as email-api and email-jobs-worker do it: the CSV (email, name, country, status, two
  custom fields, semicolon-separated) streamed into the job files store and scanned for its headers and row count (the
  upload, in this process), then the import job queued to the built email-jobs-worker, started as a child process (every
  row checked with the upsert's rules, batches written set-based, a tag for every row); then the same file again (all
  updates). Against a raw COPY of the same file into an empty table in the same run, and against the schema floor:
  PostgreSQL alone inserting the same rows and their tag into an empty copy of our tables in one statement each. RSS is the worker's: idle before
  the first job, and its peak (VmHWM) over each job. --writers: import lanes written at once. --in-process: the import runner in this process instead (no queue;
  for CPU profiles), RSS then being this process's, which loads more than the worker.
  ${workerMemoryUsage(DEPLOYED_MEMORY)} --full: ${FULL.toLocaleString('en-US')} rows
  (goal ≥ ${GOAL_ROWS_PER_S.toLocaleString('en-US')} rows/s, worker RSS < ${GOAL_RSS_MB} MB).`;

async function writeCsv(file: string, rows: number): Promise<void> {
  const lines = function* () {
    yield 'email;name;country;status;Plan;Score\n';
    const statuses = ['Active', 'Active', 'Active', 'Unconfirmed'];
    for (let start = 0; start < rows; start += 10_000) {
      let chunk = '';
      for (let i = start; i < Math.min(rows, start + 10_000); i++) chunk += `user${i}@bench.example;User ${i};DE;${statuses[i % 4]};plan-${i % 7};${i % 100}\n`;
      yield chunk;
    }
  };
  await pipeline(Readable.from(lines()), createWriteStream(file));
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    rows: { type: 'string' },
    full: { type: 'boolean' },
    batch: { type: 'string' },
    writers: { type: 'string' },
    'in-process': { type: 'boolean' },
    ...WORKER_MEMORY_OPTIONS,
    'database-url': { type: 'string' },
  });
  const rows = o.full ? FULL : intOption(o.rows, 'rows', 200_000, 1, 10_000_000);
  const batch = intOption(o.batch, 'batch', 5000, 100, 100_000);
  const limits = workerMemoryOption(o, DEPLOYED_MEMORY);
  const writers = intOption(o.writers, 'writers', 2, 1, 8);
  const database = await openBenchDatabase('subscriber-import', { name: DATABASE, givenUrl: o['database-url'], keep: false });
  const { url } = database;
  const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-bench-import-'));
  const csv = path.join(filesDir, 'subscribers.csv');
  const app = await subscriberJobsContext(url, { filesDir, importBatchRows: batch, importWriters: writers });
  let worker: JobsWorkerProcess | undefined;
  try {
    if (!o['in-process'])
      worker = await startJobsWorker(url, {
        SUBSCRIBER_JOB_FILES_DIR: filesDir,
        SUBSCRIBER_IMPORT_BATCH_ROWS: String(batch),
        ...workerMemoryEnv(limits),
        SUBSCRIBER_IMPORT_WRITERS: String(writers),
      });
    const prisma = app.get(EmailPrisma);
    await withClient(url, (client) => client.query('DELETE FROM workspaces WHERE id = $1', [WS]));
    await prisma.workspace.create({ data: { id: WS, name: 'Bench import' } });
    await prisma.customField.createMany({
      data: [
        { id: 'cf_bench_plan', workspace_id: WS, label: 'Plan', label_key: 'plan', type: 'Text', options: [] },
        { id: 'cf_bench_score', workspace_id: WS, label: 'Score', label_key: 'score', type: 'Number', options: [] },
      ],
    });
    await prisma.tag.create({ data: { id: 'tag_bench_import', workspace_id: WS, name: 'Imported', name_key: 'imported' } });
    await writeCsv(csv, rows);
    const bytes = statSync(csv).size;
    log(`subscriber-import: ${rows.toLocaleString('en-US')} rows, ${round(bytes / 1048576, 1)} MB`);

    // The bare baseline: COPY of the same file into an empty table.
    const copyStarted = performance.now();
    await withClient(url, async (client) => {
      await client.query(
        'DROP TABLE IF EXISTS bench_raw_import; CREATE TABLE bench_raw_import (email text, name text, country text, status text, plan text, score text)',
      );
      await pipeline(createReadStream(csv), client.query(copyFrom(`COPY bench_raw_import FROM STDIN (FORMAT csv, HEADER true, DELIMITER ';')`)));
      await client.query('DROP TABLE bench_raw_import');
    });
    const copySeconds = secondsSince(copyStarted);

    const files = app.get(JobFiles);
    const runner = app.get(ImportRunner);
    const importOnce = async (n: number) => {
      const uploadId = `imu_bench_${n}`;
      const jobId = `imp_bench_${n}`;
      const started = performance.now();
      const key = jobFileKey('imports', WS, uploadId);
      await files.write(key, createReadStream(csv));
      const format = detectFormat(await readHead((await files.read(key))!));
      const scan = await scanCsv((await files.read(key))!, format);
      const uploadSeconds = secondsSince(started);
      await prisma.subscriberImportUpload.create({
        data: {
          id: uploadId,
          workspace_id: WS,
          status: 'Queued',
          token_hash: uploadId,
          link_expires_at: new Date(),
          expires_at: new Date(Date.now() + 86_400_000),
          ...format,
          headers: scan.headers,
          row_count: scan.rowCount,
          import_job_id: jobId,
        },
      });
      const mappings = [
        { csv_column: 'email', field: { type: 'email' } },
        { csv_column: 'name', field: { type: 'name' } },
        { csv_column: 'country', field: { type: 'country' } },
        { csv_column: 'status', field: { type: 'subscriber-status' } },
        { csv_column: 'Plan', field: { type: 'custom-field', custom_field_id: 'cf_bench_plan' } },
        { csv_column: 'Score', field: { type: 'custom-field', custom_field_id: 'cf_bench_score' } },
      ];
      await prisma.subscriberImportJob.create({
        data: { id: jobId, workspace_id: WS, upload_id: uploadId, request: { mappings, tag_ids: ['tag_bench_import'], new_tag_name: null, sequence_ids: [] } },
      });
      const databaseBefore = await backendCpu(url);
      const workerBefore = workerCpuSeconds(worker);
      const { outcome, rssBeforeMb, rssMb } = worker ? await inWorker(worker, jobId) : await inProcess(runner, jobId);
      const seconds = secondsSince(started);
      const cpu = { database: cpuSince(databaseBefore, await backendCpu(url)), worker: workerCpuSeconds(worker) - workerBefore };
      const job = await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: jobId } });
      if (outcome !== 'Completed' || job.processed_rows !== rows || job.rejected_count !== 0)
        throw new Error(`import ${jobId}: ${outcome}, ${JSON.stringify(job)}`);
      log(
        `subscriber-import: run ${n}: ${round(seconds, 2)} s (upload ${round(uploadSeconds, 2)} s), created ${job.created_count}, updated ${job.updated_count}, unchanged ${job.unchanged_count}, RSS ≤ ${rssMb} MB`,
      );
      return { seconds, uploadSeconds, rssMb, rssBeforeMb, cpu, created: job.created_count, updated: job.updated_count, unchanged: job.unchanged_count };
    };
    const first = await importOnce(1);
    const again = await importOnce(2);
    const tagged = await withClient(url, async (client) => {
      const { rows: counts } = await client.query<{ n: number }>(
        `SELECT t.subscriber_count + COALESCE((SELECT sum(delta) FROM tag_count_shards WHERE tag_id = t.id), 0)::int AS n FROM tags t WHERE t.id = 'tag_bench_import'`,
      );
      return counts[0].n;
    });
    if (first.created !== rows || again.unchanged !== rows || tagged !== rows)
      throw new Error(`created ${first.created}, unchanged ${again.unchanged}, tag count ${tagged}`);
    const floorSeconds = await importSchemaFloorSeconds(csv);
    const rate = rows / first.seconds;
    const perRow = (seconds: number) => round((seconds * 1e6) / rows, 1);
    emit({
      bench: 'subscriber-import',
      rows,
      file_mb: round(bytes / 1048576, 1),
      batch_rows: batch,
      writers,
      seconds: round(first.seconds, 3),
      upload_seconds: round(first.uploadSeconds, 3),
      rows_per_s: Math.round(rate),
      reimport_seconds: round(again.seconds, 3),
      reimport_rows_per_s: Math.round(rows / again.seconds),
      // CPU per row of the first import's job (not the upload), which the machine's other load barely moves: PostgreSQL's
      // backends and the worker (or this process, --in-process), and the rate those would allow on 2 idle cores.
      database_cpu_us_per_row: perRow(first.cpu.database),
      worker_cpu_us_per_row: perRow(first.cpu.worker),
      cpu_bound_rows_per_s_on_2_cores: Math.round((2 * rows) / (first.cpu.database + first.cpu.worker)),
      reimport_database_cpu_us_per_row: perRow(again.cpu.database),
      reimport_worker_cpu_us_per_row: perRow(again.cpu.worker),
      schema_floor_seconds: round(floorSeconds, 3),
      schema_floor_rows_per_s: Math.round(rows / floorSeconds),
      ratio_import_over_schema_floor: round(rate / (rows / floorSeconds), 3),
      rss_of: worker ? 'email-jobs-worker' : 'bench process',
      rss_before_mb: first.rssBeforeMb,
      rss_peak_mb: Math.max(first.rssMb, again.rssMb),
      ...workerMemoryFigures(limits),
      bare_copy_seconds: round(copySeconds, 3),
      bare_copy_rows_per_s: Math.round(rows / copySeconds),
      ratio_import_over_copy: round(rate / (rows / copySeconds), 3),
      goal_rows_per_s: GOAL_ROWS_PER_S,
      meets_goal: rate >= GOAL_ROWS_PER_S && Math.max(first.rssMb, again.rssMb) < GOAL_RSS_MB,
      database_url: redactUrl(url),
    });
  } finally {
    await worker?.stop();
    await app.close();
    rmSync(filesDir, { recursive: true, force: true });
    await database.release();
  }
}

type ImportMeasure = { outcome: string; rssBeforeMb: number; rssMb: number };

/** CPU seconds the import's Node process has used so far: the worker's, or this process's (--in-process). */
function workerCpuSeconds(worker: JobsWorkerProcess | undefined): number {
  if (worker) return processCpuSeconds(worker.pid);
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}
async function inWorker(worker: JobsWorkerProcess, jobId: string): Promise<ImportMeasure> {
  const rssBeforeMb = worker.rssMb();
  const { status, peakMb } = await worker.runImport(WS, jobId);
  return { outcome: status, rssBeforeMb, rssMb: peakMb };
}

async function inProcess(runner: ImportRunner, jobId: string): Promise<ImportMeasure> {
  const rssBeforeMb = Math.round(process.memoryUsage.rss() / 1048576);
  const memory = rssPeak();
  const outcome = await runner.run(trustedWorkspaceId(WS), jobId);
  return { outcome: outcome === 'completed' ? 'Completed' : outcome, rssBeforeMb, rssMb: memory.stop() };
}

export const subscriberImportBenchmark: Benchmark = {
  name: 'subscriber-import',
  summary: 'import a 200,000-row CSV end to end, then again as updates (--full: 1,000,000; goal ≥ 60,000 rows/s) vs a raw COPY',
  usage: USAGE,
  run,
};
