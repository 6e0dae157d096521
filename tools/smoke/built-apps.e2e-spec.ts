/**
 * Boots every deployable from its build output, as `npm start` and the containers do, so a missing
 * workspace dependency or a bootstrap error fails here rather than in production.
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, freePort, TestDatabase, uniqueQueuePrefix } from '@shared/testing';

const root = path.resolve(__dirname, '../..');
const DEPLOYABLES = ['email-api', 'forms-api', 'email-send-worker', 'email-jobs-worker', 'webhook-worker', 'forms-worker'];

async function waitReady(url: string, child: ChildProcess): Promise<void> {
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

describe('built deployables', () => {
  let email: TestDatabase;
  let forms: TestDatabase;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    for (const name of [...DEPLOYABLES, 'admin-cli']) {
      if (!existsSync(path.join(root, `apps/${name}/dist/main.js`))) throw new Error(`apps/${name} is not built: run npm test (it builds first)`);
    }
    [email, forms] = await Promise.all([createTestDatabase('email'), createTestDatabase('forms')]);
    env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      EMAIL_DATABASE_URL: email.url,
      FORMS_DATABASE_URL: forms.url,
      QUEUE_PREFIX: uniqueQueuePrefix(),
    };
  });

  afterAll(async () => {
    await Promise.all([email?.drop(), forms?.drop()]);
  });

  it.each(DEPLOYABLES)(
    '%s starts, reports ready and exits cleanly on SIGTERM',
    async (name) => {
      const port = await freePort();
      const isApi = name.endsWith('-api');
      const child = spawn(process.execPath, [path.join(root, `apps/${name}/dist/main.js`)], {
        env: { ...env, [isApi ? 'PORT' : 'HEALTH_PORT']: String(port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      try {
        await waitReady(`http://127.0.0.1:${port}/readyz`, child);
        if (name === 'email-api') expect(((await (await fetch(`http://127.0.0.1:${port}/v1`)).json()) as { version: string }).version).toBe('v1');
        if (name === 'forms-api') {
          // The hosted page's script comes prebuilt with the lib (no bundler at run time).
          const built = (await import(path.join(root, 'libs/forms/hosted-page/dist/index.js'))) as typeof import('@forms/hosted-page');
          const script = await built.hostedFormScript();
          const served = await fetch(`http://127.0.0.1:${port}/f/assets/${script.fileName}`);
          expect({ status: served.status, body: await served.text() }).toEqual({ status: 200, body: script.body });
        }
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        expect({ name, code: await exited, stderr }).toEqual({ name, code: 0, stderr: '' });
      } finally {
        child.kill('SIGKILL');
      }
    },
    60_000,
  );

  it('admin CLI prints exactly the documented JSON', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'apps/admin-cli/dist/main.js'), 'create-workspace', '--name', 'Built'], {
      env,
    });
    expect(Object.keys(JSON.parse(stdout)).sort()).toEqual(['api_key', 'workspace_id']);
    const account = await promisify(execFile)(
      process.execPath,
      [path.join(root, 'apps/admin-cli/dist/main.js'), 'forms:create-account', '--email', 'cli@example.com'],
      { env },
    );
    expect(Object.keys(JSON.parse(account.stdout)).sort()).toEqual(['api_key', 'owner_id', 'workspace_id']);
  });
});
