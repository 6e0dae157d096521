import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@shared/testing';
import { createWorkspaceWithKey } from './access';
import { Benchmark, emit, HTTP_LOAD_OPTIONS, httpLoadOption, intOption, log, parseOptions, round } from './cli';
import {
  CPU_PROFILE_OPTIONS,
  cpuProfileIntervalOption,
  describeSummary,
  inclusiveTime,
  profiled,
  ProfileSwitch,
  readProfile,
  summarizeProfile,
} from './cpu-profile';
import { openBenchDatabase } from './databases';
import { issueApiKey } from './fixtures';
import { measure, Measurement, median } from './measure';
import { appEntry, processRssMb, RunningApp, startApp } from './server';

const DATABASE = 'pl_bench_auth_overhead';

interface Phase {
  key: 'healthz' | 'unauthenticated' | 'forbidden' | 'authorized';
  path: string;
  status: number;
  what: string;
}

const PHASES: Phase[] = [
  { key: 'healthz', path: '/healthz', status: 200, what: 'public route, no database: the Nest/Fastify floor' },
  { key: 'unauthenticated', path: '/v1/workspace', status: 401, what: 'no Authorization header: BearerAuthGuard rejects before any auth work' },
  { key: 'forbidden', path: '/v1/workspace', status: 403, what: 'valid cached key without workspace:read: full authentication, then the scope check fails' },
  { key: 'authorized', path: '/v1/workspace', status: 200, what: 'valid cached key with workspace:read: authentication, scope check, one Prisma query' },
];

/**
 * The code that authenticates and authorizes a request, by file. A profile sample counts as auth when
 * any frame of its stack is in one of these (the deepest such frame names the part).
 */
const AUTH_PARTS: Array<[string, (frame: { url: string; functionName: string }) => boolean]> = [
  [
    'key cache (BearerStrategy.validate: SHA-256 of the key, PrincipalCache lookup)',
    (f) => /\/libs\/auth\/dist\/(bearer\.strategy|principal-cache)\.js$/.test(f.url),
  ],
  [
    'last-used recorder (markUsed; a database write at most once a minute)',
    (f) =>
      /\/libs\/auth\/dist\/last-used-recorder\.js$/.test(f.url) ||
      (/\/libs\/email\/access\/dist\/credential-verifier\.js$/.test(f.url) && f.functionName === 'markUsed'),
  ],
  [
    'passport (@nestjs/passport AuthGuard and PassportStrategy, passport, passport-http-bearer)',
    (f) => /\/node_modules\/(@nestjs\/passport|passport|passport-http-bearer|passport-strategy)\//.test(f.url),
  ],
  ['guards (BearerAuthGuard header checks, ScopeGuard, their Reflector lookups)', (f) => /\/libs\/auth\/dist\/guards\.js$/.test(f.url)],
  ["Nest's guard dispatch (GuardsConsumer)", (f) => /\/node_modules\/@nestjs\/core\/guards\//.test(f.url)],
];

const USAGE = `auth-overhead [--connections 32] [--duration 10] [--warmup 3] [--rounds 1] [--skip-profile]
       [--cpu-prof-dir DIR] [--cpu-prof-interval-us 250] [--database-url URL] [--keep-db]
  What bearer authentication plus the scope check cost per request in the built email-api
  (RATE_LIMIT_REQUESTS=0, AUTH_CACHE_TTL_MS default 5 s, so the key is verified from its cache).
  Two measurements:
  1. attribution: a CPU profile of the app over the measured phase of GET /v1/workspace (200) with the
     profiler switched on after the warm-up; the samples whose stack is in the auth code (guards,
     passport, the strategy, the key cache, the last-used recorder, Nest's guard dispatch), divided by
     the answers: CPU µs of auth per request.
  2. bracket: the app's CPU per request (from /proc) and req/s of ${PHASES.map((p) => `${p.key} (${p.status})`).join(', ')}.
     forbidden − unauthenticated is the same rejected request with and without authentication: an
     upper bound, as it also pays for building the longer 403 error.
  --rounds        repeat the four bracket phases, interleaved; the summary uses medians
  --cpu-prof-dir  keep the profiles there (default: a temporary directory, removed afterwards)`;

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    ...HTTP_LOAD_OPTIONS,
    rounds: { type: 'string' },
    'skip-profile': { type: 'boolean' },
    ...CPU_PROFILE_OPTIONS,
    'database-url': { type: 'string' },
    'keep-db': { type: 'boolean' },
  });
  const { connections, duration, warmup } = httpLoadOption(o);
  const rounds = intOption(o.rounds, 'rounds', 1, 1, 20);
  const intervalUs = cpuProfileIntervalOption(o);

  const database = await openBenchDatabase('auth-overhead', { name: DATABASE, givenUrl: o['database-url'], keep: o['keep-db'] });
  const profileDir = o['cpu-prof-dir'] ?? (o['skip-profile'] ? undefined : mkdtempSync(path.join(tmpdir(), 'bench-auth-overhead-')));
  const removeProfiles = !o['cpu-prof-dir'] && profileDir !== undefined;
  let app: RunningApp | undefined;
  try {
    const { workspace_id: workspaceId, api_key: allScopes } = await createWorkspaceWithKey(database.url, 'Bench auth-overhead');
    const { api_key: readSubscribersOnly } = await issueApiKey(database.url, workspaceId, ['subscribers:read'], 'Bench without workspace:read');
    const headersOf: Record<Phase['key'], Record<string, string>> = {
      healthz: {},
      unauthenticated: {},
      forbidden: { authorization: `Bearer ${readSubscribersOnly}` },
      authorized: { authorization: `Bearer ${allScopes}` },
    };

    // Always under the profiler wrapper: it costs nothing until switched on, and then the bracket and
    // the attribution run in the same process.
    const wrap = profileDir ? profiled(appEntry('email-api'), profileDir, `auth-overhead-${Date.now()}`, intervalUs) : undefined;
    app = await startApp(wrap?.entry ?? appEntry('email-api'), {
      port: await freePort(),
      env: { EMAIL_DATABASE_URL: database.url, RATE_LIMIT_REQUESTS: '0', LOG_LEVEL: 'silent', ...(wrap?.env ?? {}) },
    });
    const pid = app.pid;
    for (const phase of PHASES) {
      const probe = await fetch(`${app.baseUrl}${phase.path}`, { headers: headersOf[phase.key] });
      if (probe.status !== phase.status)
        throw new Error(`${phase.key}: GET ${phase.path} answered ${probe.status}, expected ${phase.status}: ${(await probe.text()).slice(0, 300)}`);
    }

    const results: Array<{ phase: Phase['key']; result: Measurement }> = [];
    const once = async (phase: Phase, roundNumber: number | 'profiled', profile?: ProfileSwitch) => {
      log(
        `auth-overhead: ${roundNumber === 'profiled' ? 'profiled' : `round ${roundNumber}/${rounds}`}: ${phase.key} (GET ${phase.path}, ${phase.what}): ${warmup}s warm-up + ${duration}s`,
      );
      const result = await measure({
        url: `${app!.baseUrl}${phase.path}`,
        headers: headersOf[phase.key],
        connections,
        duration,
        warmup,
        appPid: pid,
        beforeMeasure: () => profile?.start(),
      });
      const unexpected = result.requests - (result.status_counts[String(phase.status)] ?? 0);
      if (unexpected || result.errors) log(`auth-overhead: WARNING ${phase.key}: ${unexpected} answers other than ${phase.status}, ${result.errors} errors`);
      emit({
        bench: 'auth-overhead',
        phase: phase.key,
        route: `GET ${phase.path}`,
        expected_status: phase.status,
        round: roundNumber,
        connections,
        duration_s: duration,
        ...result,
        server_rss_mb: processRssMb(pid),
      });
      return result;
    };

    for (let r = 1; r <= rounds; r++) {
      for (const phase of PHASES) results.push({ phase: phase.key, result: await once(phase, r) });
    }
    const med = (phase: Phase['key'], field: 'req_per_s' | 'latency_p50_ms' | 'latency_p99_ms' | 'app_cpu_us_per_request') =>
      median(results.filter((x) => x.phase === phase).map((x) => x.result[field] ?? Number.NaN));

    let attribution: Record<string, unknown> = {};
    if (wrap) {
      const profile = new ProfileSwitch(pid, wrap.out);
      const attributed: Record<string, unknown> = {};
      for (const key of ['authorized', 'forbidden'] as const) {
        const phase = PHASES.find((p) => p.key === key)!;
        const result = await once(phase, 'profiled', profile);
        const file = await profile.stop();
        const parsed = readProfile(file);
        const summary = summarizeProfile(parsed);
        log(describeSummary(`email-api ${key} (GET ${phase.path})`, summary));
        const parts = inclusiveTime(parsed, AUTH_PARTS);
        const authUs = [...parts.values()].reduce((a, b) => a + b, 0);
        const perRequest = (us: number) => round(us / result.requests, 2);
        const busyUs = summary.busy_ms * 1000;
        attributed[key] = {
          file,
          requests: result.requests,
          profiled_app_cpu_us_per_request: result.app_cpu_us_per_request,
          profiled_busy_us_per_request: perRequest(busyUs),
          auth_us_per_request: perRequest(authUs),
          auth_pct_of_busy: round((100 * authUs) / busyUs, 2),
          auth_parts_us_per_request: Object.fromEntries([...parts].map(([name, us]) => [name, perRequest(us)])),
        };
        emit({
          bench: 'auth-overhead',
          profile_of: `${key} GET ${phase.path}`,
          ...(attributed[key] as object),
          groups: summary.groups,
          functions: summary.functions,
        });
      }
      const authorized = attributed.authorized as { auth_us_per_request: number; auth_pct_of_busy: number };
      attribution = {
        auth_us_per_request_profiled: authorized.auth_us_per_request,
        auth_pct_of_app_busy_time: authorized.auth_pct_of_busy,
        // The profiler slows everything a little: the same share of the unprofiled CPU per request.
        auth_us_per_request_scaled_to_unprofiled: round((authorized.auth_pct_of_busy / 100) * med('authorized', 'app_cpu_us_per_request'), 2),
      };
    }

    const upper = med('forbidden', 'app_cpu_us_per_request') - med('unauthenticated', 'app_cpu_us_per_request');
    emit({
      bench: 'auth-overhead',
      summary: `medians of ${rounds} round(s)`,
      connections,
      ...attribution,
      bracket_app_cpu_us_per_request: Object.fromEntries(PHASES.map((p) => [p.key, med(p.key, 'app_cpu_us_per_request')])),
      bracket_req_per_s: Object.fromEntries(PHASES.map((p) => [p.key, med(p.key, 'req_per_s')])),
      bracket_p50_ms: Object.fromEntries(PHASES.map((p) => [p.key, med(p.key, 'latency_p50_ms')])),
      upper_bound_cpu_us_forbidden_minus_unauthenticated: upper,
      upper_bound_ms_at_saturation_forbidden_minus_unauthenticated: round(1000 / med('forbidden', 'req_per_s') - 1000 / med('unauthenticated', 'req_per_s'), 4),
      extra_p50_ms_forbidden_minus_unauthenticated: round(med('forbidden', 'latency_p50_ms') - med('unauthenticated', 'latency_p50_ms'), 3),
      goal_at_most_300_us: (typeof attribution.auth_us_per_request_profiled === 'number' ? attribution.auth_us_per_request_profiled : upper) <= 300,
    });
  } finally {
    await app?.stop();
    if (removeProfiles) rmSync(profileDir, { recursive: true, force: true });
    await database.release();
  }
}

export const authOverheadBenchmark: Benchmark = {
  name: 'auth-overhead',
  summary: 'CPU cost of bearer auth + scope check per request (profile attribution, and a 401/403 bracket)',
  usage: USAGE,
  run,
};
