import { existsSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseStdioArgs, runStdioBridge } from '@shared/mcp';
import { FORMS_STDIO_BRIDGE } from '@forms/mcp';
import { formsApi, FormsApiHarness } from './helpers';

/** The bin as `npx postline-forms-mcp` runs it: the lib's build output (npm test builds before it tests). */
const BIN = path.resolve(__dirname, '../../../libs/forms/mcp/dist/stdio-main.js');

describe('forms MCP over stdio (the local bridge to /api/mcp)', () => {
  let h: FormsApiHarness;
  let origin: string;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    h = await formsApi();
    await h.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(h.app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const close of closers) await close();
    await h.close();
  });

  it('lists the server tools and runs a call with the key from the environment; without a key the call fails', async () => {
    const [local, bridgeSide] = InMemoryTransport.createLinkedPair();
    const bridge = await runStdioBridge(parseStdioArgs(FORMS_STDIO_BRIDGE, ['--url', origin], { POSTLINE_API_KEY: h.main.key }), bridgeSide);
    const client = new Client({ name: 'stdio-e2e', version: '1.0.0' });
    await client.connect(local);
    closers.push(
      () => client.close(),
      () => bridge.close(),
    );
    expect(client.getServerVersion()?.name).toBe('postline-forms');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('postline_list_workspaces');
    const result = (await client.callTool({ name: 'postline_list_workspaces', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({
      operation_id: 'postline_list_workspaces',
      response: { recommendedCreateWorkspaceId: h.main.workspaceId },
    });

    const [anonymousLocal, anonymousSide] = InMemoryTransport.createLinkedPair();
    const anonymousBridge = await runStdioBridge(parseStdioArgs(FORMS_STDIO_BRIDGE, ['--url', origin], {}), anonymousSide);
    const anonymous = new Client({ name: 'stdio-e2e', version: '1.0.0' });
    await anonymous.connect(anonymousLocal);
    closers.push(
      () => anonymous.close(),
      () => anonymousBridge.close(),
    );
    await expect(anonymous.callTool({ name: 'postline_list_workspaces', arguments: {} })).rejects.toThrow(/missing_credential/);
  });

  it('runs as a process speaking MCP on stdin and stdout (the built bin)', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is not built: run npm test (it builds first)`);
    const client = new Client({ name: 'stdio-process-e2e', version: '1.0.0' });
    const env = { PATH: process.env.PATH ?? '', POSTLINE_API_KEY: h.main.key };
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--url', origin], env, stderr: 'pipe' }));
    closers.push(() => client.close());
    const result = (await client.callTool({ name: 'postline_list_starter_templates', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ operation_id: 'postline_list_starter_templates', response: { data: expect.any(Array) } });
  });
});
