// Shared by the npm entry points (start, test, admin, bench): they run before dependencies exist,
// so this file uses Node built-ins only.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Environment for corepack-managed pnpm and Nx: no prompts, no daemon, no cloud, no telemetry. */
export const toolEnv = {
  ...process.env,
  COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
  // The registry mirror reachable here serves pnpm without npm's signing metadata.
  COREPACK_INTEGRITY_KEYS: process.env.COREPACK_INTEGRITY_KEYS ?? '0',
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_SKIP_NX_CACHE: process.env.NX_SKIP_NX_CACHE ?? '',
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};

export const log = (message) => process.stderr.write(`${message}\n`);

/** Runs a command to completion with output on stderr; exits the process on failure. */
export function run(command, args, { quiet = false, env = toolEnv } = {}) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: ['ignore', quiet ? 'pipe' : process.stderr, quiet ? 'pipe' : 'inherit'] });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    log(`\n✖ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

export const pnpm = (args, options) => run('corepack', ['pnpm', ...args], options);
export const bin = (name) => path.join(root, 'node_modules/.bin', name);

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 }, () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Says exactly which of PostgreSQL and Redis is missing and how to start it; exits non-zero if either is. */
export async function requireServices() {
  const pg = new URL(process.env.EMAIL_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/email');
  const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const missing = [];
  if (!(await reachable(pg.hostname, Number(pg.port || 5432)))) {
    missing.push(
      `PostgreSQL is not reachable at ${pg.hostname}:${pg.port || 5432}.\n` +
        `  Start it, e.g.: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n` +
        `  or with Docker: docker compose -f docker/compose.yaml up -d postgres`,
    );
  }
  if (!(await reachable(redis.hostname, Number(redis.port || 6379)))) {
    missing.push(
      `Redis is not reachable at ${redis.hostname}:${redis.port || 6379}.\n` +
        `  Start it, e.g.: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no\n` +
        `  or with Docker: docker compose -f docker/compose.yaml up -d redis`,
    );
  }
  if (missing.length) {
    log(`✖ Cannot continue:\n\n${missing.join('\n\n')}\n\nSet EMAIL_DATABASE_URL / FORMS_DATABASE_URL / REDIS_URL to use other servers.`);
    process.exit(1);
  }
}

/** pnpm install against the lockfile; quick when nothing changed. */
export function install() {
  pnpm(['install', '--frozen-lockfile', '--reporter=silent']);
}

/** Generated Prisma clients and compiled packages, built only when missing or stale (Nx caches). */
export function prepare({ build = true } = {}) {
  run(process.execPath, ['scripts/db.mjs', 'generate'], { quiet: true });
  if (build) run(bin('nx'), ['run-many', '-t', 'build', '--outputStyle=static', '--verbose=false'], { quiet: true });
}

export function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** The secrets every install needs its own of; the apps refuse to start in production without them. */
export const INSTALL_SECRETS = ['CURSOR_SECRET', 'ENCRYPTION_KEY'];

/**
 * This install's secrets: each one from the environment when set, else generated on first use and kept in `file`
 * (git-ignored, readable by the owner only), so cursors stay valid across restarts and nobody shares a default.
 */
export function installSecrets(file = path.join(root, '.data/secrets.json'), env = process.env) {
  const saved = readJson(file) ?? {};
  const missing = INSTALL_SECRETS.filter((name) => !env[name] && !saved[name]);
  for (const name of missing) saved[name] = randomBytes(32).toString('base64url');
  if (missing.length) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  }
  return Object.fromEntries(INSTALL_SECRETS.map((name) => [name, env[name] || saved[name]]));
}

export { spawn };
