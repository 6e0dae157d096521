import { parseArgs, ParseArgsConfig } from 'node:util';

/** A runnable benchmark (or utility) of `npm run bench -- <name>`. */
export interface Benchmark {
  name: string;
  summary: string;
  usage: string;
  /** Utilities are listed separately and print no benchmark results. */
  utility?: boolean;
  run(args: string[]): Promise<void>;
}

/** A mistake in the command line: reported with the usage, exit code 2. */
export class UsageError extends Error {}

/** Progress and diagnostics: stderr only, so stdout stays machine-readable. */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** One result: exactly one JSON line on stdout. */
export function emit(result: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses `--name value` options strictly; no positionals. */
export function parseOptions<T extends Options>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** An integer option within bounds (undefined → fallback). */
export function intOption(raw: string | undefined, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined) return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`--${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  return value;
}

/** A number option within bounds (undefined → fallback). */
export function numberOption(raw: string | undefined, name: string, fallback: number, min = 0, max = Number.MAX_VALUE): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new UsageError(`--${name} must be a number between ${min} and ${max} (got "${raw}")`);
  return value;
}

/** --connections, --duration and --warmup of the closed-loop HTTP benchmarks, for parseOptions. */
export const HTTP_LOAD_OPTIONS = { connections: { type: 'string' }, duration: { type: 'string' }, warmup: { type: 'string' } } as const;

/** Their values: `defaultConnections` connections, 10 s measured after 3 s of warm-up unless given. */
export function httpLoadOption(values: { connections?: string; duration?: string; warmup?: string }, defaultConnections = 32) {
  return {
    connections: intOption(values.connections, 'connections', defaultConnections, 1, 10_000),
    duration: intOption(values.duration, 'duration', 10, 1, 600),
    warmup: intOption(values.warmup, 'warmup', 3, 0, 600),
  };
}

/**
 * --rate-limit-requests, the email-api's RATE_LIMIT_REQUESTS: 0 (the default) turns the per-key limit off;
 * a large limit keeps it on (a Redis round trip per request) without ever refusing.
 */
export function rateLimitRequestsOption(raw: string | undefined): number {
  return intOption(raw, 'rate-limit-requests', 0, 0, 10_000_000);
}

export function choiceOption<T extends string>(raw: string | undefined, name: string, fallback: T, allowed: readonly T[]): T {
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  return raw as T;
}

/** Seconds since `started` (a performance.now() reading), rounded to milliseconds. */
export function secondsSince(started: number): number {
  return round((performance.now() - started) / 1000, 3);
}

export function round(value: number, digits = 0): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

const cleanups = new Set<() => Promise<void>>();

/** Registers work to finish if the run is interrupted (stop an app, drop a database); returns the unregister. */
export function onInterrupt(cleanup: () => Promise<void>): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Ctrl-C / SIGTERM: run the registered clean-ups (newest first, 15 s at most), then exit 130 / 143. */
export function installSignalHandlers(): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`);
      const pending = [...cleanups].reverse();
      const all = (async () => {
        for (const cleanup of pending) await cleanup().catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
      })();
      const limit = new Promise((resolve) => setTimeout(resolve, 15_000).unref());
      void Promise.race([all, limit]).finally(() => process.exit(code));
    });
  }
}
