import { AddressInfo } from 'node:net';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { injectRoute, InjectTarget } from '@shared/mcp';
import { McpTestClients } from '@shared/testing';
import { createFormsMcpServer, EXPORT_TOOLS, FORMS_TOOLS } from '@forms/mcp';
import { FormsMcpEndpoint } from '../src/http/mcp/mcp-endpoint';
import { formsApi, FormsApiHarness } from './helpers';
import { formWithStoredDraft, storeDraft } from './stored-draft.fixture';

interface Structured {
  operation_id: string;
  response?: Record<string, unknown> & { data?: Record<string, unknown> };
  error?: {
    category: string;
    status: number;
    code: string;
    message: string;
    retryable: boolean;
    recovery: { action: string };
    details?: Record<string, unknown>;
  };
}

describe('forms-api: MCP endpoint (real MCP client over streamable HTTP)', () => {
  let h: FormsApiHarness;
  let base: string;
  const mcp = new McpTestClients(addFormats(new Ajv2020({ strict: false, allErrors: true })), 'postline-forms-e2e');
  /** Every tool whose structuredContent a test has held to its output schema. */
  const checked = new Set<string>();

  beforeAll(async () => {
    h = await formsApi();
    await h.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(h.app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await mcp.close();
    await h.close();
  });

  async function connect(key: string | undefined): Promise<Client> {
    const client = await mcp.connect(`${base}/api/mcp`, key);
    await mcp.listTools(client);
    return client;
  }

  /** Calls a tool (by its name or its dotted alias) and holds its structuredContent to the tool's output schema. */
  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
    const canonical = name.replace('.', '_');
    const result = await mcp.callChecked(client, name, args, canonical);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    expect(Boolean(result.isError)).toBe('error' in result.structuredContent!);
    checked.add(canonical);
    return result.structuredContent as unknown as Structured;
  }

  const ok = (content: Structured) => {
    if (content.error) throw new Error(`${content.operation_id}: ${JSON.stringify(content.error)}`);
    return content.response!;
  };

  it('lists every tool without a credential, with the contract names, scopes, hints and schemas', async () => {
    const client = await connect(undefined);
    const tools = await mcp.listTools(client);
    const names = [...FORMS_TOOLS.map((spec) => `postline_${spec.tool}`), ...EXPORT_TOOLS.map((tool) => tool.name)];
    expect(tools.map((tool) => tool.name).sort()).toEqual(names.sort());
    expect(client.getServerVersion()?.name).toBe('postline-forms');
    const create = tools.find((tool) => tool.name === 'postline_create_form')!;
    expect(create.inputSchema.required).toEqual(['idempotencyKey']);
    expect(create._meta).toEqual({ 'postline/scopes': ['forms:create'] });
    const publish = tools.find((tool) => tool.name === 'postline_publish_form')!;
    expect(publish.inputSchema.required).toEqual(expect.arrayContaining(['formId', 'draftRevision']));
    expect(publish.inputSchema.properties).not.toHaveProperty('force');
    expect(tools.find((tool) => tool.name === 'postline_delete_field')!.annotations).toEqual({
      title: 'Delete a field',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tools.find((tool) => tool.name === 'postline_get_form')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const addField = JSON.stringify(tools.find((tool) => tool.name === 'postline_add_field')!.inputSchema);
    expect(addField).toContain('"single_choice"');
    expect(addField).not.toMatch(/payment|PaymentField/i);
  });

  it('answers tools/call without a credential with 401 and a challenge naming the protected-resource metadata', async () => {
    const client = await connect(undefined);
    await expect(client.callTool({ name: 'postline_list_workspaces', arguments: {} })).rejects.toMatchObject({ code: 401 });
    const res = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'postline_list_workspaces', arguments: {} } }),
    });
    expect(res.status).toBe(401);
    const origin = h.app.get<AppConfig>(APP_CONFIG).formsPublicBaseUrl;
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/api/mcp"`);
    const bad = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer fsk_not_a_real_key_00000000' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'postline_list_workspaces', arguments: {} } }),
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/resource_metadata="[^"]+\/api\/mcp", error="invalid_token"$/);
  });

  it('serves the RFC 9728 metadata naming this origin as the authorization server, and tells a GET to POST', async () => {
    const origin = h.app.get<AppConfig>(APP_CONFIG).formsPublicBaseUrl;
    const res = await fetch(`${base}/.well-known/oauth-protected-resource/api/mcp`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      resource: `${origin}/api/mcp`,
      authorization_servers: [origin],
      bearer_methods_supported: ['header'],
      scopes_supported: expect.arrayContaining(['forms:read', 'forms:create', 'forms:publish']),
    });
    const get = await fetch(`${base}/api/mcp`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('runs the agent flow: workspaces, idempotent create, a step and fields, validate, publish, publicUrl', async () => {
    const client = await connect(h.main.key);
    const workspaces = ok(await call(client, 'postline_list_workspaces'));
    expect(workspaces).toMatchObject({ defaultWorkspaceId: h.main.workspaceId, recommendedCreateWorkspaceId: h.main.workspaceId });
    expect(workspaces.workspaces).toEqual([expect.objectContaining({ id: h.main.workspaceId, role: 'owner', canCreateForms: true })]);

    const args = { idempotencyKey: 'agent-flow-1', workspaceId: workspaces.recommendedCreateWorkspaceId, title: 'Customer Intake' };
    const created = ok(await call(client, 'postline_create_form', args));
    expect(created).toMatchObject({ form: { title: 'Customer Intake', status: 'draft' }, draft_revision: 0, published_schema: null });
    expect(created.form).toEqual(created.data);
    const formId = created.data!.id as string;
    const replay = ok(await call(client, 'postline_create_form', args));
    expect(replay.data!.id).toBe(formId);
    expect((await h.as().get('/api/v1/forms').expect(200)).body.data).toHaveLength(1);
    const status = ok(await call(client, 'postline_get_create_form_status', { idempotencyKey: 'agent-flow-1' }));
    expect(status).toMatchObject({ idempotencyKey: 'agent-flow-1', status: 'created', form: { id: formId } });
    expect(ok(await call(client, 'postline_get_create_form_status', { idempotencyKey: 'never-used' }))).toEqual({
      idempotencyKey: 'never-used',
      status: 'unknown',
      form: null,
    });
    // The longest key there is, with characters a path must percent-encode.
    const longKey = `${'k'.repeat(250)}%/?#x`;
    const longCreated = ok(await call(client, 'postline_create_form', { ...args, idempotencyKey: longKey }));
    expect(ok(await call(client, 'postline_get_create_form_status', { idempotencyKey: longKey }))).toMatchObject({
      idempotencyKey: longKey,
      status: 'created',
      form: { id: longCreated.data!.id },
    });
    const reused = await call(client, 'postline_create_form', { ...args, title: 'Something else' });
    expect(reused.error).toMatchObject({ category: 'conflict', code: 'idempotency_key_reused' });

    const draft = ok(await call(client, 'postline.get_form', { formId }));
    expect(draft.draftValidation).toMatchObject({ valid: false, issues: [expect.objectContaining({ code: 'too_few' })] });
    const firstStep = (draft.draft_schema as { steps: Array<{ id: string }> }).steps[0].id;
    let revision = (draft.form as { draft_revision: number }).draft_revision;

    const step = ok(await call(client, 'postline_add_step', { formId, title: 'Contact', draftRevision: revision }));
    revision = step.draft_revision as number;
    const stepId = (step.step as { id: string }).id;
    for (const [target, field] of [
      [firstStep, { type: 'text', label: 'Your name', required: true }],
      [stepId, { type: 'email', label: 'Email', required: true }],
      [stepId, { type: 'single_choice', label: 'How did you hear about us?', options: [{ label: 'Search' }, { label: 'Friend' }] }],
    ] as const) {
      const added = ok(await call(client, 'postline_add_field', { formId, stepId: target, ...field, draftRevision: revision }));
      revision = added.draft_revision as number;
    }
    const validated = ok(await call(client, 'postline_validate_draft', { formId }));
    expect(validated).toEqual({ formId, draftRevision: revision, validation: { valid: true, issues: [] } });

    const published = ok(await call(client, 'postline_publish_form', { formId, draftRevision: validated.draftRevision }));
    expect(published.publicUrl).toMatch(/^https?:\/\/.+\/f\/pub_/);
    expect(published.publicUrl).toBe(published.public_url);
    const page = await h
      .as('')
      .get(new URL(published.publicUrl as string).pathname)
      .expect(200);
    expect(page.text).toContain('How did you hear about us?');
  });

  it('recommends no workspace when several are writable, and clones across workspaces the caller can reach', async () => {
    const multi = await h.newAccount('multi@example.com');
    const { workspace_id: second } = await h.accounts.createWorkspace(multi.ownerId, { name: 'Second' });
    await h.accounts.setMembership(h.main.workspaceId, multi.ownerId, 'viewer');
    const client = await connect(multi.key);
    const workspaces = ok(await call(client, 'postline_list_workspaces'));
    expect(workspaces).toMatchObject({ defaultWorkspaceId: multi.workspaceId, recommendedCreateWorkspaceId: null });
    expect(workspaces.workspaces).toEqual([
      expect.objectContaining({ id: multi.workspaceId, canCreateForms: true }),
      expect.objectContaining({ id: second, canCreateForms: true }),
      expect.objectContaining({ id: h.main.workspaceId, role: 'viewer', canCreateForms: false }),
    ]);
    const ambiguous = await call(client, 'postline_create_form', { idempotencyKey: 'multi-1', title: 'Where?' });
    expect(ambiguous.error).toMatchObject({ category: 'validation', code: 'workspace_required', recovery: { action: 'fix_arguments' } });

    const owned = ok(await call(await connect(h.main.key), 'postline_create_form', { idempotencyKey: 'shared-1', title: 'Shared' }));
    const copy = ok(await call(client, 'postline_clone_form', { formId: owned.data!.id, workspaceId: second }));
    expect(copy.form).toMatchObject({ workspace_id: second, title: 'Shared (copy)' });
    const viewerOnly = await call(client, 'postline_clone_form', { formId: owned.data!.id, workspaceId: h.main.workspaceId });
    expect(viewerOnly.error).toMatchObject({ category: 'permission', code: 'insufficient_role' });
  });

  it('moves a field into another step named by stepId (the route’s own body field, not renamed)', async () => {
    const client = await connect(h.main.key);
    const formId = ok(await call(client, 'postline_create_form', { idempotencyKey: 'move-field-1', title: 'Move' })).data!.id as string;
    const firstStep = (ok(await call(client, 'postline_get_form', { formId })).draft_schema as { steps: Array<{ id: string }> }).steps[0].id;
    const secondStep = ok(await call(client, 'postline_add_step', { formId, title: 'Two', draftRevision: 0 })).step as { id: string };
    const added = ok(await call(client, 'postline_add_field', { formId, stepId: firstStep, type: 'text', label: 'Moving', draftRevision: 1 }));
    const fieldId = (added.field as { id: string }).id;

    ok(await call(client, 'postline_move_field', { formId, fieldId, stepId: secondStep.id, position: 0, draftRevision: 2 }));
    const steps = (ok(await call(client, 'postline_get_form', { formId })).draft_schema as { steps: Array<{ id: string; fields: Array<{ id: string }> }> })
      .steps;
    expect(steps.map((step) => step.fields.map((field) => field.id))).toEqual([[], [fieldId]]);
  });

  it('refuses a stale draftRevision as a conflict with the current revision and recovery advice', async () => {
    const client = await connect(h.main.key);
    const formId = ok(await call(client, 'postline_create_form', { idempotencyKey: 'stale-1', title: 'Stale' })).data!.id as string;
    ok(await call(client, 'postline_add_step', { formId, title: 'Two', draftRevision: 0 }));
    const stale = await call(client, 'postline_add_step', { formId, title: 'Three', draftRevision: 0 });
    expect(stale.error).toMatchObject({
      category: 'conflict',
      status: 409,
      code: 'stale_draft_revision',
      retryable: false,
      recovery: { action: 'reload_and_retry' },
      details: { current_draft_revision: 1 },
    });
    const publish = await call(client, 'postline_publish_form', { formId });
    expect(publish.error).toMatchObject({
      category: 'validation',
      code: 'invalid_tool_arguments',
      message: 'draftRevision is required.',
      details: { details: { field: 'draftRevision' } },
    });

    // update_field reads the draft first (payment fields): an older revision and one the draft never reached are conflicts
    // too, and a malformed one gets the route's own answer.
    const stepId = (ok(await call(client, 'postline_get_form', { formId })).draft_schema as { steps: Array<{ id: string }> }).steps[0].id;
    const fieldId = (ok(await call(client, 'postline_add_field', { formId, stepId, type: 'text', label: 'Q' })).field as { id: string }).id;
    for (const draftRevision of [0, 99]) {
      const edit = await call(client, 'postline_update_field', { formId, fieldId, label: 'Changed', draftRevision });
      // The same answer whether the route or the tool itself gives it.
      expect([draftRevision, edit.error]).toMatchObject([
        draftRevision,
        {
          status: 409,
          code: 'stale_draft_revision',
          message: `The draft is at revision 2, not ${draftRevision}. Reload the form, reapply your change and send the current draft_revision.`,
          details: { details: { field: 'draft_revision' }, current_draft_revision: 2 },
        },
      ]);
    }
    const malformed = await call(client, 'postline_update_field', { formId, fieldId, label: 'Changed', draftRevision: 'two' });
    expect(malformed.error).toMatchObject({ status: 400, code: 'validation_failed' });
    ok(await call(client, 'postline_update_field', { formId, fieldId, label: 'Changed', draftRevision: 2 }));
  });

  it('answers a scope the key lacks as a permission error, and another workspace’s form as not found', async () => {
    const readOnly = await connect(await h.keyWith(h.main.ownerId, ['forms:read']));
    const refused = await call(readOnly, 'postline_create_form', { idempotencyKey: 'no-scope', title: 'Nope' });
    expect(refused.error).toMatchObject({ category: 'permission', status: 403, code: 'insufficient_scope', recovery: { action: 'request_access' } });
    expect(refused.error!.details).toMatchObject({ missing_scopes: ['forms:create'] });

    const mine = await connect(h.main.key);
    const formId = ok(await call(mine, 'postline_create_form', { idempotencyKey: 'private-1', title: 'Private' })).data!.id as string;
    const stranger = await connect((await h.newAccount('stranger@example.com')).key);
    for (const [tool, args] of [
      ['postline_get_form', { formId }],
      ['postline_delete_form', { formId }],
      ['postline_clone_form', { formId }],
      ['postline_list_submissions', { formId }],
    ] as const) {
      const answer = await call(stranger, tool, args);
      expect(answer.error).toMatchObject({ category: 'request', status: 404, code: 'form_not_found' });
    }
    expect(ok(await call(mine, 'postline_get_form', { formId })).data).toMatchObject({ id: formId });
  });

  it('keeps payment fields out and refuses arguments it cannot place', async () => {
    const client = await connect(h.main.key);
    const formId = ok(await call(client, 'postline_create_form', { idempotencyKey: 'pay-1' })).data!.id as string;
    const stepId = (ok(await call(client, 'postline_get_form', { formId })).draft_schema as { steps: Array<{ id: string }> }).steps[0].id;
    const payment = await call(client, 'postline_add_field', { formId, stepId, type: 'payment', label: 'Pay', amount: 500 });
    expect(payment.error).toMatchObject({ category: 'validation', code: 'payment_fields_not_available' });
    const inDraft = await call(client, 'postline_create_form', {
      idempotencyKey: 'pay-2',
      draftSchema: { steps: [{ title: 'S', fields: [{ type: 'payment', label: 'Pay', amount: 500 }] }] },
    });
    expect(inDraft.error).toMatchObject({ code: 'payment_fields_not_available' });

    // A payment field added in the app is not changed here either; the form's other fields are.
    const paid = await formWithStoredDraft(h, {
      steps: [
        {
          title: 'Pay',
          fields: [
            { id: 'fld_name', type: 'text', label: 'Name' },
            { id: 'fld_pay', type: 'payment', label: 'Deposit', currency: 'USD', amount: { type: 'fixed', value: 500 } },
          ],
        },
      ],
    });
    const edited = await call(client, 'postline_update_field', { formId: paid, fieldId: 'fld_pay', label: 'Booking deposit' });
    expect(edited.error).toMatchObject({
      category: 'validation',
      code: 'payment_fields_not_available',
      message: expect.stringContaining('fld_pay is a payment field'),
      details: { field: 'fieldId' },
    });
    ok(await call(client, 'postline_update_field', { formId: paid, fieldId: 'fld_name', label: 'Your name' }));
    const fields = (ok(await call(client, 'postline_get_form', { formId: paid })).draft_schema as { steps: Array<{ fields: Array<{ label: string }> }> })
      .steps[0].fields;
    expect(fields.map((field) => field.label)).toEqual(['Your name', 'Deposit']);
    const unknown = await call(client, 'postline_get_form', { formId, colour: 'red' });
    expect(unknown.error).toMatchObject({ category: 'validation', code: 'invalid_tool_arguments', message: 'Unknown argument(s): colour.' });
    // A lone surrogate cannot go into the route's path (REST answers such a path 400 invalid_path).
    const surrogate = await call(client, 'postline_get_form', { formId: '\ud800' });
    expect(surrogate.error).toMatchObject({ category: 'validation', status: 400, code: 'invalid_tool_arguments', details: { details: { field: 'formId' } } });
    await expect(client.callTool({ name: 'postline_no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("refuses update_field on a field another writer made a payment field between the tool's read and its write", async () => {
    const draft = (field: object) => ({ steps: [{ title: 'Pay', fields: [{ id: 'fld_x', label: 'Deposit', ...field }] }] });
    const payment = draft({ type: 'payment', currency: 'USD', amount: { type: 'fixed', value: 500 } });
    const fastify = h.app.getHttpAdapter().getInstance() as unknown as InjectTarget;
    for (const extra of [{}, { force: true }]) {
      const formId = await formWithStoredDraft(h, draft({ type: 'text' }));
      let reads = 0;
      const server = createFormsMcpServer({
        tools: h.app.get(FormsMcpEndpoint).allTools,
        authorization: `Bearer ${h.main.key}`,
        invoke: async (route) => {
          const answer = await injectRoute(fastify, route);
          if (route.method === 'GET' && ++reads === 1) await storeDraft(h, formId, payment);
          return answer;
        },
        newRequestId: () => `req_${reads}`,
        version: 'v1',
      });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = mcp.track(new Client({ name: 'postline-forms-race', version: '1.0.0' }));
      await client.connect(clientSide);
      const result = (await client.callTool({
        name: 'postline_update_field',
        arguments: { formId, fieldId: 'fld_x', label: 'Changed', ...extra },
      })) as CallToolResult;
      expect([extra, (result.structuredContent as unknown as Structured).error]).toMatchObject([
        extra,
        { code: 'payment_fields_not_available', details: { field: 'fieldId' } },
      ]);
      expect(reads).toBe(2);
      const stored = (await h.as().get(`/api/v1/forms/${formId}`).expect(200)).body.draft_schema.steps[0].fields[0];
      expect(stored).toMatchObject({ type: 'payment', label: 'Deposit' });
    }
  });

  it('runs every other tool with a result its output schema accepts', async () => {
    const client = await connect(h.main.key);
    const capabilities = ok(await call(client, 'postline_get_capabilities'));
    expect(capabilities).toMatchObject({ owner: { id: h.main.ownerId }, api_key: { scopes: expect.arrayContaining(['forms:create']) } });
    const templates = ok(await call(client, 'postline_list_starter_templates'));
    expect((templates.data as unknown as Array<{ id: string }>).map((t) => t.id)).toEqual(
      expect.arrayContaining(['lead_capture', 'customer_feedback', 'nps_survey', 'event_registration', 'job_application', 'product_match_quiz']),
    );
    const fromTemplate = ok(await call(client, 'postline_create_form_from_starter_template', { templateId: 'nps_survey', idempotencyKey: 'tpl-1' }));
    expect(fromTemplate.form).toMatchObject({ title: 'How likely are you to recommend us?' });
    const formId = fromTemplate.data!.id as string;
    const missing = await call(client, 'postline_create_form_from_starter_template', { templateId: 'nope' });
    expect(missing.error).toMatchObject({ category: 'request', code: 'starter_template_not_found' });
    expect(ok(await call(client, 'postline_validate_draft', { formId })).validation).toEqual({ valid: true, issues: [] });

    const clone = ok(await call(client, 'postline_clone_form', { formId, idempotencyKey: 'clone-1' }));
    expect(clone.form).toMatchObject({ title: 'How likely are you to recommend us? (copy)', status: 'draft' });
    expect(clone.draft_schema).toMatchObject({ steps: (fromTemplate.draft_schema as { steps: unknown[] }).steps });
    const listed = ok(await call(client, 'postline_list_workspace_forms', { limit: 5 }));
    expect((listed.data as unknown as unknown[]).length).toBeGreaterThanOrEqual(2);

    const form = ok(await call(client, 'postline_get_form', { formId }));
    let revision = (form.form as { draft_revision: number }).draft_revision;
    const steps = (form.draft_schema as { steps: Array<{ id: string; fields: Array<{ id: string }> }> }).steps;
    const edit = async (tool: string, args: Record<string, unknown>) => {
      const response = ok(await call(client, tool, { formId, ...args, draftRevision: revision }));
      revision = response.draft_revision as number;
      return response;
    };
    const second = (await edit('postline_add_step', { title: 'Details', position: 1 })).step as { id: string };
    await edit('postline_update_step', { stepId: second.id, title: 'More details' });
    await edit('postline_reorder_steps', { stepIds: [second.id, steps[0].id] });
    await edit('postline_move_step', { stepId: second.id, position: 1 });
    const a = (await edit('postline_add_field', { stepId: second.id, type: 'text', label: 'A' })).field as { id: string };
    const b = (await edit('postline_add_field', { stepId: second.id, type: 'number', label: 'B' })).field as { id: string };
    await edit('postline_update_field', { fieldId: a.id, label: 'A, renamed', required: true });
    await edit('postline_reorder_fields', { stepId: second.id, fieldIds: [b.id, a.id] });
    await edit('postline_move_field', { fieldId: b.id, position: 1 });
    await edit('postline_update_step_logic', { stepId: steps[0].id, rules: [], fallbackTarget: 'end' });
    await edit('postline_patch_design', { theme: { primaryColor: '#0ea5e9' } });
    await edit('postline_delete_field', { fieldId: b.id });
    await edit('postline_delete_step', { stepId: second.id });
    const draft = ok(await call(client, 'postline_get_form', { formId }));
    ok(
      await call(client, 'postline_save_draft', {
        formId,
        draftSchema: draft.draft_schema,
        draftRevision: (draft.form as { draft_revision: number }).draft_revision,
      }),
    );

    const published = ok(await call(client, 'postline_publish_form', { formId, draftRevision: revision + 1 }));
    const fieldId = (published.published_schema as { steps: Array<{ fields: Array<{ id: string }> }> }).steps[0].fields[0].id;
    await h
      .as()
      .post(`/api/v1/forms/${formId}/submissions`)
      .send({ [fieldId]: 9 })
      .expect(201);
    const submissions = ok(await call(client, 'postline_list_submissions', { formId, limit: 10 }));
    const submissionId = (submissions.data as unknown as Array<{ submission: { id: string } }>)[0].submission.id;
    expect(ok(await call(client, 'postline_get_submission', { formId, submissionId })).data).toMatchObject({ submission: { id: submissionId } });
    expect(ok(await call(client, 'postline_delete_form', { formId: clone.data!.id }))).toEqual({ ok: true, id: clone.data!.id });
    expect(ok(await call(client, 'postline_get_create_form_status', { idempotencyKey: 'clone-1' }))).toMatchObject({ status: 'deleted', form: null });

    // With the tests above, every route tool's structuredContent has been held to its output schema (the export tools' in exports.e2e-spec).
    expect([...checked].sort()).toEqual(FORMS_TOOLS.map((spec) => `postline_${spec.tool}`).sort());
  });
});
