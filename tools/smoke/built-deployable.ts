import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@shared/testing';

export const root = path.resolve(__dirname, '../..');

export const DEPLOYABLES = ['email-api', 'forms-api', 'email-send-worker', 'email-jobs-worker', 'webhook-worker', 'forms-worker'];

/** Fails early, and says how to fix it, when a deployable has no build output. */
export function requireBuilt(names: string[]): void {
  for (const name of names) {
    if (!existsSync(path.join(root, `apps/${name}/dist/main.js`))) throw new Error(`apps/${name} is not built: run npm test (it builds first)`);
  }
}

/** Waits until `url` answers 2xx; fails at once if `child` exits first. */
export async function waitReady(url: string, child: ChildProcess): Promise<void> {
  // Generous: a loaded 2-core CI machine can take many seconds to boot Nest and Prisma.
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became ready`);
}

export interface BuiltDeployable {
  child: ChildProcess;
  port: number;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Runs a deployable from its build output, as npm start and the containers do, on a free port; resolves once it is ready. */
export async function startBuiltDeployable(name: string, env: NodeJS.ProcessEnv): Promise<BuiltDeployable> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, `apps/${name}/dist/main.js`)], {
    env: { ...env, [name.endsWith('-api') ? 'PORT' : 'HEALTH_PORT']: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await waitReady(`http://127.0.0.1:${port}/readyz`, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${name} did not start: ${(error as Error).message}\n${output}`, { cause: error });
  }
  return {
    child,
    port,
    output: () => output,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
