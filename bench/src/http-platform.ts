import { freePort } from '@shared/testing';
import { createWorkspaceWithKey } from './access';
import { Benchmark, emit, HTTP_LOAD_OPTIONS, httpLoadOption, intOption, log, parseOptions, round, UsageError } from './cli';
import { BENCH_DATABASE, openBenchDatabase } from './databases';
import { LoadResult, runLoad } from './load';
import { appEntry, processCpuSeconds, processRssMb, RunningApp, startApp } from './server';

interface Route {
  key: string;
  method: 'GET';
  path: string;
  auth: boolean;
  what: string;
}

const ROUTES: Route[] = [
  { key: 'healthz', method: 'GET', path: '/healthz', auth: false, what: 'public, no database: the Nest/Fastify floor' },
  { key: 'v1', method: 'GET', path: '/v1', auth: false, what: 'public API metadata, built once at boot' },
  { key: 'workspace', method: 'GET', path: '/v1/workspace', auth: true, what: 'bearer key + scope check + one Prisma query' },
];

const USAGE = `http-platform [--database-url URL] [--connections 32] [--duration 10] [--warmup 3]
       [--routes ${ROUTES.map((r) => r.key).join(',')}] [--auth-cache-ttl-ms N] [--keep-db]
  Boots the built email-api (child process, free port, LOG_LEVEL=silent, NODE_ENV=production) and
  load-tests each route with autocannon: ${ROUTES.map((r) => `${r.key} = ${r.method} ${r.path}`).join(', ')}.
  --database-url       a migrated email database (default: ${BENCH_DATABASE}; created, migrated and, if this
                       run created it, dropped afterwards unless --keep-db)
  --auth-cache-ttl-ms  passed to the app as AUTH_CACHE_TTL_MS (0 = verify the key in the database on every request)`;

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    'database-url': { type: 'string' },
    ...HTTP_LOAD_OPTIONS,
    routes: { type: 'string' },
    'auth-cache-ttl-ms': { type: 'string' },
    'keep-db': { type: 'boolean' },
  });
  const { connections, duration, warmup } = httpLoadOption(o);
  const keys = (o.routes ?? ROUTES.map((r) => r.key).join(','))
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const routes = keys.map((key) => {
    const route = ROUTES.find((r) => r.key === key);
    if (!route) throw new UsageError(`unknown route "${key}" (known: ${ROUTES.map((r) => r.key).join(', ')})`);
    return route;
  });
  const authCacheTtlMs = o['auth-cache-ttl-ms'] === undefined ? undefined : intOption(o['auth-cache-ttl-ms'], 'auth-cache-ttl-ms', 0, 0, 60_000);

  const database = await openBenchDatabase('http-platform', { givenUrl: o['database-url'], keep: o['keep-db'] });
  let app: RunningApp | undefined;
  try {
    const { workspace_id: workspaceId, api_key: apiKey } = await createWorkspaceWithKey(database.url, 'Bench http-platform');
    log(`http-platform: workspace ${workspaceId} with an all-scopes key`);
    app = await startApp(appEntry('email-api'), {
      port: await freePort(),
      env: {
        EMAIL_DATABASE_URL: database.url,
        ...(authCacheTtlMs !== undefined ? { AUTH_CACHE_TTL_MS: String(authCacheTtlMs) } : {}),
      },
    });

    const results = new Map<string, LoadResult>();
    for (const route of routes) {
      const url = `${app.baseUrl}${route.path}`;
      const headers: Record<string, string> = route.auth ? { authorization: `Bearer ${apiKey}` } : {};
      // One request first: a broken route must fail loudly, not be measured as fast 4xx/5xx answers.
      const probe = await fetch(url, { headers });
      if (probe.status !== 200) throw new Error(`${route.method} ${route.path} answered ${probe.status}: ${(await probe.text()).slice(0, 500)}`);

      log(`http-platform: ${route.method} ${route.path} (${route.what}): ${warmup}s warm-up + ${duration}s at ${connections} connections`);
      const pid = app.pid;
      const result = await runLoad({ url, headers, connections, duration, warmup, serverCpuSeconds: () => processCpuSeconds(pid) });
      results.set(route.key, result);
      emit({
        bench: 'http-platform',
        route: `${route.method} ${route.path}`,
        auth: route.auth,
        connections,
        duration_s: duration,
        ...result,
        server_rss_mb: processRssMb(pid),
        ...(route.auth && authCacheTtlMs !== undefined ? { auth_cache_ttl_ms: authCacheTtlMs } : {}),
      });
      if (result.non_2xx || result.errors) log(`http-platform: WARNING ${route.path}: ${result.non_2xx} non-2xx answers, ${result.errors} errors`);
    }

    const floor = results.get('healthz');
    const full = results.get('workspace');
    if (floor && full) {
      // At saturation 1/throughput is the cost of one request on the bottleneck: the difference is
      // what bearer auth, the scope check and the Prisma query add to a bare route.
      emit({
        bench: 'http-platform',
        comparison: 'GET /v1/workspace minus GET /healthz',
        req_per_s_ratio: round(full.req_per_s / floor.req_per_s, 3),
        extra_ms_per_request_at_saturation: round(1000 / full.req_per_s - 1000 / floor.req_per_s, 4),
        extra_server_cpu_us_per_request:
          full.server_cpu_us_per_request !== undefined && floor.server_cpu_us_per_request !== undefined
            ? full.server_cpu_us_per_request - floor.server_cpu_us_per_request
            : undefined,
        extra_p50_ms: round(full.latency_p50_ms - floor.latency_p50_ms, 3),
        extra_p99_ms: round(full.latency_p99_ms - floor.latency_p99_ms, 3),
      });
    }
  } finally {
    await app?.stop();
    await database.release();
  }
}

export const httpPlatformBenchmark: Benchmark = {
  name: 'http-platform',
  summary: 'email-api under autocannon: GET /healthz, GET /v1, GET /v1/workspace (auth + DB); req/s, p50/p99',
  usage: USAGE,
  run,
};
