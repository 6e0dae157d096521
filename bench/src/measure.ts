import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { log, round } from './cli';
import { withClient } from './databases';
import { AutocannonInstance, LatencySamples, RunSummary, summarizeRun } from './load';
import { processCpuSeconds } from './server';

/**
 * Closed-loop load like load.ts's runLoad, for the benchmarks that need more: a request generator
 * (POST bodies, unique emails), status-code counts, a hook around the measured phase (CPU profiles),
 * and CPU accounting beyond the app: the PostgreSQL backends serving it, the load generator, the machine.
 */

/** One entry of autocannon's `requests`: `setupRequest` may rewrite the request each time it is sent. */
export interface GeneratedRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: GeneratedRequest) => GeneratedRequest;
  /** Called with each answer to this request and its body (autocannon collects the body anyway). */
  onResponse?: (status: number, body: string) => void;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: GeneratedRequest[];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: AutocannonOptions) => AutocannonInstance;

export interface MeasureOptions {
  /** Full URL; with `requests`, only its origin is used. */
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: GeneratedRequest[];
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of the same load first, on its own autocannon run, not measured. */
  warmup: number;
  /** The app's pid: its CPU over the measured phase, from /proc. */
  appPid?: number;
  /** The PostgreSQL database the app uses: the CPU of its client backends over the measured phase. */
  databaseUrl?: string;
  /**
   * Also sample, every 100 ms of the measured run, what the database's client backends are doing
   * (pg_stat_activity): running a statement, waiting for a lock, or idle inside a transaction
   * (waiting for the app's next statement). Needs `databaseUrl`.
   */
  sampleBackends?: boolean;
  /** Called after the warm-up, right before the measured run (e.g. start a CPU profile). */
  beforeMeasure?: () => void | Promise<void>;
  /** Called right after the measured run (e.g. stop the profile). */
  afterMeasure?: () => void | Promise<void>;
  /** Every answer, warm-up included (status code; bytes received for it, headers included). */
  onResponse?: (statusCode: number, measured: boolean, bytes: number) => void;
}

export interface Measurement extends RunSummary {
  status_counts: Record<string, number>;
  /** The app process (user + system, all its threads) per measured answer. */
  app_cpu_us_per_request?: number;
  /** The PostgreSQL client backends of the database per measured answer (background processes left out). */
  db_cpu_us_per_request?: number;
  /** This process (autocannon) per measured answer. */
  loadgen_cpu_us_per_request: number;
  /** Mean number of the database's client backends in each state during the measured run (sampleBackends). */
  db_backends_avg?: { active: number; waiting_on_lock: number; idle_in_transaction: number; idle: number };
  /** Share of the machine's CPU (all cores) that was busy during the measured run; 100 = saturated. */
  machine_busy_pct?: number;
  /**
   * Share of the machine's CPU used by everything else meanwhile: other sessions, PostgreSQL's
   * background processes. High values mean the run competed for the cores.
   */
  other_cpu_pct?: number;
}

/** Load that is not measured (bringing a freshly started server to steady state). */
export async function warmUp(options: { url: string; headers?: Record<string, string>; connections: number; seconds: number }): Promise<void> {
  if (options.seconds > 0) await autocannon({ url: options.url, headers: options.headers ?? {}, connections: options.connections, duration: options.seconds });
}

/** Busy and total jiffies of the whole machine, from /proc/stat. */
function machineJiffies(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = fields[3] + fields[4]; // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** Pids of the client backends connected to the database of `url` (the app's pool after a warm-up). */
export async function databaseBackendPids(url: string): Promise<number[]> {
  const database = new URL(url).pathname.replace(/^\//, '');
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      [database],
    );
    return rows.map((r) => r.pid);
  });
}

/** CPU seconds of each pid that can be read now. */
function cpuOf(pids: number[]): Map<number, number> {
  const seen = new Map<number, number>();
  for (const pid of pids) {
    const cpu = processCpuSeconds(pid);
    if (cpu !== undefined) seen.set(pid, cpu);
  }
  return seen;
}

/**
 * CPU used between two readings by the processes present in both. A backend that pg's pool closed in
 * between (an idle one of another server) drops out instead of counting negative.
 */
function cpuBetween(start: Map<number, number>, end: Map<number, number>): number | undefined {
  let sum = 0;
  let any = false;
  for (const [pid, before] of start) {
    const after = end.get(pid);
    if (after !== undefined && after >= before) {
      sum += after - before;
      any = true;
    }
  }
  return any ? sum : undefined;
}

export async function measure(options: MeasureOptions): Promise<Measurement> {
  // autocannon merges options with Object.assign: an explicit undefined would erase its defaults.
  const base = Object.fromEntries(
    Object.entries({
      url: options.url,
      connections: options.connections,
      duration: options.duration,
      method: options.method,
      headers: options.headers,
      body: options.body,
      requests: options.requests,
    }).filter(([, value]) => value !== undefined),
  ) as unknown as AutocannonOptions;
  if (options.warmup > 0) {
    const warm = autocannon({ ...base, duration: options.warmup });
    if (options.onResponse) warm.on('response', (_c, status, bytes) => options.onResponse!(status, false, bytes));
    await warm;
  }

  const backends = options.databaseUrl ? await databaseBackendPids(options.databaseUrl) : [];
  await options.beforeMeasure?.();
  const appStart = options.appPid !== undefined ? processCpuSeconds(options.appPid) : undefined;
  const dbStart = cpuOf(backends);
  const machineStart = machineJiffies();
  const selfStart = process.cpuUsage();

  const sampler = options.sampleBackends && options.databaseUrl ? await sampleBackends(options.databaseUrl) : undefined;
  const latencies = new LatencySamples();
  const instance = autocannon(base);
  instance.on('response', (_client, status, bytes, ms) => {
    latencies.add(ms);
    options.onResponse?.(status, true, bytes);
  });
  const result = await instance;

  const self = process.cpuUsage(selfStart);
  const backendStates = await sampler?.stop();
  const machineEnd = machineJiffies();
  const dbEnd = cpuOf(backends);
  const appEnd = options.appPid !== undefined ? processCpuSeconds(options.appPid) : undefined;
  await options.afterMeasure?.();

  const summary = summarizeRun(result, latencies);
  const total = summary.requests;
  const appSeconds = appStart !== undefined && appEnd !== undefined ? appEnd - appStart : undefined;
  const dbSeconds = cpuBetween(dbStart, dbEnd);
  const selfSeconds = (self.user + self.system) / 1e6;
  const machine =
    machineStart && machineEnd && machineEnd.total > machineStart.total
      ? { busy: machineEnd.busy - machineStart.busy, total: machineEnd.total - machineStart.total }
      : undefined;
  const perRequest = (seconds: number | undefined) => (seconds !== undefined && total > 0 ? Math.round((seconds * 1e6) / total) : undefined);
  return {
    ...summary,
    status_counts: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
    app_cpu_us_per_request: perRequest(appSeconds),
    db_cpu_us_per_request: perRequest(dbSeconds),
    loadgen_cpu_us_per_request: perRequest(selfSeconds)!,
    ...(backendStates ? { db_backends_avg: backendStates } : {}),
    machine_busy_pct: machine ? round((100 * machine.busy) / machine.total, 1) : undefined,
    // /proc/stat counts in USER_HZ (100 per second), like /proc/<pid>/stat.
    other_cpu_pct: machine
      ? round(Math.max(0, (100 * (machine.busy - 100 * ((appSeconds ?? 0) + (dbSeconds ?? 0) + selfSeconds))) / machine.total), 1)
      : undefined,
  };
}

/** Polls pg_stat_activity every 100 ms until stopped; returns the mean count of backends per state. */
async function sampleBackends(url: string): Promise<{ stop(): Promise<NonNullable<Measurement['db_backends_avg']>> }> {
  const database = new URL(url).pathname.replace(/^\//, '');
  const client = new Client({ connectionString: url, application_name: 'bench-sampler' });
  await client.connect();
  const sums = { active: 0, waiting_on_lock: 0, idle_in_transaction: 0, idle: 0 };
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ active: number; waiting_on_lock: number; idle_in_transaction: number; idle: number }>(
        `SELECT count(*) FILTER (WHERE state = 'active' AND wait_event_type IS DISTINCT FROM 'Lock')::int AS active,
                count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'Lock')::int AS waiting_on_lock,
                count(*) FILTER (WHERE state = 'idle in transaction')::int AS idle_in_transaction,
                count(*) FILTER (WHERE state = 'idle')::int AS idle
           FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        [database],
      );
      for (const key of Object.keys(sums) as Array<keyof typeof sums>) sums[key] += rows[0][key];
      samples++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await client.end();
      const mean = (n: number) => round(n / Math.max(1, samples), 2);
      return {
        active: mean(sums.active),
        waiting_on_lock: mean(sums.waiting_on_lock),
        idle_in_transaction: mean(sums.idle_in_transaction),
        idle: mean(sums.idle),
      };
    },
  };
}

/** Answers by status code, warm-up included: pass `add` as measure's onResponse. */
export function statusTally(initial: Record<string, number> = {}): { counts: Record<string, number>; add: (status: number) => void } {
  const counts = { ...initial };
  return {
    counts,
    add: (status) => {
      counts[status] = (counts[status] ?? 0) + 1;
    },
  };
}

/** The stderr warning of a run with failed answers. */
export function warnOnFailures(bench: string, result: Measurement): void {
  if (result.non_2xx || result.errors)
    log(`${bench}: WARNING ${result.non_2xx} non-2xx answers (${JSON.stringify(result.status_counts)}), ${result.errors} errors`);
}

/** Reads every 250 ms (5 s at most) until two readings in a row agree; returns the last. */
export async function readUntilStill<T>(read: () => Promise<T>): Promise<T> {
  let state = await read();
  for (let i = 0; i < 20; i++) {
    await sleep(250);
    const next = await read();
    const still = JSON.stringify(next) === JSON.stringify(state);
    state = next;
    if (still) break;
  }
  return state;
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
