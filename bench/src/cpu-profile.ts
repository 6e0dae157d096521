import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Benchmark, emit, intOption, log, parseOptions, round, UsageError } from './cli';
import { REPO_ROOT } from './databases';

/**
 * CPU profiles of a benchmarked server: bench/dist/profiled-entry.js runs the server with a profiler
 * the benchmark switches on for the measured phase only (SIGUSR2), and `summarizeProfile` says where
 * the time went: by package, by group and by function.
 */

/** --cpu-prof-dir and --cpu-prof-interval-us of the benchmarks that profile a server, for parseOptions. */
export const CPU_PROFILE_OPTIONS = { 'cpu-prof-dir': { type: 'string' }, 'cpu-prof-interval-us': { type: 'string' } } as const;

/** The profiler's sampling interval in µs (default 250). */
export function cpuProfileIntervalOption(values: { 'cpu-prof-interval-us'?: string }): number {
  return intOption(values['cpu-prof-interval-us'], 'cpu-prof-interval-us', 250, 50, 100_000);
}

/** The wrapper entry, built (the child runs it with plain `node`, as startApp does). */
export function profiledEntry(): string {
  const entry = path.join(REPO_ROOT, 'bench/dist/profiled-entry.js');
  if (!existsSync(entry)) throw new Error('bench/dist/profiled-entry.js is missing: build the bench (npm run bench builds it)');
  return entry;
}

export interface ProfiledServer {
  /** Entry to start and the environment to add, so that it runs `target` under the profiler wrapper. */
  entry: string;
  env: Record<string, string>;
  /** Path prefix of the profiles this server writes. */
  out: string;
}

/** How to start `target` (a built server entry) so that its measured phases can be profiled. */
export function profiled(target: string, dir: string, name: string, intervalUs: number): ProfiledServer {
  mkdirSync(dir, { recursive: true });
  const out = path.join(path.resolve(dir), name);
  return {
    entry: profiledEntry(),
    env: { BENCH_PROFILE_TARGET: target, BENCH_PROFILE_OUT: out, BENCH_PROFILE_INTERVAL_US: String(intervalUs) },
    out,
  };
}

/** Switches the profiler of a server started through `profiled` on (start) and off (stop → the profile). */
export class ProfileSwitch {
  private stops = 0;
  private started = false;

  constructor(
    private readonly pid: number,
    private readonly out: string,
  ) {}

  start(): void {
    if (this.started) throw new Error('profile already running');
    process.kill(this.pid, 'SIGUSR2');
    this.started = true;
  }

  /** Stops the profile and waits until the server has written it; returns its path. */
  async stop(timeoutMs = 30_000): Promise<string> {
    if (!this.started) throw new Error('no profile running');
    process.kill(this.pid, 'SIGUSR2');
    this.started = false;
    const file = `${this.out}.${this.stops++}.cpuprofile`;
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(file)) {
      if (Date.now() > deadline) throw new Error(`no profile at ${file} after ${timeoutMs} ms`);
      await sleep(50);
    }
    return file;
  }
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** The package (or workspace project, or V8 pseudo-frame) a frame belongs to. */
export function packageOf(frame: CallFrame): string {
  const url = frame.url;
  // V8's pseudo-frames ((garbage collector), (program), (idle), (root)); other url-less frames are
  // Node's native bindings and builtins (writev, Hash, utf8Slice, runMicrotasks…).
  if (!url) return /^\(.*\)$/.test(frame.functionName) ? frame.functionName : 'node (native)';
  if (url.startsWith('node:')) return 'node';
  if (url.startsWith('wasm://')) return 'wasm';
  const file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = file.slice(modules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const relative = path.relative(REPO_ROOT, file);
  const generated = /^libs\/(email|forms)\/data-access\/(?:.*\/)?generated\//.exec(relative);
  if (generated) return `libs/${generated[1]}/data-access (generated client)`;
  const project = /^(libs\/(?:email\/|forms\/)?[^/]+|apps\/[^/]+|bench)\//.exec(relative);
  return project ? project[1] : relative;
}

const GROUPS: Array<[string, (pkg: string) => boolean]> = [
  ['idle', (p) => p === '(idle)'],
  ['garbage collection', (p) => p === '(garbage collector)'],
  ['V8, unattributed ((program))', (p) => p === '(program)' || p === '(root)'],
  ['Prisma (client runtime, query compiler, adapter-pg)', (p) => p.startsWith('@prisma/') || p === 'wasm' || p.includes('generated client')],
  ['pg driver', (p) => /^(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-.*|pgpass|buffer-writer|packet-reader)$/.test(p)],
  ['Nest', (p) => p.startsWith('@nestjs/') && p !== '@nestjs/passport'],
  ['rxjs', (p) => p === 'rxjs' || p === 'tslib'],
  [
    'Fastify',
    (p) =>
      /^(fastify|find-my-way|light-my-request|avvio|fast-json-stringify|fast-querystring|fast-decode-uri-component|secure-json-parse|@fastify\/.*|toad-cache|process-warning|rfdc)$/.test(
        p,
      ),
  ],
  ['validation (class-validator, class-transformer)', (p) => /^(class-validator|class-transformer|validator|libphonenumber-js)$/.test(p)],
  ['auth (passport)', (p) => p === '@nestjs/passport' || p.startsWith('passport')],
  ['logging (pino)', (p) => p.startsWith('pino') || p === 'sonic-boom' || p === 'thread-stream'],
  ['redis (ioredis)', (p) => p === 'ioredis' || p.startsWith('@ioredis/') || p === 'redis-parser'],
  ['Node core (JS and native: sockets, crypto, buffers, microtasks)', (p) => p === 'node' || p === 'node (native)'],
  ['application (apps, libs, bench)', (p) => p.startsWith('libs/') || p.startsWith('apps/') || p === 'bench'],
];

export function groupOf(pkg: string): string {
  return GROUPS.find(([, test]) => test(pkg))?.[0] ?? 'other packages';
}

/** Walks a profile's samples: for each, the time it stands for (µs) and its stack, leaf first. */
function eachSample(profile: CpuProfile, visit: (us: number, stack: ProfileNode[]) => void): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stacks = new Map<number, ProfileNode[]>();
  const stackOf = (id: number) => {
    let stack = stacks.get(id);
    if (!stack) {
      stack = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
      stacks.set(id, stack);
    }
    return stack;
  };
  // Sample i was taken at startTime + Σ timeDeltas[0..i]; it stands for the time until the next one.
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    const next = i + 1 < profile.samples.length ? at + profile.timeDeltas[i + 1] : profile.endTime;
    visit(Math.max(0, next - at), stackOf(profile.samples[i]));
  }
}

export interface ProfileSummary {
  /** Profiled wall time and the part of it the main thread was busy (not idle), ms. */
  wall_ms: number;
  busy_ms: number;
  samples: number;
  groups: Array<{ group: string; ms: number; pct_of_busy: number }>;
  packages: Array<{ package: string; ms: number; pct_of_busy: number }>;
  functions: Array<{ function: string; ms: number; pct_of_busy: number }>;
}

/** Self time by group, package and function, as shares of the busy (non-idle) main-thread time. */
export function summarizeProfile(profile: CpuProfile, topFunctions = 15, topPackages = 20): ProfileSummary {
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let wall = 0;
  let idle = 0;
  eachSample(profile, (us, stack) => {
    const frame = stack[0].callFrame;
    const pkg = packageOf(frame);
    wall += us;
    if (pkg === '(idle)') {
      idle += us;
      return;
    }
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const file = frame.url
      ? `${frame.url
          .replace(/^file:\/\//, '')
          .replace(`${REPO_ROOT}/`, '')
          .replace(/^.*\/node_modules\//, '')}:${frame.lineNumber + 1}`
      : '';
    const name = `${frame.functionName || '(anonymous)'}${file ? ` ${file}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  });
  const busy = wall - idle;
  const share = (us: number) => round((100 * us) / Math.max(1, busy), 1);
  const ms = (us: number) => round(us / 1000, 1);
  const byGroup = new Map<string, number>();
  for (const [pkg, us] of byPackage) byGroup.set(groupOf(pkg), (byGroup.get(groupOf(pkg)) ?? 0) + us);
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    wall_ms: ms(wall),
    busy_ms: ms(busy),
    samples: profile.samples.length,
    groups: sorted(byGroup).map(([group, us]) => ({ group, ms: ms(us), pct_of_busy: share(us) })),
    packages: sorted(byPackage)
      .slice(0, topPackages)
      .map(([pkg, us]) => ({ package: pkg, ms: ms(us), pct_of_busy: share(us) })),
    functions: sorted(byFunction)
      .slice(0, topFunctions)
      .map(([fn, us]) => ({ function: fn, ms: ms(us), pct_of_busy: share(us) })),
  };
}

/**
 * Inclusive time of some code: a sample counts when any frame of its stack matches one of the
 * categories, and goes to the deepest matching frame's category (so nested code is not counted twice).
 * Returns µs per category.
 */
export function inclusiveTime(profile: CpuProfile, categories: Array<[string, (frame: CallFrame) => boolean]>): Map<string, number> {
  const totals = new Map<string, number>(categories.map(([name]) => [name, 0]));
  eachSample(profile, (us, stack) => {
    for (const node of stack) {
      const hit = categories.find(([, test]) => test(node.callFrame));
      if (hit) {
        totals.set(hit[0], totals.get(hit[0])! + us);
        return;
      }
    }
  });
  return totals;
}

/** Human-readable lines for stderr. */
export function describeSummary(label: string, summary: ProfileSummary): string {
  const lines = [`${label}: ${summary.busy_ms} ms busy of ${summary.wall_ms} ms profiled (${summary.samples} samples)`];
  for (const g of summary.groups) lines.push(`  ${String(g.pct_of_busy).padStart(5)}%  ${g.group}`);
  lines.push('  top functions (self time):');
  for (const f of summary.functions) lines.push(`  ${String(f.pct_of_busy).padStart(5)}%  ${f.function}`);
  return lines.join('\n');
}

/** Where the time of a measured phase went: its summary on stderr and as a result line (`extra` goes before `file`). */
export function reportProfile(bench: string, label: string, file: string, extra: Record<string, unknown> = {}): void {
  const summary = summarizeProfile(readProfile(file));
  log(describeSummary(label, summary));
  emit({ bench, profile_of: label, ...extra, file, ...summary });
}

/** `cpu-profile <file.cpuprofile>`: the same summary for any profile (e.g. one kept by --cpu-prof-dir). */
export const cpuProfileUtility: Benchmark = {
  name: 'cpu-profile',
  summary: 'summarize a .cpuprofile (self time by group, package and function)',
  usage: 'cpu-profile --file F.cpuprofile [--top 15]',
  utility: true,
  async run(args) {
    const o = parseOptions(args, { file: { type: 'string' }, top: { type: 'string' } });
    if (!o.file) throw new UsageError('--file is required');
    const summary = summarizeProfile(readProfile(o.file), intOption(o.top, 'top', 15, 1, 200));
    log(describeSummary(path.basename(o.file), summary));
    emit({ bench: 'cpu-profile', file: o.file, ...summary });
  },
};
