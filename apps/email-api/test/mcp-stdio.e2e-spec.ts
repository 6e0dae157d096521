import { existsSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseStdioArgs, runStdioBridge } from '@shared/mcp';
import { EMAIL_STDIO_BRIDGE } from '@email/mcp';
import { emailApi, EmailApiHarness } from './helpers';

/** The bin as `npx postline-email-mcp` runs it: the lib's build output (npm test builds before it tests). */
const BIN = path.resolve(__dirname, '../../../libs/email/mcp/dist/stdio-main.js');

describe('email MCP over stdio (the local bridge to /mcp)', () => {
  let h: EmailApiHarness;
  let origin: string;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    h = await emailApi();
    await h.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(h.app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const close of closers) await close();
    await h.close();
  });

  async function bridged(args: string[], key: string | undefined): Promise<Client> {
    const [local, bridgeSide] = InMemoryTransport.createLinkedPair();
    const bridge = await runStdioBridge(parseStdioArgs(EMAIL_STDIO_BRIDGE, ['--url', origin, ...args], key ? { POSTLINE_API_KEY: key } : {}), bridgeSide);
    const client = new Client({ name: 'stdio-e2e', version: '1.0.0' });
    await client.connect(local);
    closers.push(
      () => client.close(),
      () => bridge.close(),
    );
    return client;
  }

  it('lists the server tools and runs a call with the key from the environment', async () => {
    const client = await bridged([], h.key);
    expect(client.getServerVersion()?.name).toBe('postline-email');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('subscribers_list');
    await h.as().post('/v1/subscribers').send({ email: 'stdio@example.com' }).expect(201);
    const result = (await client.callTool({ name: 'subscribers_list', arguments: { limit: 1 } })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ operation_id: 'listSubscribers', response: { data: [{ email: 'stdio@example.com' }] } });
  });

  it('passes the read-only selection on and fails a call without a key', async () => {
    const readOnly = await bridged(['--read-only'], h.key);
    expect((await readOnly.listTools()).tools.every((tool) => tool.annotations?.readOnlyHint)).toBe(true);
    const anonymous = await bridged([], undefined);
    await expect(anonymous.callTool({ name: 'workspace_get', arguments: {} })).rejects.toThrow(/missing_credential/);
  });

  it('runs as a process speaking MCP on stdin and stdout (the built bin)', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is not built: run npm test (it builds first)`);
    const client = new Client({ name: 'stdio-process-e2e', version: '1.0.0' });
    const env = { PATH: process.env.PATH ?? '', POSTLINE_API_KEY: h.key };
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--url', origin, '--toolsets', 'reporting'], env, stderr: 'pipe' }));
    closers.push(() => client.close());
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('workspace_get');
    expect(names).not.toContain('tags_create');
    const result = (await client.callTool({ name: 'workspace_get', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ operation_id: 'getWorkspace', response: { data: { id: h.workspaceId } } });
  });
});
