/**
 * Subscriber export jobs through the API: a create answers 202 Queued with its selection echoed, an Idempotency-Key
 * replays it, list and get are the workspace's own; a completed job's signed download_url serves the CSV until it
 * expires, and an altered, expired or cleaned-up link is a 404. The worker's side is
 * apps/email-jobs-worker/test/subscriber-export.int-spec.ts (here the worker's result is written directly).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { EmailPrisma } from '@email/data-access';
import { emailApi, EmailApiHarness } from './helpers';

describe('email-api: subscriber export jobs', () => {
  let api: EmailApiHarness;
  let filesDir: string;

  beforeAll(async () => {
    filesDir = mkdtempSync(path.join(tmpdir(), 'postline-export-jobs-'));
    api = await emailApi({ SUBSCRIBER_JOB_FILES_DIR: filesDir });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  it('queues an export with its selection echoed, replays it for the same Idempotency-Key, and lists summaries', async () => {
    const body = { query: 'example', status: 'Active', cold_only: true };
    const first = await api.as().post('/v1/jobs/subscriber-exports').set('idempotency-key', 'exp-1').send(body).expect(202);
    expect(first.body.data).toEqual({
      self: `/v1/jobs/subscriber-exports/${first.body.data.id}`,
      id: expect.stringMatching(/^exp_/),
      status: 'Queued',
      selection: { query: 'example', status: 'Active', cold_only: true },
      exported_count: null,
      file_name: null,
      download_url: null,
      expires_at: null,
      error_message: null,
      started_at: null,
      completed_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api.as().post('/v1/jobs/subscriber-exports').set('idempotency-key', 'exp-1').send(body).expect(202)).body).toEqual(first.body);
    const empty = await api.as().post('/v1/jobs/subscriber-exports').expect(202);
    expect(empty.body.data.selection).toEqual({ query: null, status: null, cold_only: false });
    const list = (await api.as().get('/v1/jobs/subscriber-exports').expect(200)).body.data;
    expect(list.map((job: { id: string }) => job.id)).toEqual([empty.body.data.id, first.body.data.id]);
    expect(Object.keys(list[0]).sort()).toEqual([
      'completed_at',
      'created_at',
      'expires_at',
      'exported_count',
      'id',
      'self',
      'started_at',
      'status',
      'updated_at',
    ]);
    const bad = await api.as().post('/v1/jobs/subscriber-exports').send({ status: 'Sleeping' }).expect(400);
    expect(bad.body.error.details.field).toBe('status');
    const other = await api.newWorkspace();
    await api.as(other.api_key).get(`/v1/jobs/subscriber-exports/${first.body.data.id}`).expect(404);
    await api
      .as(await api.keyWith(['subscribers:read']))
      .get('/v1/jobs/subscriber-exports')
      .expect(403);
  });

  it('serves a completed export behind its signed link until it expires', async () => {
    const { id } = (await api.as().post('/v1/jobs/subscriber-exports').expect(202)).body.data;
    const prisma = api.app.get(EmailPrisma);
    mkdirSync(path.join(filesDir, 'exports', api.workspaceId), { recursive: true });
    writeFileSync(path.join(filesDir, 'exports', api.workspaceId, `${id}.csv`), 'id,email\nsub_1,a@example.com\n');
    const expires = new Date(Date.now() + 3_600_000);
    await prisma.subscriberExportJob.update({
      where: { id },
      data: { status: 'Completed', exported_count: 1, file_name: `subscribers-${id}.csv`, completed_at: new Date(), expires_at: expires },
    });
    const job = (await api.as().get(`/v1/jobs/subscriber-exports/${id}`).expect(200)).body.data;
    expect(job).toMatchObject({ status: 'Completed', exported_count: 1, file_name: `subscribers-${id}.csv`, expires_at: expires.toISOString() });
    const url = new URL(job.download_url);
    expect(url.pathname).toBe(`/downloads/subscriber-exports/${id}`);
    const server = api.app.getHttpServer();
    const file = await request(server).get(`${url.pathname}${url.search}`).expect(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="subscribers-${id}.csv"`);
    expect(file.text).toBe('id,email\nsub_1,a@example.com\n');

    const signature = url.searchParams.get('signature')!;
    const altered = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    await request(server)
      .get(`${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${altered}`)
      .expect(404);
    await request(server)
      .get(`${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 1}&signature=${url.searchParams.get('signature')}`)
      .expect(404);
    await prisma.subscriberExportJob.update({ where: { id }, data: { file_deleted_at: new Date() } });
    await request(server).get(`${url.pathname}${url.search}`).expect(404);
    expect((await api.as().get(`/v1/jobs/subscriber-exports/${id}`).expect(200)).body.data).toMatchObject({ download_url: null, file_name: null });
  });
});
