// How npm start runs the deployables: each from its build output, in development mode, its output lines prefixed
// with its name, stopped together. Node built-ins only (see env.mjs).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { log, root } from './env.mjs';

export const DEPLOYABLES = [
  { name: 'email-api', port: 3000, portVar: 'PORT' },
  { name: 'forms-api', port: 3100, portVar: 'PORT' },
  { name: 'email-send-worker', port: 9101, portVar: 'HEALTH_PORT' },
  // The jobs workers' V8 heaps (old space and the young generation's semi-spaces) are capped as in docker/compose.yaml
  // and k8s: with V8's defaults an import's or a spreadsheet export's peak RSS is mostly garbage not yet collected.
  { name: 'email-jobs-worker', port: 9102, portVar: 'HEALTH_PORT', nodeArgs: ['--max-old-space-size=256', '--max-semi-space-size=4'] },
  { name: 'webhook-worker', port: 9103, portVar: 'HEALTH_PORT' },
  { name: 'forms-worker', port: 9104, portVar: 'HEALTH_PORT', nodeArgs: ['--max-old-space-size=192', '--max-semi-space-size=4'] },
];

const USAGE = 'usage: npm start [-- --verbose]   (--verbose: also Nest start-up lines and a log line per request)';

/**
 * The environment every deployable gets: development mode unless NODE_ENV says otherwise, and with `--verbose` the
 * debug level, where development keeps Nest's start-up lines and the per-request access log. A LOG_LEVEL you set wins.
 */
export function launchEnv(env, args) {
  const unknown = args.filter((arg) => arg !== '--verbose');
  if (unknown.length) {
    log(`✖ unknown argument ${unknown.join(' ')}\n${USAGE}`);
    process.exit(1);
  }
  const verbose = args.includes('--verbose');
  return { ...env, NODE_ENV: env.NODE_ENV ?? 'development', ...(verbose && !env.LOG_LEVEL ? { LOG_LEVEL: 'debug' } : {}) };
}

/** Starts the deployables; a deployable that exits on its own, SIGINT or SIGTERM stops them all, then this process. */
export function launch(deployables, env) {
  let stopping = false;
  const children = deployables.map((deployable) =>
    startDeployable(deployable, env, (code, signal) => {
      if (stopping) return;
      log(`✖ ${deployable.name} exited unexpectedly (${signal ?? code}); stopping everything.`);
      stopAll(1);
    }),
  );

  function stopAll(code) {
    if (stopping) return;
    stopping = true;
    log('\n▸ stopping (waiting for workers to finish active jobs)…');
    const alive = children.filter((c) => c.exitCode === null && c.signalCode === null);
    let pending = alive.length;
    if (!pending) process.exit(code);
    for (const child of alive) {
      child.once('exit', () => --pending === 0 && process.exit(code));
      child.kill('SIGTERM');
    }
    setTimeout(() => {
      for (const child of alive) child.kill('SIGKILL');
      process.exit(code || 1);
    }, 30_000).unref();
  }

  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
  return { stopAll };
}

/**
 * A deployable runs its app's build output, with the Node flags it is deployed with (`nodeArgs`); a development
 * helper (the mail sink) names its own `script`.
 */
function startDeployable({ name, port, portVar, script, nodeArgs = [] }, env, onExit) {
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, script ?? `apps/${name}/dist/main.js`)], {
    cwd: root,
    env: { ...env, [portVar]: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${name}] `.padEnd(20);
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
    });
  }
  child.on('exit', onExit);
  return child;
}

/** Whether `url` answers 2xx within 30 s. */
export async function waitReady(url) {
  for (let attempt = 0; attempt < 150; attempt++) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}
