/**
 * Spreadsheet exports through the app session and the MCP tools: a signed-in owner starts an export with the
 * session's CSRF token, forms-worker's ExportRunner (run here from the export queue, as forms-worker runs it) writes
 * the workbook, the owner polls and downloads it, exceljs opens it. Refusals: no session, no CSRF token, another
 * workspace's form. The MCP export tools run the same service as the MCP caller. The payments integrations take the
 * session too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Module } from '@nestjs/common';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Worker } from 'bullmq';
import * as ExcelJS from 'exceljs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { APP_CONFIG, AppConfig, ConfigModule } from '@shared/config';
import { CoreModule, trustedWorkspaceId } from '@shared/core';
import { queuePrefix } from '@shared/queue';
import { listenOnLoopback, McpTestClients, uniqueQueuePrefix } from '@shared/testing';
import { FormsQueues } from '@forms/contracts';
import { FormsDataAccessModule } from '@forms/data-access';
import { ExportRunner, SubmissionExportsWorkerModule } from '@forms/exports';
import { OwnerSignIn } from '@forms/oauth';
import { formsApi, FormsApiHarness, twoStepDraft } from './helpers';
import { oauthClient } from './oauth-helpers';

@Module({})
class ExportWorkerSide {}

type Json = Record<string, unknown>;
type Structured = { operation_id: string; response?: { data: Json }; error?: { category: string; code: string; status: number } };

describe('forms-api: spreadsheet exports on the app session and the MCP tools', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'forms-exports-e2e-'));
  let h: FormsApiHarness;
  let origin: string;
  let o: ReturnType<typeof oauthClient>;
  let workerSide: INestApplicationContext;
  let worker: Worker;
  let formId: string;
  let cookie: string;
  let csrf: string;
  const mcp = new McpTestClients(addFormats(new Ajv2020({ strict: false, allErrors: true })));

  beforeAll(async () => {
    h = await formsApi({ QUEUE_PREFIX: uniqueQueuePrefix(), FORMS_UPLOAD_DIR: uploadDir, RATE_LIMIT_REQUESTS: '1000' });
    origin = await listenOnLoopback(h.app);
    o = oauthClient(origin);
    await h.app.get(OwnerSignIn).setPassword('owner@example.com', 'correct horse battery staple');

    // forms-worker's export job: its ExportRunner over the same queue, database and storage.
    workerSide = await NestFactory.createApplicationContext(
      { module: ExportWorkerSide, imports: [ConfigModule.forRoot(), CoreModule, FormsDataAccessModule, SubmissionExportsWorkerModule] },
      { logger: false },
    );
    const runner = workerSide.get(ExportRunner);
    const config = h.app.get<AppConfig>(APP_CONFIG);
    worker = new Worker<{ workspaceId: string; exportId: string }>(
      FormsQueues.formsExport,
      (job) => runner.run(trustedWorkspaceId(job.data.workspaceId), job.data.exportId),
      { connection: { url: config.redisUrl, maxRetriesPerRequest: null }, prefix: queuePrefix(config.queuePrefix, FormsQueues.formsExport) },
    );

    const created = await h
      .as()
      .post('/api/v1/forms')
      .send({ draftSchema: twoStepDraft('Export me') })
      .expect(201);
    formId = created.body.data.id;
    await h.as().post(`/api/v1/forms/${formId}/publish`).send({}).expect(200);
    for (const name of ['Ada', '=SUM(A1:A2)', 'Grace']) {
      await h.as().post(`/api/v1/forms/${formId}/submissions`).send({ fld_name: name, fld_email: 'p@example.com' }).expect(201);
    }
    cookie = await o.signIn('owner@example.com');
    csrf = ((await (await fetch(`${origin}/api/session`, { headers: { cookie } })).json()) as { csrfToken: string }).csrfToken;
  });

  afterAll(async () => {
    await mcp.close();
    await worker?.close();
    await workerSide?.close();
    await h?.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  const session = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${origin}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const exportsPath = (form = formId) => `/api/forms/${form}/responses/exports`;

  async function completed(path: string): Promise<Json> {
    for (let i = 0; i < 200; i++) {
      const view = ((await (await session('GET', path)).json()) as { data: Json }).data;
      if (view.status === 'completed' || view.status === 'failed') return view;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${path} did not finish`);
  }

  it('describes the signed-in session with its CSRF token, and refuses the export routes without a session', async () => {
    const described = (await (await fetch(`${origin}/api/session`, { headers: { cookie } })).json()) as Json;
    expect(described).toMatchObject({ owner: { id: h.main.ownerId, email: 'owner@example.com' }, csrfToken: csrf });
    // The per-credential rate limit counts the session's requests.
    expect((await session('GET', `${exportsPath()}/sxp_missing`)).headers.get('ratelimit-limit')).toBe('1000');
    expect((await fetch(`${origin}/api/session`)).status).toBe(401);
    const anonymous = await fetch(`${origin}${exportsPath()}/xlsx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([anonymous.status, ((await anonymous.json()) as { error: { code: string } }).error.code]).toEqual([401, 'sign_in_required']);
    // The API key is not this transport (spec §5 rule 6: app-session endpoints).
    await h.as().post(`${exportsPath()}/xlsx`).send({}).expect(401);
  });

  it('refuses a start without the CSRF token (403), or with another one, and writes nothing', async () => {
    const missing = await session('POST', `${exportsPath()}/xlsx`, {});
    expect([missing.status, ((await missing.json()) as { error: { code: string } }).error.code]).toEqual([403, 'csrf_token_invalid']);
    const wrong = await session('POST', `${exportsPath()}/xlsx`, {}, { 'x-csrf-token': 'A'.repeat(43) });
    expect(wrong.status).toBe(403);
  });

  it('starts an export, polls it to completed with the worker, and downloads a workbook exceljs opens, formulas neutralised', async () => {
    const started = await session('POST', `${exportsPath()}/xlsx`, { filters: { status: 'completed' } }, { 'x-csrf-token': csrf });
    expect(started.status).toBe(202);
    const view = ((await started.json()) as { data: Json }).data;
    expect(view).toMatchObject({ formId, status: 'queued' });
    const done = await completed(`${exportsPath()}/${view.id as string}`);
    expect(done).toMatchObject({ status: 'completed', rowCount: 3, fileName: expect.stringMatching(/\.xlsx$/) });

    const file = await session('GET', `${exportsPath()}/${view.id as string}/download`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${done.fileName as string}"; filename*=UTF-8''${done.fileName as string}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.read(Readable.from(Buffer.from(await file.arrayBuffer())));
    const cells = JSON.stringify(workbook.getWorksheet('Responses')!.getSheetValues());
    expect(cells).toContain('Ada');
    expect(cells).toContain('Grace');
    expect(cells).toContain("'=SUM(A1:A2)");
  });

  it("answers another workspace's form as a 404, like a missing one, and an unknown export as a 404", async () => {
    const other = await h.newAccount('someone-else@example.com');
    const theirs = await h
      .as(other.key)
      .post('/api/v1/forms')
      .send({ draftSchema: twoStepDraft('Theirs') })
      .expect(201);
    const res = await session('POST', `${exportsPath(theirs.body.data.id as string)}/xlsx`, {}, { 'x-csrf-token': csrf });
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([404, 'form_not_found']);
    const unknown = await session('GET', `${exportsPath()}/sxp_missing`);
    expect(unknown.status).toBe(404);
  });

  it('runs the MCP export tools through the same service, as the caller, each result holding to its output schema', async () => {
    const granted = await o.tokensFor('owner@example.com', 'http://127.0.0.1:9/cb', 'forms:read submissions:read', 'Exporter');
    const client = mcp.track(await o.mcp(granted.access_token));
    const tools = await mcp.listTools(client);
    const call = async (name: string, args: Json) => (await mcp.callChecked(client, name, args, name.replace('.', '_'))).structuredContent as Structured;
    expect(tools.find((tool) => tool.name === 'postline_create_submission_export')!._meta).toEqual({ 'postline/scopes': ['submissions:read'] });

    const started = await call('postline_create_submission_export', { formId, filters: { search: 'Grace' }, idempotencyKey: 'mcp-export-1' });
    const exportId = started.response!.data.id as string;
    const replay = await call('postline_create_submission_export', { formId, filters: { search: 'Grace' }, idempotencyKey: 'mcp-export-1' });
    expect(replay.response!.data.id).toBe(exportId);
    let status = '';
    for (let i = 0; i < 200 && status !== 'completed'; i++) {
      status = (await call('postline.get_submission_export', { formId, exportId })).response!.data.status as string;
      if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await call('postline_get_submission_export', { formId, exportId })).response!.data).toMatchObject({ status: 'completed', rowCount: 1 });
    expect((await call('postline_create_submission_export', { formId: 'frm_nowhere' })).error).toMatchObject({ category: 'request', status: 404 });
    expect((await call('postline_create_submission_export', { formId, selectedSubmissionIds: ['sbm_not_here'] })).error).toMatchObject({
      category: 'validation',
      code: 'unknown_submission',
    });
  });

  it('refuses NUL and unpaired surrogates in the MCP export tools’ arguments as the REST pipe does, naming the argument', async () => {
    const granted = await o.tokensFor('owner@example.com', 'http://127.0.0.1:9/cb', 'submissions:read', 'Exporter (bad input)');
    const client = mcp.track(await o.mcp(granted.access_token));
    await mcp.listTools(client);
    const cases: Array<[string, Json, string]> = [
      ['postline_create_submission_export', { formId: '\u0000' }, 'formId'],
      ['postline_create_submission_export', { formId: 'frm_\ud800' }, 'formId'],
      ['postline_create_submission_export', { formId, selectedSubmissionIds: ['\u0000'] }, 'selectedSubmissionIds[0]'],
      ['postline_create_submission_export', { formId, filters: { search: 'a\u0000' } }, 'filters.search'],
      ['postline_create_submission_export', { formId, idempotencyKey: '\u0000' }, 'idempotencyKey'],
      ['postline_get_submission_export', { formId, exportId: '\u0000' }, 'exportId'],
    ];
    for (const [name, args, field] of cases) {
      const result = await mcp.callChecked(client, name, args);
      expect({ field, isError: result.isError, ...(result.structuredContent as Structured) }).toMatchObject({
        field,
        isError: true,
        error: { category: 'validation', status: 400, code: 'invalid_characters', details: { details: { field } } },
      });
      expect(JSON.stringify(result)).not.toMatch(/prisma|invocation|\.js:/i);
    }
  });

  it('lets the signed-in owner manage payment integrations with the CSRF token (the bearer credential still works too)', async () => {
    const path = `/api/workspaces/${h.main.workspaceId}/integrations/razorpay`;
    const body = { key_id: 'rzp_test_abcdef123', key_secret: 'sk_abcdefghijklmnop1234' };
    expect((await session('PUT', path, body)).status).toBe(403);
    expect((await session('PUT', path, body, { 'x-csrf-token': csrf })).status).toBe(200);
    const read = await (await session('GET', path)).text();
    expect(read).toContain('rzp_test_abcdef123');
    expect(read).not.toContain(body.key_secret);
    await h.as().get(path).expect(200);
    expect((await fetch(`${origin}${path}`)).status).toBe(401);
    // An OAuth token approved for forms:read only reads the connection; replacing or removing it needs forms:publish.
    const reader = (await o.tokensFor('owner@example.com', 'http://127.0.0.1:9/cb', 'forms:read', 'Reader')).access_token;
    await h.as(reader).get(path).expect(200);
    const replaced = await h.as(reader).put(path).send({ key_id: 'rzp_test_attacker1', key_secret: 'attacker_secret_0123456789' }).expect(403);
    expect(replaced.body.error).toMatchObject({ code: 'insufficient_scope', missing_scopes: ['forms:publish'], credential_type: 'oauth_access_token' });
    await h.as(reader).delete(path).expect(403);
    expect(await (await session('GET', path)).text()).toContain('rzp_test_abcdef123');
  });
});
