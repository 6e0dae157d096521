import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { clickPath, openPixelPath, TrackingTokens } from '@email/delivery';
import { trustedWorkspaceId } from '@shared/core';
import { freePort } from '@shared/testing';
import { createWorkspaceWithKey } from './access';
import { Benchmark, emit, HTTP_LOAD_OPTIONS, httpLoadOption, intOption, log, parseOptions, round } from './cli';
import { profiled, ProfileSwitch, reportProfile } from './cpu-profile';
import { openBenchDatabase, REPO_ROOT, withClient } from './databases';
import { GeneratedRequest, measure, Measurement, median } from './measure';
import { appEntry, RunningApp, startApp } from './server';

const DATABASE = 'pl_bench_email_tracking';
const GOAL_REQ_PER_S = 5000;
const SOURCE = { type: 'broadcast', id: 'brd_bench_tracking' };
const LINK = 'https://example.com/landing/spring-sale?utm_source=newsletter&utm_medium=email&utm_campaign=weekly';
const USER_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

const USAGE = `email-tracking [--subscribers 20000] [--connections 256] [--duration 10] [--warmup 3] [--rounds 1]
       [--database-url URL] [--keep-db] [--cpu-prof-dir DIR]
  The open pixel (GET /o/{token}) and the click redirect (GET /c/{token}/{signature}?u=...) of the built email-api,
  every answer a recorded event (the event's transaction commits before the 200 or 302 is sent), against a bare
  Fastify server answering the same bytes with no signature check and no database, in the same run. Each request is
  for the next of --subscribers subscribers (pre-signed links, CURSOR_SECRET shared with the app). After the load the
  events in email_events are counted against the acknowledged answers. Goal: at least ${GOAL_REQ_PER_S} req/s each.
  --database-url  a migrated email database (default: ${DATABASE}, created, migrated and dropped afterwards unless
                  --keep-db); each run uses a workspace of its own
  --cpu-prof-dir  profile the app during each measured phase and print where its time went`;

type Route = 'open' | 'click';
interface Target {
  key: 'app' | 'bare';
  server: RunningApp;
  profile?: ProfileSwitch;
}

/** The status that means "recorded" for each route. */
const ACK: Record<Route, number> = { open: 200, click: 302 };

async function createSubscribers(url: string, workspaceId: string, count: number): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO subscribers (id, workspace_id, email, updated_at)
       SELECT 'sub_bt' || lpad(i::text, 8, '0') || '_' || $3, $1, 'tracking' || i || '@bench.example', now() FROM generate_series(1, $2) AS i
       RETURNING id`,
      [workspaceId, count, workspaceId.slice(-10)],
    );
    return rows.map((row) => row.id);
  });
}

async function countEvents(url: string, workspaceId: string): Promise<Record<Route, number>> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ type: string; n: number }>(
      `SELECT type::text, count(*)::int AS n FROM email_events WHERE workspace_id = $1 AND type IN ('opened', 'clicked') GROUP BY type`,
      [workspaceId],
    );
    const of = (type: string) => rows.find((row) => row.type === type)?.n ?? 0;
    return { open: of('opened'), click: of('clicked') };
  });
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    subscribers: { type: 'string' },
    ...HTTP_LOAD_OPTIONS,
    rounds: { type: 'string' },
    'database-url': { type: 'string' },
    'keep-db': { type: 'boolean' },
    'cpu-prof-dir': { type: 'string' },
  });
  const subscriberCount = intOption(o.subscribers, 'subscribers', 20_000, 1, 1_000_000);
  const { connections, duration, warmup } = httpLoadOption(o, 256);
  const rounds = intOption(o.rounds, 'rounds', 1, 1, 20);

  const database = await openBenchDatabase('email-tracking', { name: DATABASE, givenUrl: o['database-url'], keep: o['keep-db'] });
  const targets: Target[] = [];
  try {
    const { workspace_id } = await createWorkspaceWithKey(database.url, `Bench tracking ${Date.now().toString(36)}`);
    const workspaceId = trustedWorkspaceId(workspace_id);
    const subscribers = await createSubscribers(database.url, workspaceId, subscriberCount);
    const secret = randomBytes(24).toString('base64url');
    const tokens = new TrackingTokens(secret);
    const now = new Date();
    const signature = tokens.linkSignature({ workspaceId, source: SOURCE }, LINK);
    const paths: Record<Route, string[]> = { open: [], click: [] };
    for (const subscriberId of subscribers) {
      const token = tokens.sign({ workspaceId, subscriberId, source: SOURCE }, now);
      paths.open.push(openPixelPath(token));
      paths.click.push(clickPath(token, signature, LINK));
    }
    log(
      `email-tracking: workspace ${workspaceId}, ${subscriberCount} subscribers; token ${paths.open[0].length - 3} chars, click path ${paths.click[0].length} chars`,
    );

    for (const key of ['app', 'bare'] as const) {
      const entry = key === 'app' ? appEntry('email-api') : path.join(REPO_ROOT, 'bench/dist/email-tracking-bare-server.js');
      const wrap = key === 'app' && o['cpu-prof-dir'] ? profiled(entry, o['cpu-prof-dir'], `email-tracking-${Date.now()}`, 250) : undefined;
      const server = await startApp(wrap?.entry ?? entry, {
        port: await freePort(),
        env: { EMAIL_DATABASE_URL: database.url, CURSOR_SECRET: secret, ...wrap?.env },
      });
      targets.push({ key, server, profile: wrap ? new ProfileSwitch(server.pid, wrap.out) : undefined });
    }
    // Both servers answer the first link exactly, before any load: a 404 page or an error would otherwise be measured.
    for (const { key, server } of targets) {
      const open = await fetch(`${server.baseUrl}${paths.open[0]}`);
      const gif = Buffer.from(await open.arrayBuffer());
      if (open.status !== 200 || open.headers.get('content-type') !== 'image/gif' || gif.length !== 43)
        throw new Error(`${key}: the pixel answered ${open.status}`);
      const click = await fetch(`${server.baseUrl}${paths.click[0]}`, { redirect: 'manual' });
      if (click.status !== 302 || click.headers.get('location') !== LINK)
        throw new Error(`${key}: the click answered ${click.status} ${click.headers.get('location')}`);
    }
    const before = await countEvents(database.url, workspaceId);
    const acknowledged: Record<Route, number> = { open: 0, click: 0 };

    const results: Record<string, Measurement[]> = {};
    for (let r = 0; r < rounds; r++) {
      for (const route of ['open', 'click'] as const) {
        for (const { key, server, profile } of targets) {
          let sent = 0;
          const requests: GeneratedRequest[] = [
            { method: 'GET', headers: { 'user-agent': USER_AGENT }, setupRequest: (request) => ({ ...request, path: paths[route][sent++ % subscriberCount] }) },
          ];
          log(`email-tracking: ${key} ${route}: ${warmup}s warm-up + ${duration}s at ${connections} connections`);
          const result = await measure({
            url: server.baseUrl,
            requests,
            connections,
            duration,
            warmup,
            appPid: server.pid,
            databaseUrl: key === 'app' ? database.url : undefined,
            beforeMeasure: () => profile?.start(),
            onResponse: (status) => {
              if (key === 'app' && status === ACK[route]) acknowledged[route]++;
            },
          });
          const profileFile = await profile?.stop();
          if (profileFile) reportProfile('email-tracking', `email-api ${route}`, profileFile, { round: r + 1 });
          (results[`${key}:${route}`] ??= []).push(result);
          emit({ bench: 'email-tracking', round: r + 1, target: key, route, connections, duration_s: duration, ...result });
        }
      }
    }

    // Answers cut off by the end of a run may still commit: the stored events can only be more than the acknowledged.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await countEvents(database.url, workspaceId);
    const recorded = { open: after.open - before.open, click: after.click - before.click };
    const rps = (key: string, route: Route) => median((results[`${key}:${route}`] ?? []).map((m) => m.req_per_s));
    const summary = (route: Route) => ({
      app_req_per_s: rps('app', route),
      bare_req_per_s: rps('bare', route),
      app_vs_bare: round(rps('app', route) / rps('bare', route), 3),
      app_p50_ms: median(results[`app:${route}`].map((m) => m.latency_p50_ms)),
      app_p99_ms: median(results[`app:${route}`].map((m) => m.latency_p99_ms)),
      acknowledged: acknowledged[route],
      events_recorded: recorded[route],
      every_acknowledged_recorded: recorded[route] >= acknowledged[route],
      [`goal_at_least_${GOAL_REQ_PER_S}_req_per_s`]: rps('app', route) >= GOAL_REQ_PER_S,
    });
    emit({ bench: 'email-tracking', summary: true, rounds, connections, subscribers: subscriberCount, open: summary('open'), click: summary('click') });
  } finally {
    for (const { server } of targets) await server.stop();
    await database.release();
  }
}

export const emailTrackingBenchmark: Benchmark = {
  name: 'email-tracking',
  summary: 'open pixel and click redirect of email-api (each answer a committed event) vs a bare Fastify server; goal ≥ 5,000 req/s each',
  usage: USAGE,
  run,
};
