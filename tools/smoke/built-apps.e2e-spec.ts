/**
 * Boots every deployable from its build output, as `npm start` and the containers do, so a missing
 * workspace dependency or a bootstrap error fails here rather than in production.
 */
import path from 'node:path';
import { adminCli, BuiltAppsEnvironment, builtAppsEnvironment, DEPLOYABLES, requireBuilt, root, startBuiltDeployable } from './built-deployable';

/**
 * Whether the port answers on 127.0.0.2: Linux routes all of 127/8 to the loopback interface, so a socket bound to
 * 0.0.0.0 answers there and one bound to 127.0.0.1 refuses, which tells the two apart without a second network.
 */
const answersBeyond127001 = (port: number) =>
  fetch(`http://127.0.0.2:${port}/healthz`).then(
    () => true,
    () => false,
  );

describe('built deployables', () => {
  let built: BuiltAppsEnvironment;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    requireBuilt([...DEPLOYABLES, 'admin-cli']);
    built = await builtAppsEnvironment();
    env = built.env;
  });

  afterAll(() => built?.drop());

  it.each(DEPLOYABLES)(
    '%s starts, reports ready on 127.0.0.1 only and exits cleanly on SIGTERM',
    async (name) => {
      const deployable = await startBuiltDeployable(name, env);
      const { port } = deployable;
      try {
        expect(await answersBeyond127001(port)).toBe(false);
        if (name === 'email-api') expect(((await (await fetch(`http://127.0.0.1:${port}/v1`)).json()) as { version: string }).version).toBe('v1');
        if (name === 'forms-api') {
          // The hosted page's script comes prebuilt with the lib (no bundler at run time).
          const built = (await import(path.join(root, 'libs/forms/hosted-page/dist/index.js'))) as typeof import('@forms/hosted-page');
          const script = await built.hostedFormScript();
          const served = await fetch(`http://127.0.0.1:${port}/f/assets/${script.fileName}`);
          expect({ status: served.status, body: await served.text() }).toEqual({ status: 200, body: script.body });
        }
        expect({ name, code: await deployable.stop(), output: deployable.output() }).toEqual({ name, code: 0, output: '' });
      } finally {
        deployable.child.kill('SIGKILL');
      }
    },
    60_000,
  );

  it.each(['email-api', 'forms-worker'])(
    "%s closes once when a terminal's Ctrl-C (SIGINT) is followed by npm start's SIGTERM",
    async (name) => {
      const deployable = await startBuiltDeployable(name, env);
      try {
        deployable.child.kill('SIGINT');
        deployable.child.kill('SIGTERM');
        expect({ name, code: await deployable.stop(), output: deployable.output() }).toEqual({ name, code: 0, output: '' });
      } finally {
        deployable.child.kill('SIGKILL');
      }
    },
    60_000,
  );

  it.each(['email-api', 'forms-worker'])(
    '%s binds every address when HOST=0.0.0.0 (as the containers set it)',
    async (name) => {
      const deployable = await startBuiltDeployable(name, { ...env, HOST: '0.0.0.0' });
      try {
        expect(await answersBeyond127001(deployable.port)).toBe(true);
        expect(await deployable.stop()).toBe(0);
      } finally {
        deployable.child.kill('SIGKILL');
      }
    },
    60_000,
  );

  it('email-api answers an MCP tool call from its build (the tool runs its route in-process through inject)', async () => {
    const { api_key: key } = await adminCli<{ api_key: string }>(env, 'create-workspace', '--name', 'MCP');
    const deployable = await startBuiltDeployable('email-api', env);
    try {
      const res = await fetch(`http://127.0.0.1:${deployable.port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'workspace_get', arguments: {} } }),
      });
      const body = (await res.json()) as { result?: { structuredContent?: { response?: { data?: { name?: string } } } } };
      expect({ status: res.status, name: body.result?.structuredContent?.response?.data?.name }).toEqual({ status: 200, name: 'MCP' });
      // Nothing on the console either: Node loads the ES-module-only dependency of inject without a warning.
      expect({ code: await deployable.stop(), output: deployable.output() }).toEqual({ code: 0, output: '' });
    } finally {
      deployable.child.kill('SIGKILL');
    }
  }, 60_000);

  it('admin CLI prints exactly the documented JSON', async () => {
    expect(Object.keys(await adminCli<object>(env, 'create-workspace', '--name', 'Built')).sort()).toEqual(['api_key', 'workspace_id']);
    const account = await adminCli<object>(env, 'forms:create-account', '--email', 'cli@example.com');
    expect(Object.keys(account).sort()).toEqual(['api_key', 'owner_id', 'workspace_id']);
  });
});
