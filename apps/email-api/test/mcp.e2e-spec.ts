import { AddressInfo } from 'node:net';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { McpTestClients } from '@shared/testing';
import { ApiDescription, MCP_OPERATIONS } from '@email/platform';
import { document, saveConnection, smtpConnection } from './broadcasts-fixtures';
import { emailApi, EmailApiHarness } from './helpers';

interface Structured {
  operation_id: string;
  request_id: string;
  response?: { data?: unknown; pagination?: unknown };
  error?: { category: string; status: number; code: string; message: string; retryable: boolean };
}

describe('email-api: MCP endpoint (real MCP client over streamable HTTP)', () => {
  let h: EmailApiHarness;
  let base: string;
  const mcp = new McpTestClients(addFormats(new Ajv({ strict: false, allErrors: true })));

  beforeAll(async () => {
    h = await emailApi();
    await h.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(h.app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await mcp.close();
    await h.close();
  });

  /** A connected client; `key` undefined sends no credential, `query` selects toolsets or read-only mode. */
  const connect = (key: string | undefined, query = '', headers: Record<string, string> = {}): Promise<Client> =>
    mcp.connect(`${base}/mcp${query}`, key, headers);

  const listTools = (client: Client): Promise<Tool[]> => mcp.listTools(client);

  /** Calls a tool and holds its structuredContent to the tool's output schema. */
  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ result: CallToolResult; content: Structured }> {
    const result = await mcp.callChecked(client, name, args);
    return { result, content: result.structuredContent as unknown as Structured };
  }

  it('lists the tools without a credential, named and annotated as the contract says', async () => {
    const client = await connect(undefined);
    const tools = await listTools(client);
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['discovery_get_capabilities', 'subscribers_upsert', 'tags_create', 'subscribers_add_tag', 'subscribers_list']),
    );
    const list = tools.find((tool) => tool.name === 'subscribers_list')!;
    expect(list.annotations).toEqual({ title: 'List subscribers', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(list.inputSchema.properties).toHaveProperty('limit', expect.objectContaining({ type: 'integer', maximum: 100 }));
  });

  it('answers a tool call without a credential with 401 and a WWW-Authenticate challenge', async () => {
    const client = await connect(undefined);
    await listTools(client);
    await expect(client.callTool({ name: 'workspace_get', arguments: {} })).rejects.toMatchObject({ code: 401 });
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'workspace_get', arguments: {} } }),
    });
    expect(res.status).toBe(401);
    const origin = h.app.get<AppConfig>(APP_CONFIG).publicBaseUrl;
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    expect(await res.json()).toMatchObject({ error: { code: 'missing_credential' } });
  });

  it('runs the agent flow: capabilities, upsert a subscriber, create a tag, tag the subscriber, list with limit 1', async () => {
    const client = await connect(h.key);
    await listTools(client);
    const capabilities = await call(client, 'discovery_get_capabilities');
    expect(capabilities.result.isError).toBeFalsy();
    expect(capabilities.content.operation_id).toBe('getPublicApiCapabilities');
    const subscriber = await call(client, 'subscribers_upsert', { email: 'ada@example.com', name: 'Ada' });
    expect(subscriber.content.response?.data).toMatchObject({ email: 'ada@example.com' });
    const tag = await call(client, 'tags_create', { name: 'VIP' });
    const subscriberId = (subscriber.content.response!.data as { id: string }).id;
    const tagId = (tag.content.response!.data as { id: string }).id;
    const tagged = await call(client, 'subscribers_add_tag', { subscriber_id: subscriberId, tag_id: tagId });
    expect(tagged.result.isError).toBeFalsy();
    const page = await call(client, 'subscribers_list', { limit: 1 });
    expect(page.content.response).toMatchObject({ data: [expect.objectContaining({ id: subscriberId })], pagination: { has_more: false } });
  });

  it('refuses a bad credential with 401, the challenge and invalid_token', async () => {
    const client = await connect('mrk_not_a_real_key_000000');
    await listTools(client);
    await expect(client.callTool({ name: 'workspace_get', arguments: {} })).rejects.toMatchObject({ code: 401 });
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer mrk_not_a_real_key_000000' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'workspace_get', arguments: {} } }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", error="invalid_token"$/,
    );
  });

  it('serves the protected-resource metadata the challenge names, and tells a GET on /mcp to POST', async () => {
    const origin = h.app.get<AppConfig>(APP_CONFIG).publicBaseUrl;
    const res = await h.as('').get('/.well-known/oauth-protected-resource/mcp').expect(200);
    expect(res.body).toMatchObject({ resource: `${origin}/mcp`, bearer_methods_supported: ['header'] });
    expect(res.body.scopes_supported).toHaveLength(33);
    await h.as('').get('/mcp').expect(405).expect('allow', 'POST');
  });

  it('carries the category, status and code of a REST error, and refuses arguments it cannot place', async () => {
    const client = await connect(h.key);
    await listTools(client);
    const missing = await call(client, 'tags_get', { tag_id: 'tag_missing' });
    expect(missing.result.isError).toBe(true);
    expect(missing.content.error).toEqual({ category: 'unknown', status: 404, code: 'tag_not_found', message: expect.any(String), retryable: false });
    await call(client, 'tags_create', { name: 'Twice' });
    const taken = await call(client, 'tags_create', { name: 'Twice' });
    expect(taken.content.error).toMatchObject({ category: 'conflict', status: 409, code: 'tag_name_taken' });
    const invalid = await call(client, 'subscribers_upsert', { email: 'not-an-email' });
    expect(invalid.content.error).toMatchObject({ category: 'validation', status: 400 });
    const unplaced = await call(client, 'workspace_get', { colour: 'red' });
    expect(unplaced.content.error).toMatchObject({ category: 'validation', status: 400, code: 'invalid_tool_arguments' });
    // A lone surrogate cannot go into the route's path (REST answers such a path 400 invalid_path).
    const surrogate = await call(client, 'tags_get', { tag_id: '\ud800' });
    expect(surrogate.content.error).toMatchObject({
      category: 'validation',
      status: 400,
      code: 'invalid_tool_arguments',
      message: expect.stringContaining('tag_id'),
    });
    // The request id of the REST call is the one in the result.
    expect(missing.content.request_id).toMatch(/^req_/);
  });

  it('answers a preflight without a daily quota (sending_quota null) with a result its output schema accepts', async () => {
    await saveConnection(h.app, h.workspaceId, smtpConnection('edc_mcp_preflight', 2525));
    const broadcast = await h.as().post('/v1/broadcasts').send({ subject: 'Quota', body_document: document() }).expect(201);
    const client = await connect(h.key);
    await listTools(client);
    const preflight = await call(client, 'broadcasts_preflight', { broadcast_id: broadcast.body.data.id });
    expect(preflight.result.isError).toBeFalsy();
    expect(preflight.content.response?.data).toMatchObject({ sending_quota: null });
  });

  it('answers a scope the key lacks as a permission error of the REST route', async () => {
    const client = await connect(await h.keyWith(['tags:read']));
    await listTools(client);
    const refused = await call(client, 'subscribers_list', { limit: 1 });
    expect(refused.content.error).toMatchObject({ category: 'permission', status: 403, code: 'insufficient_scope' });
  });

  it('offers only the tools that change nothing in read-only mode, refuses the others and says so in capabilities', async () => {
    const client = await connect(h.key, '?read_only=true');
    const tools = await listTools(client);
    expect(tools.length).toBeGreaterThan(5);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((tool) => tool.name)).not.toContain('tags_create');
    const refused = await call(client, 'tags_create', { name: 'Nope' });
    expect(refused.content.error).toMatchObject({ category: 'permission', status: 403, code: 'mcp_read_only_filter_active' });
    expect((await h.as().get('/v1/tags?search=Nope').expect(200)).body.data).toEqual([]);
    const capabilities = await call(client, 'discovery_get_capabilities');
    const data = capabilities.content.response!.data as { mcp: Record<string, unknown>; resources: Array<{ operations: Array<{ operation_id: string }> }> };
    expect(data.mcp).toMatchObject({ active_toolsets: ['full_email_marketing_access'], read_only: true });
    expect(data.mcp.active_operation_ids).toEqual(tools.map((tool) => MCP_OPERATIONS.find((op) => op.toolName === tool.name)!.operationId));
    expect(data.resources.flatMap((r) => r.operations.map((o) => o.operation_id))).not.toContain('createTag');
  });

  it('selects toolsets per connection by query or header, and refuses an unknown one', async () => {
    const reporting = await listTools(await connect(h.key, '?toolsets=reporting'));
    expect(reporting.map((tool) => tool.name)).toContain('subscribers_list');
    expect(reporting.map((tool) => tool.name)).not.toContain('subscribers_upsert');
    const viaHeader = await connect(undefined, '', { 'mailrith-mcp-toolsets': 'outbound_webhooks' });
    const webhooks = (await viaHeader.listTools()).tools.map((tool) => tool.name);
    expect(webhooks).toContain('webhook_subscriptions_create');
    expect(webhooks).not.toContain('subscribers_list');
    const res = await fetch(`${base}/mcp?toolsets=nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'validation_failed', details: { field: 'toolsets' } } });
  });

  it('lists every tool of the submitted 55-tool profile whose operation the app serves', async () => {
    const listed = new Set((await listTools(await connect(undefined))).map((tool) => tool.name));
    const served = new Set((h.app.get(ApiDescription).operations as ReadonlyArray<{ operationId: string }>).map((op) => op.operationId));
    const submitted = MCP_OPERATIONS.filter((op) => op.submitted);
    expect(submitted).toHaveLength(55);
    const implemented = submitted.filter((op) => served.has(op.operationId));
    expect(implemented.filter((op) => !listed.has(op.toolName)).map((op) => op.toolName)).toEqual([]);
    const missing = submitted.filter((op) => !served.has(op.operationId)).map((op) => op.toolName);
    // Recorded for the issue: the tools that wait for their REST operation.
    console.info(`MCP submitted profile: ${implemented.length} of 55 tools present; missing: ${missing.join(', ') || 'none'}`);
    expect(implemented.length + missing.length).toBe(55);
  });

  it('answers every read tool that needs no argument with a result its output schema accepts', async () => {
    // Records in every list these tools read, so item schemas are exercised too.
    const field = await h
      .as()
      .post('/v1/custom-fields')
      .send({ label: 'Plan', type: 'Single Select', settings: { options: ['free', 'pro'] } });
    await h
      .as()
      .post('/v1/subscribers')
      .send({ email: 'reads@example.com', new_tags: ['Reader'], custom_fields: { [field.body.data.id]: 'pro' } })
      .expect(201);
    await h
      .as()
      .post('/v1/segments')
      .send({ name: 'Everyone', definition: { match: 'all', groups: [] } })
      .expect(201);
    const client = await connect(h.key);
    const reads = (await listTools(client)).filter((tool) => tool.annotations?.readOnlyHint && !tool.inputSchema.required?.length);
    expect(reads.length).toBeGreaterThan(10);
    const failed: string[] = [];
    for (const tool of reads) {
      const { result, content } = await call(client, tool.name);
      if (result.isError) failed.push(`${tool.name}: ${JSON.stringify(content.error)}`);
    }
    expect(failed).toEqual([]);
  });
});
