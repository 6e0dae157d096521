import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, freePort, uniqueQueuePrefix } from '@shared/testing';

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

/** Runs a deployable from its build output, as npm start and the containers do, on `port` (a free one by default); resolves once it is ready. */
export async function startBuiltDeployable(name: string, env: NodeJS.ProcessEnv, port?: number): Promise<BuiltDeployable> {
  port ??= await freePort();
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

export interface BuiltAppsEnvironment {
  /** Test mode, silent, fresh email and forms databases, a queue prefix of its own. */
  env: NodeJS.ProcessEnv;
  drop(): Promise<void>;
}

/** The environment built deployables run in for one test file. */
export async function builtAppsEnvironment(): Promise<BuiltAppsEnvironment> {
  const [email, forms] = await Promise.all([createTestDatabase('email'), createTestDatabase('forms')]);
  return {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      EMAIL_DATABASE_URL: email.url,
      FORMS_DATABASE_URL: forms.url,
      QUEUE_PREFIX: uniqueQueuePrefix(),
    },
    drop: async () => {
      await Promise.all([email.drop(), forms.drop()]);
    },
  };
}

/** Runs the built admin CLI, as npm start does for its demo accounts, and parses the JSON it prints. */
export async function adminCli<T>(env: NodeJS.ProcessEnv, ...args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'apps/admin-cli/dist/main.js'), ...args], { env });
  return JSON.parse(stdout) as T;
}
