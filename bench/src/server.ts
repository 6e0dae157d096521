import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { log, onInterrupt } from './cli';
import { REPO_ROOT } from './databases';

/**
 * The built entry point of an app (apps/<name>, its package.json `main`). Read by path, not imported:
 * nothing may depend on an app package; scripts/bench.mjs builds the apps the benchmarks run.
 */
export function appEntry(name: string): string {
  const dir = path.join(REPO_ROOT, 'apps', name);
  const { main } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { main: string };
  const entry = path.join(dir, main);
  if (!existsSync(entry)) throw new Error(`${path.relative(REPO_ROOT, entry)} is missing: build it (npm run bench builds it)`);
  return entry;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    // Fields after "(comm)": state is 3rd overall; utime and stime are the 14th and 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** Resident memory of a process in MB, from /proc (Linux); undefined elsewhere. */
export function processRssMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** A process's resident memory now and at its peak (VmRSS, VmHWM), in MB, from /proc (Linux). */
export function processMemoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

/** Starts a process's peak (VmHWM) again from its current RSS (Linux, a process of ours). */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export interface RunningApp {
  baseUrl: string;
  pid: number;
  /** Stops the app (SIGTERM, then SIGKILL after `graceMs`); safe to call more than once. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();

// Last resort: however this process ends, no app it started outlives it (an interrupted run stops
// its apps through onInterrupt first; see installSignalHandlers).
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts a built HTTP app as a child process on `port` with `env` added, and waits until its
 * /readyz answers 200 (database and Redis reachable). Its output is passed on to stderr.
 */
export async function startApp(entry: string, options: { port: number; env: Record<string, string>; readyTimeoutMs?: number }): Promise<RunningApp> {
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production refuses the built-in development secrets; these are throw-away.
      CURSOR_SECRET: randomBytes(24).toString('base64url'),
      ENCRYPTION_KEY: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'silent',
      // Load from one key would hit the per-credential limit at once; benchmarks measure the work instead.
      RATE_LIMIT_REQUESTS: '0',
      // The failed-auth and public limits stay on (their counting is part of the cost), set too high to trip.
      AUTH_FAILURE_LIMIT: '1000000',
      FORMS_SUBMISSIONS_PER_IP: '10000000',
      FORMS_SUBMISSIONS_PER_FORM: '10000000',
      FORMS_UPLOADS_PER_IP: '10000000',
      FORMS_UPLOADS_PER_FORM: '10000000',
      FORMS_HOSTED_PAGES_PER_IP: '10000000',
      HOST: '127.0.0.1',
      PORT: String(options.port),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const name = path.basename(path.dirname(path.dirname(entry)));
  const forward = (chunk: Buffer) => process.stderr.write(chunk.toString().replace(/^(?=.)/gm, `[${name}] `));
  child.stdout.on('data', forward);
  child.stderr.on('data', forward);
  let exited: string | undefined;
  const exit = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = signal ?? `exit code ${code}`;
      running.delete(child);
      resolve();
    });
  });
  child.on('error', (error) => {
    exited = error.message;
  });

  let forget = () => {};
  const stop = async (graceMs = 10_000): Promise<void> => {
    forget();
    if (exited !== undefined || child.exitCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exit;
    clearTimeout(timer);
  };

  forget = onInterrupt(() => stop(2000));

  const baseUrl = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  try {
    for (;;) {
      if (exited !== undefined) throw new Error(`${name} exited before it was ready (${exited})`);
      try {
        const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${name} was not ready within ${options.readyTimeoutMs ?? 60_000} ms`);
      await sleep(100);
    }
  } catch (error) {
    await stop(2000);
    throw error;
  }
  log(`${name} ready on ${baseUrl} (pid ${child.pid})`);
  return { baseUrl, pid: child.pid!, stop };
}
