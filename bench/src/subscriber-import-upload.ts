import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { freePort } from '@shared/testing';
import { createWorkspaceWithKey } from './access';
import { Benchmark, emit, intOption, log, parseOptions, round, secondsSince } from './cli';
import { openBenchDatabase, redactUrl } from './databases';
import { callApi } from './fixtures';
import { appEntry, processRssMb, startApp } from './server';

const DATABASE = 'pl_bench_subscriber_jobs';
const GOAL_GROWTH_MB = 50;

const USAGE = `subscriber-import-upload [--mb 100] [--database-url URL]
  A CSV of about --mb MB sent through the import upload page of the built email-api (as its script sends it: the raw
  file, streamed), which stores it and reads it back for its headers and row count. Reports the time and the API
  process's RSS above idle (goal: < ${GOAL_GROWTH_MB} MB above idle for 100 MB).`;

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, { mb: { type: 'string' }, 'database-url': { type: 'string' } });
  const megabytes = intOption(o.mb, 'mb', 100, 1, 4000);
  const database = await openBenchDatabase('subscriber-import-upload', { name: DATABASE, givenUrl: o['database-url'], keep: false });
  const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-bench-upload-'));
  const csv = path.join(filesDir, 'upload.csv');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = await startApp(appEntry('email-api'), {
    port,
    env: {
      EMAIL_DATABASE_URL: database.url,
      PUBLIC_BASE_URL: baseUrl,
      SUBSCRIBER_JOB_FILES_DIR: filesDir,
      SUBSCRIBER_IMPORT_MAX_BYTES: String((megabytes + 10) * 1024 * 1024),
      HTTP_REQUEST_TIMEOUT_MS: '600000',
    },
  });
  try {
    const workspace = await createWorkspaceWithKey(database.url, 'Bench upload');
    const lines = function* () {
      yield 'email,name,country,Plan\n';
      const line = (i: number) => `someone.${i}@bench.example,"Person ${i}",DE,plan-${i % 7}\n`;
      for (let written = 0, i = 0; written < megabytes * 1024 * 1024;) {
        let chunk = '';
        for (let n = 0; n < 10_000; n++, i++) chunk += line(i);
        written += chunk.length;
        yield chunk;
      }
    };
    await pipeline(Readable.from(lines()), createWriteStream(csv));
    const size = statSync(csv).size;

    const { body } = await callApi<{ data: { upload_url: string } }>(baseUrl, 'POST', '/v1/jobs/subscriber-import-uploads', {
      key: workspace.api_key,
      expect: 201,
    });
    const page = await fetch(body.data.upload_url);
    const cookie = page.headers.get('set-cookie')!.split(';')[0];
    const csrf = /data-csrf="([^"]+)"/.exec(await page.text())![1];

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = processRssMb(app.pid)!;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, processRssMb(app.pid) ?? peak)), 50);
    const started = performance.now();
    const response = await fetch(body.data.upload_url, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(size), 'x-csrf-token': csrf, 'x-file-name': 'bench.csv', cookie },
      body: Readable.toWeb(createReadStream(csv)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const answer = (await response.json()) as { row_count?: number; error?: unknown };
    const seconds = secondsSince(started);
    clearInterval(sampler);
    if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${JSON.stringify(answer)}`);
    log(`subscriber-import-upload: ${round(size / 1048576, 1)} MB, ${answer.row_count} rows in ${round(seconds, 2)} s; RSS ${idle} → ≤ ${peak} MB`);
    emit({
      bench: 'subscriber-import-upload',
      file_mb: round(size / 1048576, 1),
      rows: answer.row_count,
      seconds: round(seconds, 3),
      mb_per_s: round(size / 1048576 / seconds, 1),
      api_rss_idle_mb: idle,
      api_rss_peak_mb: peak,
      api_rss_growth_mb: peak - idle,
      goal_growth_mb: GOAL_GROWTH_MB,
      meets_goal: peak - idle < GOAL_GROWTH_MB,
      database_url: redactUrl(database.url),
    });
  } finally {
    await app.stop();
    rmSync(filesDir, { recursive: true, force: true });
    await database.release();
  }
}

export const subscriberImportUploadBenchmark: Benchmark = {
  name: 'subscriber-import-upload',
  summary: 'a 100 MB CSV through the import upload page of the built email-api: time and API RSS above idle (goal < 50 MB)',
  usage: USAGE,
  run,
};
