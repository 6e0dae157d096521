import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { CursorCodec, cursorFor } from '@shared/pagination';
import { freePort } from '@shared/testing';
import { createWorkspaceWithKey } from './access';
import { Benchmark, emit, HTTP_LOAD_OPTIONS, httpLoadOption, intOption, log, parseOptions, rateLimitRequestsOption, round, UsageError } from './cli';
import { CPU_PROFILE_OPTIONS, cpuProfileIntervalOption, profiled, ProfileSwitch, reportProfile } from './cpu-profile';
import { openBenchDatabase, REPO_ROOT, withClient } from './databases';
import { callApi, issueApiKey } from './fixtures';
import { measure, Measurement, median, warmUp } from './measure';
import { seedSubscribers } from './seed';
import { appEntry, processRssMb, RunningApp, startApp } from './server';

const DATABASE = 'pl_bench_subscribers_list';
const WORKSPACE_NAME = 'Bench subscribers-list';

const USAGE = `subscribers-list [--count 1000000] [--page 5000] [--limit 100] [--connections 32] [--duration 10] [--warmup 3]
       [--rounds 1] [--prewarm 10] [--targets app,bare] [--database-url URL --workspace wsp_...] [--keep-db]
       [--cpu-prof-dir DIR] [--cpu-prof-interval-us 250] [--rate-limit-requests 0]
  GET /v1/subscribers?limit=<limit> (page 1) and the same with starting_after = the cursor of row
  page×limit in newest-first order (next_cursor of page <page>), on a workspace of <count> seeded
  subscribers, against the built email-api and against a bare Fastify server running the same
  statement through the same Prisma client (both child processes, same CURSOR_SECRET).
  --count         subscribers in the workspace (seeded with the seed generator; default 1,000,000)
  --database-url  a migrated email database; with --workspace, a workspace already holding the rows
                  (default: ${DATABASE}, created, seeded and dropped afterwards unless --keep-db; a kept
                  one is reused by the next run)
  --rounds        repeat the four measurements, interleaved (page 1 first in odd rounds, the deep page
                  first in even ones), and summarize with medians
  --prewarm       seconds of unmeasured load per server and request before the first round (default 10;
                  a fresh server needs more than one --warmup to reach steady state)
  --targets       app, bare or both (default app,bare)
  --rate-limit-requests  the app's RATE_LIMIT_REQUESTS (default 0: limit off; e.g. 10000000 keeps the
                  limit's Redis round trip without ever refusing); the bare server has no limit
  --cpu-prof-dir  profile each measured phase of each server (sampling profiler switched on after the
                  warm-up), keep the .cpuprofile files there and print where the time went`;

interface Target {
  key: 'app' | 'bare';
  label: string;
  server: RunningApp;
  profile?: ProfileSwitch;
}

/** Finds (or creates and seeds) the workspace; tops it up to `count` rows if a kept one holds fewer. */
async function prepareWorkspace(url: string, count: number, workspace: string | undefined): Promise<{ workspaceId: string; apiKey: string }> {
  const rowsOf = (workspaceId: string) =>
    withClient(url, async (c) =>
      Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM subscribers WHERE workspace_id = $1', [workspaceId])).rows[0].n),
    );
  let workspaceId = workspace;
  if (!workspaceId) {
    workspaceId = await withClient(url, async (c) => {
      const { rows } = await c.query<{ id: string }>('SELECT id FROM workspaces WHERE name = $1 ORDER BY created_at LIMIT 1', [WORKSPACE_NAME]);
      return rows[0]?.id;
    });
  }
  let apiKey: string;
  if (workspaceId) {
    apiKey = (await issueApiKey(url, workspaceId, ['subscribers:read'], 'Bench subscribers-list')).api_key;
  } else {
    const created = await createWorkspaceWithKey(url, WORKSPACE_NAME);
    workspaceId = created.workspace_id;
    apiKey = created.api_key;
    log(`subscribers-list: created workspace ${workspaceId}`);
  }
  const existing = await rowsOf(workspaceId);
  if (existing < count) {
    log(`subscribers-list: ${workspaceId} holds ${existing.toLocaleString('en-US')} subscribers; seeding ${(count - existing).toLocaleString('en-US')}`);
    const seeded = await seedSubscribers({ url, workspaceId, count: count - existing, years: 5, seed: 42, batchRows: 2000, indexMode: 'auto', fkMode: 'auto' });
    log(`subscribers-list: seeded in ${seeded.total_seconds}s (${seeded.indexes} indexes, fk check ${seeded.fk_check})`);
  } else {
    log(`subscribers-list: reusing ${workspaceId} with ${existing.toLocaleString('en-US')} subscribers`);
  }
  return { workspaceId, apiKey };
}

/** Ids of `limit` rows from `offset` in newest-first order, straight from SQL. */
async function idsAt(client: Client, workspaceId: string, offset: number, limit: number): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    'SELECT id FROM subscribers WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3',
    [workspaceId, offset, limit],
  );
  return rows.map((r) => r.id);
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    count: { type: 'string' },
    page: { type: 'string' },
    limit: { type: 'string' },
    ...HTTP_LOAD_OPTIONS,
    rounds: { type: 'string' },
    prewarm: { type: 'string' },
    targets: { type: 'string' },
    'database-url': { type: 'string' },
    workspace: { type: 'string' },
    'keep-db': { type: 'boolean' },
    ...CPU_PROFILE_OPTIONS,
    'rate-limit-requests': { type: 'string' },
  });
  const rateLimitRequests = rateLimitRequestsOption(o['rate-limit-requests']);
  const count = intOption(o.count, 'count', 1_000_000, 1, 100_000_000);
  const limit = intOption(o.limit, 'limit', 100, 1, 100);
  const pageNumber = intOption(o.page, 'page', 5000, 2);
  const { connections, duration, warmup } = httpLoadOption(o);
  const rounds = intOption(o.rounds, 'rounds', 1, 1, 20);
  const intervalUs = cpuProfileIntervalOption(o);
  const targetKeys = (o.targets ?? 'app,bare').split(',').map((t) => t.trim());
  if (!targetKeys.length || targetKeys.some((t) => t !== 'app' && t !== 'bare')) throw new UsageError('--targets must list app and/or bare');
  if (o.workspace && !o['database-url']) throw new UsageError('--workspace needs --database-url');
  const row = pageNumber * limit; // the cursor's row, 1-based, newest first
  if (row >= count) throw new UsageError(`--page ${pageNumber} × --limit ${limit} must be below --count ${count}`);

  const database = await openBenchDatabase('subscribers-list', { name: DATABASE, givenUrl: o['database-url'], keep: o['keep-db'] });
  const targets: Target[] = [];
  try {
    const { workspaceId, apiKey } = await prepareWorkspace(database.url, count, o.workspace);
    const secret = randomBytes(32).toString('base64url');
    const scope = `${workspaceId}:subscribers`;

    // The cursor of row `row` (what next_cursor of page `pageNumber` is), computed in SQL and encoded
    // with the app's own codec and secret; and the rows each request must answer with.
    const expected = await withClient(database.url, async (client) => {
      const { rows } = await client.query<{ id: string; created_at: Date }>(
        'SELECT id, created_at FROM subscribers WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1',
        [workspaceId, row - 1],
      );
      return {
        cursor: cursorFor(new CursorCodec(secret), scope, rows[0]),
        cursorRow: rows[0],
        first: await idsAt(client, workspaceId, 0, limit),
        after: await idsAt(client, workspaceId, row, limit),
      };
    });
    log(`subscribers-list: row ${row.toLocaleString('en-US')} newest-first is ${expected.cursorRow.id} (${expected.cursorRow.created_at.toISOString()})`);

    const requests = [
      { key: 'page 1', path: `/v1/subscribers?limit=${limit}`, ids: expected.first },
      {
        key: `after page ${pageNumber}`,
        path: `/v1/subscribers?limit=${limit}&starting_after=${encodeURIComponent(expected.cursor)}`,
        ids: expected.after,
      },
    ];

    const profileDir = o['cpu-prof-dir'];
    const start = async (key: Target['key']): Promise<Target> => {
      const target = key === 'app' ? appEntry('email-api') : path.join(REPO_ROOT, 'bench/dist/bare-subscribers-server.js');
      const label = key === 'app' ? 'email-api' : 'bare-fastify';
      const wrap = profileDir ? profiled(target, profileDir, `subscribers-list-${label}-${Date.now()}`, intervalUs) : undefined;
      const server = await startApp(wrap?.entry ?? target, {
        port: await freePort(),
        env: {
          EMAIL_DATABASE_URL: database.url,
          CURSOR_SECRET: secret,
          RATE_LIMIT_REQUESTS: String(rateLimitRequests),
          LOG_LEVEL: 'silent',
          ...(key === 'bare' ? { BENCH_WORKSPACE_ID: workspaceId } : {}),
          ...(wrap?.env ?? {}),
        },
      });
      log(`subscribers-list: ${label} is pid ${server.pid} at ${server.baseUrl}${wrap ? ' (under the profiler wrapper)' : ''}`);
      return { key, label, server, profile: wrap ? new ProfileSwitch(server.pid, wrap.out) : undefined };
    };
    for (const key of targetKeys as Target['key'][]) targets.push(await start(key));

    // Both servers must answer exactly the rows SQL says, and the same JSON as each other.
    const bodies = new Map<string, string>();
    for (const target of targets) {
      for (const request of requests) {
        const { body, text } = await callApi<{ data: Array<{ id: string }>; pagination: { has_more: boolean; next_cursor: string | null } }>(
          target.server.baseUrl,
          'GET',
          request.path,
          { key: target.key === 'app' ? apiKey : undefined, expect: 200 },
        );
        const ids = body.data.map((s) => s.id);
        if (JSON.stringify(ids) !== JSON.stringify(request.ids)) {
          throw new Error(
            `${target.label} ${request.key}: answered ${ids.length} rows from ${ids[0]} to ${ids.at(-1)}, expected ${request.ids[0]} to ${request.ids.at(-1)}`,
          );
        }
        if (!body.pagination.has_more || !body.pagination.next_cursor) throw new Error(`${target.label} ${request.key}: has_more should be true`);
        const other = bodies.get(request.key);
        if (other !== undefined && other !== text) throw new Error(`${request.key}: email-api and the bare server answered different JSON`);
        bodies.set(request.key, text);
      }
    }
    log(
      `subscribers-list: checked: both requests answer the expected ${limit} rows${targets.length > 1 ? ', and both servers the same JSON' : ''} ` +
        `(${Math.round((bodies.get('page 1') ?? '').length / 1024)} KB per answer)`,
    );

    // A fresh server is slower for longer than one warm-up: without this, whichever request is measured
    // first came out 10-30% slower than the other on both servers. Each server gets both requests once.
    const prewarm = intOption(o.prewarm, 'prewarm', 10, 0, 600);
    for (const target of targets) {
      for (const request of requests) {
        log(`subscribers-list: pre-warming ${target.label} with ${request.key} for ${prewarm}s`);
        await warmUp({
          url: `${target.server.baseUrl}${request.path}`,
          headers: target.key === 'app' ? { authorization: `Bearer ${apiKey}` } : {},
          connections,
          seconds: prewarm,
        });
      }
    }

    const results: Array<{ target: Target['key']; request: string; result: Measurement }> = [];
    for (let round_ = 1; round_ <= rounds; round_++) {
      // Odd rounds start with page 1, even rounds with the deep page: neither always gets the colder app.
      for (const request of round_ % 2 ? requests : [...requests].reverse()) {
        for (const target of targets) {
          log(`subscribers-list: round ${round_}/${rounds}: ${target.label} ${request.key}: ${warmup}s warm-up + ${duration}s at ${connections} connections`);
          const result = await measure({
            url: `${target.server.baseUrl}${request.path}`,
            headers: target.key === 'app' ? { authorization: `Bearer ${apiKey}` } : {},
            connections,
            duration,
            warmup,
            appPid: target.server.pid,
            databaseUrl: database.url,
            beforeMeasure: () => target.profile?.start(),
          });
          const profileFile = await target.profile?.stop();
          results.push({ target: target.key, request: request.key, result });
          emit({
            bench: 'subscribers-list',
            target: target.label,
            request: request.key,
            path: request.path.replace(/starting_after=[^&]+/, 'starting_after=…'),
            rows: count,
            rate_limit_requests: target.key === 'app' ? rateLimitRequests : null,
            round: round_,
            connections,
            duration_s: duration,
            ...result,
            server_rss_mb: processRssMb(target.server.pid),
            ...(profileFile ? { cpu_profile: profileFile } : {}),
          });
          if (result.non_2xx || result.errors) log(`subscribers-list: WARNING ${result.non_2xx} non-2xx answers, ${result.errors} errors`);
          if (profileFile) reportProfile('subscribers-list', `${target.label} ${request.key}`, profileFile, { round: round_ });
        }
      }
    }

    const med = (target: Target['key'], request: string, field: 'req_per_s' | 'latency_p50_ms' | 'latency_p99_ms') => {
      const values = results.filter((r) => r.target === target && r.request === request).map((r) => r.result[field]);
      return values.length ? round(median(values), 3) : undefined;
    };
    const [first, deep] = requests.map((r) => r.key);
    const ratio = (a?: number, b?: number) => (a !== undefined && b ? round(a / b, 3) : undefined);
    const summary: Record<string, unknown> = {
      bench: 'subscribers-list',
      summary: `medians of ${rounds} round(s)`,
      rows: count,
      connections,
      rate_limit_requests: rateLimitRequests,
    };
    for (const target of targets) {
      const name = target.key;
      summary[`${name}_page1_req_per_s`] = med(name, first, 'req_per_s');
      summary[`${name}_page1_p50_ms`] = med(name, first, 'latency_p50_ms');
      summary[`${name}_page1_p99_ms`] = med(name, first, 'latency_p99_ms');
      summary[`${name}_deep_req_per_s`] = med(name, deep, 'req_per_s');
      summary[`${name}_deep_p50_ms`] = med(name, deep, 'latency_p50_ms');
      summary[`${name}_deep_p99_ms`] = med(name, deep, 'latency_p99_ms');
      summary[`${name}_deep_vs_page1`] = ratio(med(name, deep, 'req_per_s'), med(name, first, 'req_per_s'));
    }
    summary.deep_request = deep;
    if (targets.some((t) => t.key === 'app')) summary.goal_deep_within_20pct = Math.abs(1 - (summary.app_deep_vs_page1 as number)) <= 0.2;
    if (targets.length === 2) {
      summary.app_vs_bare_page1 = ratio(med('app', first, 'req_per_s'), med('bare', first, 'req_per_s'));
      summary.app_vs_bare_deep = ratio(med('app', deep, 'req_per_s'), med('bare', deep, 'req_per_s'));
      summary.goal_app_vs_bare_at_least_0_5 = (summary.app_vs_bare_page1 as number) >= 0.5 && (summary.app_vs_bare_deep as number) >= 0.5;
    }
    emit(summary);
  } finally {
    for (const target of targets.reverse()) await target.server.stop();
    await database.release();
  }
}

export const subscribersListBenchmark: Benchmark = {
  name: 'subscribers-list',
  summary: 'GET /v1/subscribers page 1 vs page 5,000 on 1M subscribers, email-api vs a bare Fastify server; req/s, p50/p99',
  usage: USAGE,
  run,
};
