/**
 * What `npm start` puts on screen once the apps run: its launch step (scripts/lib/launch.mjs, the same code start.mjs
 * runs) with the built email-api and a worker. At the development defaults, requests write nothing and Nest's route
 * map stays out; `--verbose` and LOG_LEVEL=debug bring both back.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createTestDatabase, freePort, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { requireBuilt, root, waitReady } from './built-deployable';

const LAUNCH = path.join(root, 'scripts/lib/launch.mjs');
const DRIVER = `const { launch, launchEnv } = await import(${JSON.stringify(LAUNCH)});
launch(JSON.parse(process.env.LAUNCH_DEPLOYABLES), launchEnv(process.env, process.argv.slice(1)));`;

interface Line {
  deployable: string;
  level: number;
  msg: string;
  context?: string;
  route?: string;
}

describe('npm start: what the launched apps print', () => {
  let email: TestDatabase;

  beforeAll(async () => {
    requireBuilt(['email-api', 'email-jobs-worker']);
    email = await createTestDatabase('email');
  });
  afterAll(() => email?.drop());

  /** Launches email-api and email-jobs-worker as npm start does, sends a few requests, stops them, returns their lines. */
  async function launchAndRequest(args: string[], env: Record<string, string> = {}): Promise<Line[]> {
    // A fresh clone's shell: no NODE_ENV, no LOG_LEVEL.
    const { NODE_ENV: _nodeEnv, LOG_LEVEL: _logLevel, ...shell } = process.env;
    const [apiPort, workerPort] = [await freePort(), await freePort()];
    const deployables = [
      { name: 'email-api', port: apiPort, portVar: 'PORT' },
      { name: 'email-jobs-worker', port: workerPort, portVar: 'HEALTH_PORT' },
    ];
    const launcher = spawn(process.execPath, ['--input-type=module', '-e', DRIVER, '--', ...args], {
      cwd: root,
      env: { ...shell, ...env, EMAIL_DATABASE_URL: email.url, QUEUE_PREFIX: uniqueQueuePrefix(), LAUNCH_DEPLOYABLES: JSON.stringify(deployables) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    launcher.stdout.on('data', (chunk) => (stdout += chunk));
    launcher.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => launcher.once('exit', resolve));
    try {
      await waitReady(`http://127.0.0.1:${apiPort}/readyz`, launcher);
      await waitReady(`http://127.0.0.1:${workerPort}/readyz`, launcher);
      const api = `http://127.0.0.1:${apiPort}`;
      expect((await fetch(`${api}/v1`)).status).toBe(200);
      expect((await fetch(`${api}/v1/no-such-route`)).status).toBe(404);
      expect((await fetch(`${api}/healthz`)).status).toBe(200);
      expect((await fetch(`${api}/readyz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${workerPort}/metrics`)).status).toBe(200);
    } finally {
      launcher.kill('SIGTERM');
      await exited;
    }
    expect(stderr).toContain('stopping');
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [, deployable, json] = /^\[([a-z-]+)\] +(\{.*\})$/.exec(line) ?? [];
        if (!deployable) throw new Error(`a line npm start printed is not a prefixed JSON log line: ${line}`);
        const { level, msg, context, route } = JSON.parse(json) as Line;
        return { deployable, level, msg, context, route };
      });
  }

  const requestLines = (lines: Line[]) => lines.filter((line) => line.msg === 'request');
  const routeMap = (lines: Line[]) => lines.filter((line) => line.context === 'RouterExplorer' || line.context === 'RoutesResolver');

  it('prints no request line and no route map at the development defaults, only the start-up lines at info', async () => {
    const lines = await launchAndRequest([]);
    expect(requestLines(lines)).toEqual([]);
    expect(routeMap(lines)).toEqual([]);
    expect(lines.filter((line) => line.context === 'InstanceLoader')).toEqual([]);
    const startUp = lines.filter((line) => /listening|started/.test(line.msg)).map(({ deployable, msg }) => `${deployable}: ${msg.replace(/:\d+$/, ':PORT')}`);
    // One listening address: loopback, not every interface.
    expect(startUp.sort()).toEqual([
      'email-api: Server listening at http://127.0.0.1:PORT',
      'email-api: email-api listening',
      'email-jobs-worker: email-jobs-worker started',
    ]);
    expect(lines.every((line) => line.level >= 30)).toBe(true);
  }, 90_000);

  it.each([
    ['npm start -- --verbose', ['--verbose'], {}],
    ['LOG_LEVEL=debug npm start', [], { LOG_LEVEL: 'debug' }],
  ])(
    '%s brings back a debug line per request (probes still left out) and the route map',
    async (_name, args, env) => {
      const lines = await launchAndRequest(args, env);
      // The access log writes a request's line once its answer is sent, so the next request's line may come first.
      const requests = requestLines(lines).map(({ deployable, level, route }) => ({ deployable, level, route }));
      expect(requests.sort((a, b) => String(a.route).localeCompare(String(b.route)))).toEqual([
        { deployable: 'email-api', level: 20, route: '(unmatched)' },
        { deployable: 'email-api', level: 20, route: '/v1' },
      ]);
      expect(routeMap(lines).length).toBeGreaterThan(10);
      expect(routeMap(lines).every((line) => line.level === 20)).toBe(true);
    },
    90_000,
  );
});
