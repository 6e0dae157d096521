import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { log, onInterrupt } from './cli';

/** The repository root (this file runs from bench/dist or, under jest, bench/src). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The throw-away database the benchmarks use unless given --database-url. */
export const BENCH_DATABASE = 'pl_bench_email';

/** The PostgreSQL server for bench databases; override with BENCH_DATABASE_SERVER_URL (no database name). */
export function benchServerUrl(): string {
  return (process.env.BENCH_DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432').replace(/\/+$/, '');
}

export function benchDatabaseUrl(name = BENCH_DATABASE): string {
  return `${benchServerUrl()}/${name}`;
}

/** A URL safe to print: the password, if any, is masked. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(invalid url)';
  }
}

export async function withClient<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The services whose databases `scripts/db.mjs` migrates. */
export type DatabaseService = 'email' | 'forms';

/** Applies a service's migrations with the repo's own tool (idempotent: a migrated database is left as is). */
export function migrateDatabase(url: string, service: DatabaseService): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts/db.mjs'), 'migrate', '--service', service, '--url', url], {
      cwd: REPO_ROOT,
      // Its report goes to our stderr: stdout is for results only.
      stdio: ['ignore', process.stderr, process.stderr],
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${service} migration of ${redactUrl(url)} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/**
 * Creates (if missing) and migrates a bench database for `service` (email unless told); `created` says
 * whether this call made it.
 */
export async function ensureBenchDatabase(name = BENCH_DATABASE, service: DatabaseService = 'email'): Promise<{ url: string; created: boolean }> {
  const created = await withClient(benchDatabaseUrl('postgres'), async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    await admin.query(`CREATE DATABASE "${name}"`);
    return true;
  });
  const url = benchDatabaseUrl(name);
  log(`${created ? 'created' : 'using existing'} ${service} database ${name}`);
  await migrateDatabase(url, service);
  return { url, created };
}

/** Drops a bench database, disconnecting whoever still uses it. */
export async function dropBenchDatabase(name = BENCH_DATABASE): Promise<boolean> {
  if (!/^pl_bench_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop "${name}": only pl_bench_* databases are bench databases`);
  return withClient(benchDatabaseUrl('postgres'), async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) return false;
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    return true;
  });
}

export interface BenchDatabase {
  url: string;
  /** Drops the database if this run created it (and was not told to keep it); otherwise says it was left in place. */
  release(): Promise<void>;
}

/**
 * The database a benchmark runs against: `givenUrl` as it is, or `name` created and migrated for the run. A database
 * the run created is dropped on release, and also when the run is interrupted, unless `keep` is set.
 */
export async function openBenchDatabase(
  bench: string,
  options: { name?: string; service?: DatabaseService; givenUrl?: string; keep?: boolean },
): Promise<BenchDatabase> {
  const name = options.name ?? BENCH_DATABASE;
  const database = options.givenUrl ? { url: options.givenUrl, created: false } : await ensureBenchDatabase(name, options.service);
  const throwAway = database.created && !options.keep;
  const drop = async () => {
    await dropBenchDatabase(name);
    log(`${bench}: dropped ${name}`);
  };
  const forgetDrop = throwAway ? onInterrupt(drop) : () => {};
  return {
    url: database.url,
    release: async () => {
      forgetDrop();
      if (throwAway) await drop();
      else log(`${bench}: left ${redactUrl(database.url)} in place`);
    },
  };
}
