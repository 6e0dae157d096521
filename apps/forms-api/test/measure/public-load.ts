/**
 * Two measurements of forms-api under abuse of its public side, run against the sources of this checkout:
 *
 *   node -r ./apps/forms-api/test/measure/ts-hook.js apps/forms-api/test/measure/public-load.ts uploads
 *     resident memory (RSS) of forms-api before, during and 20 s after 8 parallel 25 MiB uploads
 *   node -r ./apps/forms-api/test/measure/ts-hook.js apps/forms-api/test/measure/public-load.ts drafts [draft KiB]
 *     hosted-page latency (p50/p95/p99) alone, then while 3 clients PUT a draft of the given size in a loop
 *
 * Latency is measured by a small closed loop here (8 clients) so that p95 is exact. forms-api runs as a child process (LOG_LEVEL=silent, limits off) on a throw-away database. Not a test: figures
 * depend on the machine; they go into the notes.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { createTestDatabase } from '@shared/testing';
import { FormsDataAccessModule } from '@forms/data-access';
import { AccountsService, FormsAccountsModule } from '@forms/accounts';

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

async function createAccount(databaseUrl: string): Promise<string> {
  const imports = [ConfigModule.forRoot({}, { formsDatabaseUrl: databaseUrl }), CoreModule, FormsDataAccessModule, FormsAccountsModule];
  const app = await NestFactory.createApplicationContext({ module: class MeasureAccountsModule {}, imports }, { logger: false });
  try {
    return (await app.get(AccountsService).createAccount({ email: `measure-${process.pid}@example.test` })).api_key;
  } finally {
    await app.close();
  }
}

async function startFormsApi(databaseUrl: string, uploadDir: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['-r', join(__dirname, 'ts-hook.js'), join(__dirname, '../../src/main.ts')], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      FORMS_DATABASE_URL: databaseUrl,
      FORMS_UPLOAD_DIR: uploadDir,
      RATE_LIMIT_REQUESTS: '0',
      FORMS_SUBMISSIONS_PER_IP: '0',
      FORMS_UPLOADS_PER_IP: '0',
      FORMS_UPLOADS_PER_FORM: '0',
      FORMS_HOSTED_PAGES_PER_IP: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${baseUrl}/healthz`).then((res) => res.ok, () => false)) return { child, baseUrl };
    await sleep(100);
  }
  child.kill();
  throw new Error('forms-api did not start');
}

async function api(baseUrl: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json()) as { data?: { id: string; public_id: string } };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

async function publishedForm(baseUrl: string, key: string, draftSchema: object) {
  const created = (await api(baseUrl, key, 'POST', '/api/v1/forms', { draftSchema })).data!;
  await api(baseUrl, key, 'POST', `/api/v1/forms/${created.id}/publish`, {});
  return created;
}

async function uploads(baseUrl: string, key: string, pid: number) {
  const form = await publishedForm(baseUrl, key, { settings: { name: 'Uploads' }, steps: [{ title: 'One', fields: [{ id: 'fld_cv', type: 'file_upload', label: 'CV' }] }] });
  const body = Buffer.alloc(25 * MiB, 7);
  const baseline = rssMb(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const statuses = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      fetch(`${baseUrl}/api/public/forms/${form.public_id}/uploads`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-file-name': `big-${i}.bin`, 'x-file-type': 'application/octet-stream' },
        body,
      }).then((res) => res.status),
    ),
  );
  const done = rssMb(pid);
  await sleep(20_000);
  clearInterval(sampler);
  console.log(JSON.stringify({ measurement: 'forms-api RSS, 8 parallel 25 MiB uploads', statuses, rss_mb: { baseline, peak, at_end: done, after_20s: rssMb(pid) } }));
}

/** A valid draft of about `bytes` of JSON: 100 choice questions with long option lists. */
function draftOf(bytes: number) {
  const perField = Math.ceil(bytes / 100 / 60);
  const options = (field: number) => Array.from({ length: perField }, (_, i) => ({ label: `Answer ${field}.${i} ${'x'.repeat(24)}`, value: `a${i}` }));
  return { steps: [{ id: 'stp_big', title: 'Big', fields: Array.from({ length: 100 }, (_, i) => ({ id: `fld_${i}`, type: 'single_choice', label: `Question ${i}`, options: options(i) })) }] };
}

/** Closed-loop load on one URL (8 clients, one request at a time each); latency percentiles in ms. */
async function pageLatency(url: string, seconds: number) {
  const latencies: number[] = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      if (res.status !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
  return { requests_per_s: Math.round(latencies.length / seconds), p50_ms: at(0.5), p95_ms: at(0.95), p99_ms: at(0.99), max_ms: at(1), failed };
}

async function drafts(baseUrl: string, key: string, draftKiB: number) {
  const page = await publishedForm(baseUrl, key, { settings: { name: 'Page' }, steps: [{ title: 'One', fields: [{ id: 'fld_email', type: 'email', label: 'Email' }] }] });
  const editing = (await api(baseUrl, key, 'POST', '/api/v1/forms', {})).data!;
  const draftBody = JSON.stringify({ draftSchema: draftOf(draftKiB * 1024), force: true });
  const pageUrl = `${baseUrl}/f/${page.public_id}`;
  await pageLatency(pageUrl, 2);
  const alone = await pageLatency(pageUrl, 8);

  let running = true;
  const statuses = new Map<number, number>();
  const putLoop = async () => {
    while (running) {
      const res = await fetch(`${baseUrl}/api/v1/forms/${editing.id}/draft`, { method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: draftBody });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  const loops = [putLoop(), putLoop(), putLoop()];
  const loaded = await pageLatency(pageUrl, 8);
  running = false;
  await Promise.all(loops);
  console.log(JSON.stringify({ measurement: `hosted page under a 3-client draft PUT loop (${Buffer.byteLength(draftBody)} B body)`, alone, loaded, put_statuses: Object.fromEntries(statuses) }));
}

async function main() {
  const [mode, size] = process.argv.slice(2);
  const db = await createTestDatabase('forms');
  const uploadDir = mkdtempSync(join(tmpdir(), 'forms-measure-'));
  const { child, baseUrl } = await startFormsApi(db.url, uploadDir);
  try {
    const key = await createAccount(db.url);
    if (mode === 'uploads') await uploads(baseUrl, key, child.pid!);
    else await drafts(baseUrl, key, Number(size ?? 250));
  } finally {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
    await db.drop();
    rmSync(uploadDir, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
