import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@shared/testing';
import { Benchmark, emit, HTTP_LOAD_OPTIONS, httpLoadOption, log, parseOptions, round } from './cli';
import { CPU_PROFILE_OPTIONS, cpuProfileIntervalOption, reportProfile } from './cpu-profile';
import { openBenchDatabase, REPO_ROOT } from './databases';
import {
  BENCH_FORM_FIELD_COUNT,
  BENCH_FORM_LABELS,
  BENCH_FORM_STEP_COUNT,
  BENCH_FORM_TITLE,
  createFormsAccount,
  createPublishedBenchForm,
  startFormsApi,
} from './forms-fixtures';
import { measure, warnOnFailures } from './measure';
import { processRssMb, RunningApp, startApp } from './server';

const DATABASE = 'pl_bench_forms_hosted_page';
const GOAL_REQ_PER_S = 10_000;

const USAGE = `forms-hosted-page [--connections 32] [--duration 10] [--warmup 3] [--database-url URL] [--keep-db]
       [--cpu-prof-dir DIR] [--cpu-prof-interval-us 250]
  GET /f/{public_id}, the hosted page of a published form (3 steps, 10 fields), against the built
  forms-api (child process, NODE_ENV=production, LOG_LEVEL=silent, RATE_LIMIT_REQUESTS=0). The account is
  created with AccountsService, the form through the API. Before the load, the page must answer 200 HTML
  holding the title and every field label, and its script must answer 200. Then the same load against a bare
  Fastify server answering the same bytes and headers (bench/dist/forms-hosted-page-bare-server.js), in the same run.
  --database-url  a migrated forms database (default: ${DATABASE}, created, migrated and dropped
                  afterwards unless --keep-db); each run uses an account of its own
  --cpu-prof-dir  profile the app during the measured phase and print where the time went`;

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    ...HTTP_LOAD_OPTIONS,
    'database-url': { type: 'string' },
    'keep-db': { type: 'boolean' },
    ...CPU_PROFILE_OPTIONS,
  });
  const { connections, duration, warmup } = httpLoadOption(o);
  const intervalUs = cpuProfileIntervalOption(o);

  const database = await openBenchDatabase('forms-hosted-page', { name: DATABASE, service: 'forms', givenUrl: o['database-url'], keep: o['keep-db'] });
  let app: RunningApp | undefined;
  let bare: RunningApp | undefined;
  const pageDir = mkdtempSync(path.join(tmpdir(), 'postline-bench-page-'));
  try {
    const account = await createFormsAccount(database.url, `hosted-page-${Date.now().toString(36)}-${process.pid}@bench.example`);
    log(`forms-hosted-page: account ${account.owner_id}, workspace ${account.workspace_id}`);

    const started = await startFormsApi(
      database.url,
      o['cpu-prof-dir'] ? { dir: o['cpu-prof-dir'], name: `forms-hosted-page-${Date.now()}`, intervalUs } : undefined,
    );
    app = started.app;
    const profile = started.profile;
    const baseUrl = app.baseUrl;

    const form = await createPublishedBenchForm(baseUrl, account.api_key);
    const pagePath = `/f/${form.public_id}`;

    // The page by hand first: a 404 or an error page would otherwise be measured as a fast "page".
    const probe = await fetch(`${baseUrl}${pagePath}`);
    const html = await probe.text();
    if (probe.status !== 200) throw new Error(`GET ${pagePath} answered ${probe.status}, not 200: ${html.slice(0, 300)}`);
    if (!/^text\/html/.test(probe.headers.get('content-type') ?? ''))
      throw new Error(`GET ${pagePath} is not HTML (content-type ${probe.headers.get('content-type')})`);
    const missing = [BENCH_FORM_TITLE, ...BENCH_FORM_LABELS].filter((text) => !html.includes(text));
    if (missing.length) throw new Error(`GET ${pagePath} lacks ${missing.map((m) => `"${m}"`).join(', ')}: ${html.slice(0, 300)}`);
    const scriptPath = /<script[^>]+src="(\/f\/assets\/form\.[0-9a-f]+\.js)"/.exec(html)?.[1];
    if (!scriptPath) throw new Error(`GET ${pagePath} references no /f/assets/form.<hash>.js script`);
    const script = await fetch(`${baseUrl}${scriptPath}`);
    const scriptBytes = (await script.arrayBuffer()).byteLength;
    if (script.status !== 200) throw new Error(`GET ${scriptPath} answered ${script.status}`);
    const pageBytes = Buffer.byteLength(html);
    const pageFile = path.join(pageDir, 'page.json');
    const headers: Record<string, string> = {};
    probe.headers.forEach((value, name) => (headers[name] = value));
    writeFileSync(pageFile, JSON.stringify({ headers, body: html }));
    bare = await startApp(path.join(REPO_ROOT, 'bench/dist/forms-hosted-page-bare-server.js'), { port: await freePort(), env: { PAGE_FILE: pageFile } });
    const bareProbe = await fetch(`${bare.baseUrl}${pagePath}`);
    if (bareProbe.status !== 200 || (await bareProbe.text()) !== html) throw new Error(`the bare server answered ${bareProbe.status}, not the page`);
    log(
      `forms-hosted-page: ${pagePath} is ${pageBytes.toLocaleString('en-US')} B of HTML (all ${BENCH_FORM_FIELD_COUNT} labels present), ${scriptPath} ${scriptBytes.toLocaleString('en-US')} B`,
    );

    log(`forms-hosted-page: GET ${pagePath}: ${warmup}s warm-up + ${duration}s at ${connections} connections`);
    let measuredBytes = 0;
    let measuredAnswers = 0;
    const result = await measure({
      url: `${baseUrl}${pagePath}`,
      connections,
      duration,
      warmup,
      appPid: app.pid,
      databaseUrl: database.url,
      beforeMeasure: () => profile?.start(),
      onResponse: (_status, measured, bytes) => {
        if (!measured) return;
        measuredBytes += bytes;
        measuredAnswers++;
      },
    });
    const profileFile = await profile?.stop();
    log(`forms-hosted-page: the bare server, GET ${pagePath}: ${warmup}s warm-up + ${duration}s at ${connections} connections`);
    const baseline = await measure({ url: `${bare.baseUrl}${pagePath}`, connections, duration, warmup, appPid: bare.pid });
    const responseBytes = measuredAnswers ? Math.round(measuredBytes / measuredAnswers) : 0;
    emit({
      bench: 'forms-hosted-page',
      route: 'GET /f/{public_id}',
      form: { steps: BENCH_FORM_STEP_COUNT, fields: BENCH_FORM_FIELD_COUNT },
      connections,
      duration_s: duration,
      ...result,
      page_bytes: pageBytes,
      response_bytes: responseBytes,
      throughput_mb_per_s: round(measuredBytes / 1e6 / duration, 1),
      script_bytes: scriptBytes,
      bare_req_per_s: baseline.req_per_s,
      app_vs_bare: round(result.req_per_s / baseline.req_per_s, 3),
      [`goal_at_least_${GOAL_REQ_PER_S}_req_per_s`]: result.req_per_s >= GOAL_REQ_PER_S && result.non_2xx === 0,
      server_rss_mb: processRssMb(app.pid),
      ...(profileFile ? { cpu_profile: profileFile } : {}),
    });
    warnOnFailures('forms-hosted-page', result);
    if (profileFile) reportProfile('forms-hosted-page', 'forms-api GET /f/{public_id}', profileFile);
  } finally {
    await app?.stop();
    await bare?.stop();
    rmSync(pageDir, { recursive: true, force: true });
    await database.release();
  }
}

export const formsHostedPageBenchmark: Benchmark = {
  name: 'forms-hosted-page',
  summary: 'GET /f/{public_id}, the hosted page of a published 10-field, 3-step form, vs a bare server with the same bytes; req/s, p50/p99, app CPU, RSS',
  usage: USAGE,
  run,
};
