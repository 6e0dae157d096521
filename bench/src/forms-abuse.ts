import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Benchmark, choiceOption, emit, intOption, log, parseOptions, round } from './cli';
import { openBenchDatabase } from './databases';
import { callApi } from './fixtures';
import { BenchFormsAccount, createFormsAccount, createPublishedBenchForm, createPublishedForm, startFormsApi } from './forms-fixtures';
import { LatencySamples } from './load';
import { measure } from './measure';
import { processRssMb, RunningApp } from './server';

const DATABASE = 'pl_bench_forms_abuse';
const MiB = 1024 * 1024;
const PHASES = ['uploads', 'drafts', 'all'] as const;
/** forms-api's own default (FORMS_MAX_DRAFT_BYTES). */
const DEFAULT_MAX_DRAFT_BYTES = 256 * 1024;
/** The draft schema's limit on a question's description (`LIMITS.description`). */
const DRAFT_DESCRIPTION_MAX = 5000;

const USAGE = `forms-abuse [--phase uploads|drafts|all] [--uploads 8] [--upload-mib 25] [--settle-seconds 20]
       [--put-clients 3] [--max-draft-bytes ${DEFAULT_MAX_DRAFT_BYTES}] [--connections 8] [--duration 8] [--warmup 2]
       [--database-url URL] [--keep-db]
  Abuse of forms-api's public side, against the built app (child process, NODE_ENV=production, LOG_LEVEL=silent,
  public limits set too high to trip); each phase starts an app of its own, uploads go to a temporary directory.
  uploads  the app's RSS before, at its peak during (sampled every 50 ms) and --settle-seconds after --uploads
           parallel --upload-mib MiB uploads to a published form's public upload endpoint; ratio peak / start
  drafts   GET /f/{public_id} (the 10-field bench form) at --connections for --duration s, alone (the baseline),
           then while --put-clients clients PUT a draft just under FORMS_MAX_DRAFT_BYTES (--max-draft-bytes,
           passed to the app) in a loop to another form; p50/p95/p99 of both, ratio loaded p95 / alone p95,
           and the draft PUT answers by status
  --database-url  a migrated forms database (default: ${DATABASE}, created, migrated and dropped afterwards
                  unless --keep-db); each run uses an account of its own`;

/** A form whose one question takes a file: uploads need one. */
const UPLOAD_FORM_DRAFT = {
  settings: { name: 'Bench uploads' },
  steps: [{ id: 'stp_files', title: 'Files', fields: [{ id: 'fld_cv', type: 'file_upload', label: 'Your CV' }] }],
};

async function uploadsPhase(databaseUrl: string, account: BenchFormsAccount, o: { uploads: number; uploadMib: number; settleSeconds: number }): Promise<void> {
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'pl-bench-uploads-'));
  let app: RunningApp | undefined;
  try {
    app = (await startFormsApi(databaseUrl, undefined, { FORMS_UPLOAD_DIR: uploadDir })).app;
    const { pid, baseUrl } = app;
    const form = await createPublishedForm(baseUrl, account.api_key, UPLOAD_FORM_DRAFT);
    const body = Buffer.alloc(o.uploadMib * MiB, 7);
    log(`forms-abuse uploads: ${o.uploads} parallel ${o.uploadMib} MiB uploads to /api/public/forms/${form.public_id}/uploads`);

    const rss = () => processRssMb(pid) ?? Number.NaN;
    const start = rss();
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: o.uploads }, async (_, i) => {
        const response = await fetch(`${baseUrl}/api/public/forms/${form.public_id}/uploads`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', 'x-file-name': `bench-${i}.bin`, 'x-file-type': 'application/octet-stream' },
          body,
        });
        const text = await response.text();
        if (response.status !== 201) log(`forms-abuse uploads: upload ${i} answered ${response.status}: ${text.slice(0, 300)}`);
        return response.status;
      }),
    );
    const uploadSeconds = (performance.now() - started) / 1000;
    const afterUploads = rss();
    log(`forms-abuse uploads: answered in ${round(uploadSeconds, 2)} s; settling ${o.settleSeconds} s`);
    await sleep(o.settleSeconds * 1000);
    clearInterval(sampler);
    const afterSettle = rss();
    emit({
      bench: 'forms-abuse',
      phase: 'uploads',
      uploads: o.uploads,
      upload_bytes: body.length,
      upload_seconds: round(uploadSeconds, 2),
      status_counts: countBy(answers),
      rss_start_mb: start,
      rss_peak_mb: peak,
      rss_after_uploads_mb: afterUploads,
      rss_after_settle_mb: afterSettle,
      settle_seconds: o.settleSeconds,
      rss_peak_to_start: round(peak / start, 2),
    });
  } finally {
    await app?.stop();
    rmSync(uploadDir, { recursive: true, force: true });
  }
}

/**
 * A valid PUT /draft body of at most `maxBytes` and within 64 bytes of it: choice questions of 40 long options while
 * whole ones fit, then a last question with as many options as fit, its description padding the rest.
 */
export function draftBodyNear(maxBytes: number): string {
  const option = (field: number, i: number) => ({ label: `Answer ${field}.${i} ${'x'.repeat(100)}`, value: `a${i}` });
  const field = (i: number, options: number) => ({
    id: `fld_q${i}`,
    type: 'single_choice',
    label: `Question ${i}`,
    description: '',
    options: Array.from({ length: options }, (_, k) => option(i, k)),
  });
  const bodyOf = (fields: object[]) =>
    JSON.stringify({ draftSchema: { settings: { name: 'Bench big draft' }, steps: [{ id: 'stp_big', title: 'Big', fields }] }, force: true });
  const bytes = (text: string) => Buffer.byteLength(text);
  const target = maxBytes - 200;
  // The body's length, kept as a sum: stringifying the whole draft for every question added would be quadratic.
  let size = bytes(bodyOf([]));
  const fields: Array<ReturnType<typeof field>> = [];
  const sizeWith = (next: object) => size + bytes(JSON.stringify(next)) + (fields.length ? 1 : 0);
  while (fields.length < 199 && sizeWith(field(fields.length, 40)) <= target) {
    size = sizeWith(field(fields.length, 40));
    fields.push(field(fields.length, 40));
  }
  let options = 1;
  while (options < 100 && sizeWith(field(fields.length, options + 1)) <= target) options++;
  const last = field(fields.length, options);
  const room = maxBytes - sizeWith(last);
  if (room < 0 || room > 5000) throw new Error(`no draft body fits just under ${maxBytes} B`);
  last.description = 'd'.repeat(room);
  const body = bodyOf([...fields, last]);
  if (bytes(body) > maxBytes || bytes(body) < maxBytes - 64) throw new Error(`draft body of ${bytes(body)} B is not within 64 B under ${maxBytes}`);
  return body;
}

/**
 * The PUT /draft body whose stored draft is exactly `maxBytes`, checked by hand: that body is accepted and one byte more
 * is a 413. The stored draft (ids minted, defaults filled in) is larger than its body, so a body that stores under the
 * limit is read back and its questions' descriptions padded to it (ASCII: a character is a byte in both).
 */
async function largestDraftBody(maxBytes: number, putDraft: (body: string) => Promise<Response>, storedBytes: () => Promise<number>): Promise<string> {
  const put = async (body: string, expected: number) => {
    const response = await putDraft(body);
    if (response.status !== expected)
      throw new Error(`PUT draft (${Buffer.byteLength(body)} B) answered ${response.status}, not ${expected}: ${(await response.text()).slice(0, 300)}`);
    await response.arrayBuffer();
  };
  const start = draftBodyNear(Math.floor(maxBytes * 0.6));
  await put(start, 200);
  const padded = (extra: number) => {
    const parsed = JSON.parse(start) as { draftSchema: { steps: Array<{ fields: Array<{ description: string }> }> } };
    for (const field of [...parsed.draftSchema.steps[0].fields].reverse()) {
      const take = Math.min(extra, DRAFT_DESCRIPTION_MAX - field.description.length);
      field.description += 'd'.repeat(take);
      extra -= take;
    }
    if (extra > 0) throw new Error(`no room to pad the draft to ${maxBytes} B`);
    return JSON.stringify(parsed);
  };
  const room = maxBytes - (await storedBytes());
  await put(padded(room + 1), 413);
  const body = padded(room);
  await put(body, 200);
  const stored = await storedBytes();
  if (stored !== maxBytes) throw new Error(`the padded draft stored as ${stored} B, not ${maxBytes}`);
  return body;
}

async function draftsPhase(
  databaseUrl: string,
  account: BenchFormsAccount,
  o: { putClients: number; maxDraftBytes: number; connections: number; duration: number; warmup: number },
): Promise<void> {
  let app: RunningApp | undefined;
  try {
    app = (await startFormsApi(databaseUrl, undefined, { FORMS_MAX_DRAFT_BYTES: String(o.maxDraftBytes) })).app;
    const { baseUrl } = app;
    const page = await createPublishedBenchForm(baseUrl, account.api_key);
    const pageUrl = `${baseUrl}/f/${page.public_id}`;
    const editing = await callApi<{ data: { id: string } }>(baseUrl, 'POST', '/api/v1/forms', { key: account.api_key, body: {}, expect: 201 });
    const draftUrl = `${baseUrl}/api/v1/forms/${editing.body.data.id}/draft`;
    const putDraft = (body: string) =>
      fetch(draftUrl, { method: 'PUT', headers: { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' }, body });
    const draftBody = await largestDraftBody(o.maxDraftBytes, putDraft, async () => {
      const form = await callApi<{ draft_schema: unknown }>(baseUrl, 'GET', `/api/v1/forms/${editing.body.data.id}`, {
        key: account.api_key,
        expect: 200,
      });
      return Buffer.byteLength(JSON.stringify(form.body.draft_schema));
    });
    log(`forms-abuse drafts: draft body ${Buffer.byteLength(draftBody)} B, stored at the limit of ${o.maxDraftBytes} B (one byte more is a 413)`);

    const measurePage = (warmup: number) => measure({ url: pageUrl, connections: o.connections, duration: o.duration, warmup, appPid: app!.pid });
    log(`forms-abuse drafts: GET /f/{public_id} alone, ${o.warmup}s warm-up + ${o.duration}s at ${o.connections} connections`);
    const alone = await measurePage(o.warmup);

    log(`forms-abuse drafts: the same while ${o.putClients} clients PUT the draft in a loop`);
    let putting = true;
    const putStatuses: number[] = [];
    const putLatencies = new LatencySamples();
    const putLoop = async () => {
      while (putting) {
        const sent = performance.now();
        const response = await putDraft(draftBody);
        await response.arrayBuffer();
        putLatencies.add(performance.now() - sent);
        putStatuses.push(response.status);
      }
    };
    const loops = Array.from({ length: o.putClients }, putLoop);
    const loaded = await measurePage(0).finally(() => (putting = false));
    await Promise.all(loops);

    const pick = (m: typeof alone) => ({
      req_per_s: m.req_per_s,
      latency_p50_ms: m.latency_p50_ms,
      latency_p95_ms: m.latency_p95_ms,
      latency_p99_ms: m.latency_p99_ms,
      latency_max_ms: m.latency_max_ms,
      status_counts: m.status_counts,
      errors: m.errors,
      app_cpu_us_per_request: m.app_cpu_us_per_request,
      other_cpu_pct: m.other_cpu_pct,
    });
    const put = putLatencies.summary();
    emit({
      bench: 'forms-abuse',
      phase: 'drafts',
      route: 'GET /f/{public_id}',
      connections: o.connections,
      duration_s: o.duration,
      alone: pick(alone),
      loaded: pick(loaded),
      p95_loaded_to_alone: round(loaded.latency_p95_ms / alone.latency_p95_ms, 2),
      draft_put: {
        clients: o.putClients,
        body_bytes: Buffer.byteLength(draftBody),
        stored_bytes: o.maxDraftBytes,
        max_draft_bytes: o.maxDraftBytes,
        status_counts: countBy(putStatuses),
        latency_p50_ms: put.p50,
        latency_p95_ms: put.p95,
      },
      server_rss_mb: processRssMb(app.pid),
    });
  } finally {
    await app?.stop();
  }
}

function countBy(statuses: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    phase: { type: 'string' },
    uploads: { type: 'string' },
    'upload-mib': { type: 'string' },
    'settle-seconds': { type: 'string' },
    'put-clients': { type: 'string' },
    'max-draft-bytes': { type: 'string' },
    connections: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    'database-url': { type: 'string' },
    'keep-db': { type: 'boolean' },
  });
  const phase = choiceOption(o.phase, 'phase', 'all', PHASES);
  const uploads = {
    uploads: intOption(o.uploads, 'uploads', 8, 1, 64),
    uploadMib: intOption(o['upload-mib'], 'upload-mib', 25, 1, 25),
    settleSeconds: intOption(o['settle-seconds'], 'settle-seconds', 20, 0, 600),
  };
  const drafts = {
    putClients: intOption(o['put-clients'], 'put-clients', 3, 1, 64),
    maxDraftBytes: intOption(o['max-draft-bytes'], 'max-draft-bytes', DEFAULT_MAX_DRAFT_BYTES, 16 * 1024, 1024 * 1024),
    connections: intOption(o.connections, 'connections', 8, 1, 1000),
    duration: intOption(o.duration, 'duration', 8, 1, 600),
    warmup: intOption(o.warmup, 'warmup', 2, 0, 600),
  };

  const database = await openBenchDatabase('forms-abuse', { name: DATABASE, service: 'forms', givenUrl: o['database-url'], keep: o['keep-db'] });
  try {
    const account = await createFormsAccount(database.url, `abuse-${Date.now().toString(36)}-${process.pid}@bench.example`);
    if (phase !== 'drafts') await uploadsPhase(database.url, account, uploads);
    if (phase !== 'uploads') await draftsPhase(database.url, account, drafts);
  } finally {
    await database.release();
  }
}

export const formsAbuseBenchmark: Benchmark = {
  name: 'forms-abuse',
  summary: 'forms-api RSS under parallel 25 MiB public uploads; hosted-page p50/p95/p99 alone and under a max-size draft PUT loop',
  usage: USAGE,
  run,
};
