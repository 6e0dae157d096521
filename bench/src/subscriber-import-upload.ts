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
  A CSV of about --mb MB sent through the import upload page of the built email-api, both ways the page sends it: as
  its script does (the raw file, streamed) and as its plain form does without the script (multipart/form-data). Each
  way runs on a fresh API process, which stores the file and reads it back for its headers and row count. Reports
  the time and the API process's RSS above idle (goal: < ${GOAL_GROWTH_MB} MB above idle for 100 MB).`;

type Way = 'script' | 'form';

/** The request each way sends: the raw file with its headers, or a multipart body streamed around the file. */
function uploadRequest(way: Way, csv: string, size: number, session: { cookie: string; csrf: string }): RequestInit {
  if (way === 'script') {
    return {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(size),
        'x-csrf-token': session.csrf,
        'x-file-name': 'bench.csv',
        cookie: session.cookie,
      },
      body: Readable.toWeb(createReadStream(csv)) as ReadableStream,
      duplex: 'half',
    } as RequestInit;
  }
  const boundary = '----postline-bench-boundary';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="csrf_token"\r\n\r\n${session.csrf}\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="bench.csv"\r\ncontent-type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = async function* () {
    yield head;
    yield* createReadStream(csv);
    yield tail;
  };
  return {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + size + tail.length),
      cookie: session.cookie,
    },
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    duplex: 'half',
  } as RequestInit;
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, { mb: { type: 'string' }, 'database-url': { type: 'string' } });
  const megabytes = intOption(o.mb, 'mb', 100, 1, 4000);
  const database = await openBenchDatabase('subscriber-import-upload', { name: DATABASE, givenUrl: o['database-url'], keep: false });
  const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-bench-upload-'));
  const csv = path.join(filesDir, 'upload.csv');
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
    for (const way of ['script', 'form'] as const)
      await uploadOnce(way, { databaseUrl: database.url, apiKey: workspace.api_key, filesDir, csv, size, megabytes });
  } finally {
    rmSync(filesDir, { recursive: true, force: true });
    await database.release();
  }
}

async function uploadOnce(way: Way, o: { databaseUrl: string; apiKey: string; filesDir: string; csv: string; size: number; megabytes: number }): Promise<void> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = await startApp(appEntry('email-api'), {
    port,
    env: {
      EMAIL_DATABASE_URL: o.databaseUrl,
      PUBLIC_BASE_URL: baseUrl,
      SUBSCRIBER_JOB_FILES_DIR: o.filesDir,
      SUBSCRIBER_IMPORT_MAX_BYTES: String((o.megabytes + 10) * 1024 * 1024),
      HTTP_REQUEST_TIMEOUT_MS: '600000',
    },
  });
  try {
    const { body } = await callApi<{ data: { upload_url: string } }>(baseUrl, 'POST', '/v1/jobs/subscriber-import-uploads', { key: o.apiKey, expect: 201 });
    const page = await fetch(body.data.upload_url);
    const cookie = page.headers.get('set-cookie')!.split(';')[0];
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())![1];

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = processRssMb(app.pid)!;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, processRssMb(app.pid) ?? peak)), 50);
    const started = performance.now();
    const response = await fetch(body.data.upload_url, uploadRequest(way, o.csv, o.size, { cookie, csrf }));
    const answer = await response.text();
    const seconds = secondsSince(started);
    clearInterval(sampler);
    if (response.status !== 200) throw new Error(`upload (${way}) answered ${response.status}: ${answer.slice(0, 500)}`);
    const rows = way === 'script' ? (JSON.parse(answer) as { row_count: number }).row_count : Number(/([\d,]+) rows? found/.exec(answer)![1].replace(/,/g, ''));
    log(`subscriber-import-upload (${way}): ${round(o.size / 1048576, 1)} MB, ${rows} rows in ${round(seconds, 2)} s; RSS ${idle} → ≤ ${peak} MB`);
    emit({
      bench: 'subscriber-import-upload',
      way,
      file_mb: round(o.size / 1048576, 1),
      rows,
      seconds: round(seconds, 3),
      mb_per_s: round(o.size / 1048576 / seconds, 1),
      api_rss_idle_mb: idle,
      api_rss_peak_mb: peak,
      api_rss_growth_mb: peak - idle,
      goal_growth_mb: GOAL_GROWTH_MB,
      meets_goal: peak - idle < GOAL_GROWTH_MB,
      database_url: redactUrl(o.databaseUrl),
    });
  } finally {
    await app.stop();
  }
}

export const subscriberImportUploadBenchmark: Benchmark = {
  name: 'subscriber-import-upload',
  summary:
    'a 100 MB CSV through the import upload page of the built email-api, by its script and by its plain form: time and API RSS above idle (goal < 50 MB)',
  usage: USAGE,
  run,
};
