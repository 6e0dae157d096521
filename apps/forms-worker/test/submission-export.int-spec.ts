/**
 * Spreadsheet exports end to end in forms-worker: SubmissionExportService starts an export (checked, stored, queued),
 * the worker streams the workbook into UploadStorage, and exceljs's reader opens it. Checks cells one by one, formula
 * neutralisation, the union of two published versions' fields, payment and metadata columns, selection by ids and by
 * filters, tenancy, expiry clean-up, and a rerun after a crash mid-write. Real PostgreSQL, Redis and BullMQ; 2,500
 * submissions span three of the worker's 1,000-row batches.
 */
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import type { Queue } from 'bullmq';
import * as ExcelJS from 'exceljs';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { FormsQueues } from '@forms/contracts';
import { FormsDataAccessModule, FormsPrisma } from '@forms/data-access';
import { exportFileKey, SubmissionExportService, SubmissionExportsModule, SubmissionExportsWorkerModule, SubmissionExportView } from '@forms/exports';
import { UploadStorage } from '@forms/submissions';
import type { RunningWorker } from '@shared/bootstrap';
import { ConfigModule } from '@shared/config';
import { CoreModule, trustedWorkspaceId } from '@shared/core';
import { DomainError } from '@shared/errors';
import { QueueModule } from '@shared/queue';
import { settled, useFormsWorker } from './worker.fixture';

const WS_A = trustedWorkspaceId('wrk_a');
const WS_B = trustedWorkspaceId('wrk_b');
const HOUR = 3_600_000;
const T0 = Date.parse('2026-10-01T00:00:00Z');

@Module({})
class ApiSideModule {}

const field = (id: string, type: string, label: string) => ({ id, type, label, required: false });
/** Version 1 asked for a nickname; version 2 dropped it and added a team size and a paid workshop seat. */
const VERSION_1 = { steps: [{ id: 'stp_1', fields: [field('fld_name', 'text', 'Name (v1)'), field('fld_nick', 'text', 'Nickname')] }] };
const VERSION_2 = {
  steps: [
    { id: 'stp_1', fields: [field('fld_intro', 'statement', 'Welcome'), field('fld_name', 'text', 'Name'), field('fld_size', 'number', 'Team size')] },
    { id: 'stp_2', fields: [{ ...field('fld_seat', 'payment', 'Workshop seat'), currency: 'EUR' }] },
  ],
};

/** The parts of a stored record an export reads, for submission number `n`. */
function record(n: number, version: 1 | 2, answers: Record<string, string | number>) {
  return {
    submission: {
      id: `sbm_${n}`,
      status: 'completed',
      payments: version === 2 ? [{ fieldId: 'fld_seat', amount: 4900, currency: 'EUR', status: 'unpaid' }] : [],
    },
    answers: Object.entries(answers).map(([fieldId, value]) => ({ fieldId, value, text: String(value) })),
  };
}

function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; field?: unknown }> {
  return promise.then(
    () => Promise.reject(new Error('accepted')),
    (error: DomainError) => ({ status: error.status, code: error.code, ...(error.details?.field ? { field: error.details.field } : {}) }),
  );
}

async function readWorkbook(stream: Readable): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.read(stream);
  const sheet = workbook.getWorksheet('Responses')!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('forms-worker: spreadsheet exports', () => {
  const fixture = useFormsWorker({ FORMS_EXPORT_TTL_HOURS: '24' });
  const { uploadDir } = fixture;
  let worker: RunningWorker;
  let api: INestApplicationContext;
  let service: SubmissionExportService;
  let prisma: FormsPrisma;

  beforeAll(async () => {
    worker = fixture.worker();
    api = await NestFactory.createApplicationContext(
      { module: ApiSideModule, imports: [ConfigModule.forRoot(), CoreModule, QueueModule.forRoot(), FormsDataAccessModule, SubmissionExportsModule] },
      { logger: false },
    );
    service = api.get(SubmissionExportService);
    prisma = api.get(FormsPrisma);

    for (const id of [WS_A, WS_B]) await prisma.workspace.create({ data: { id, name: id } });
    const form = (id: string, workspace_id: string) => ({
      id,
      workspace_id,
      title: id,
      status: 'published' as const,
      draft_schema: {},
      draft_updated_at: new Date(),
      public_id: `pub_${id}`,
      published_version: 2,
    });
    await prisma.form.createMany({ data: [form('frm_a', WS_A), form('frm_b', WS_B)] });
    await prisma.formVersion.createMany({
      data: [
        { form_id: 'frm_a', version: 1, schema: VERSION_1, published_at: new Date(T0) },
        { form_id: 'frm_a', version: 2, schema: VERSION_2, published_at: new Date(T0) },
        { form_id: 'frm_b', version: 1, schema: VERSION_1, published_at: new Date(T0) },
      ],
    });
    // 2,500 submissions an hour apart: the first 500 on version 1, the rest on version 2; a few carry formulas.
    const answersOf = (n: number): Record<string, string | number> => {
      if (n < 500) return { fld_name: n === 3 ? '=HYPERLINK("http://evil.example","x")' : `Person ${n}`, fld_nick: n === 4 ? '@nick' : `nick${n}` };
      return { fld_name: n === 600 ? '+1 555 0100' : `Person ${n}`, fld_size: n === 601 ? -5 : n };
    };
    const rows = Array.from({ length: 2500 }, (_, n) => ({
      id: `sbm_${String(n).padStart(5, '0')}`,
      form_id: 'frm_a',
      published_version: n < 500 ? 1 : 2,
      record: record(n, n < 500 ? 1 : 2, answersOf(n)),
      created_at: new Date(T0 + n * HOUR),
    }));
    await prisma.formSubmission.createMany({ data: rows });
    await prisma.formSubmission.create({
      data: { id: 'sbm_other', form_id: 'frm_b', published_version: 1, record: record(0, 1, { fld_name: 'Other tenant' }), created_at: new Date(T0) },
    });
  });

  afterAll(async () => {
    await api?.close();
  });

  async function finished(exportId: string, workspaceId = WS_A): Promise<SubmissionExportView> {
    for (let i = 0; i < 600; i++) {
      const view = await service.get(workspaceId, 'frm_a', exportId);
      if (view.status === 'completed' || view.status === 'failed') return view;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`export ${exportId} did not finish`);
  }

  async function exportedRows(exportId: string): Promise<unknown[][]> {
    return readWorkbook((await service.openDownload(WS_A, 'frm_a', exportId)).stream);
  }

  it('writes every submission, one column per field of the versions, numbers as numbers, formulas neutralised', async () => {
    const started = await service.start(WS_A, 'frm_a', {});
    expect(started).toMatchObject({ status: 'queued', formId: 'frm_a', fileName: null, selection: { selectedSubmissionIds: null } });
    const done = await finished(started.id);
    expect(done).toMatchObject({ status: 'completed', rowCount: 2500, error: null, fileName: `responses-frm_a-${done.completedAt!.slice(0, 10)}.xlsx` });
    expect(Date.parse(done.expiresAt!) - Date.parse(done.completedAt!)).toBe(24 * HOUR);

    const download = await service.openDownload(WS_A, 'frm_a', started.id);
    expect(download).toMatchObject({ fileName: done.fileName, size: done.fileSize });
    const rows = await readWorkbook(download.stream);
    expect(rows).toHaveLength(2501);
    expect(rows[0]).toEqual([
      'Submission ID',
      'Submitted at',
      'Status',
      'Name',
      'Team size',
      'Nickname',
      'Workshop seat (amount, minor units)',
      'Workshop seat (currency)',
      'Workshop seat (payment status)',
    ]);
    const at = (n: number) => new Date(T0 + n * HOUR).toISOString();
    // exceljs's reader leaves empty cells out of `values`: a version 1 row ends after its nickname.
    expect(rows[1]).toEqual(['sbm_00000', at(0), 'completed', 'Person 0', undefined, 'nick0']);
    expect(rows[4]).toEqual(['sbm_00003', at(3), 'completed', `'=HYPERLINK("http://evil.example","x")`, undefined, 'nick3']);
    expect(rows[5]).toEqual(['sbm_00004', at(4), 'completed', 'Person 4', undefined, "'@nick"]);
    expect(rows[601]).toEqual(['sbm_00600', at(600), 'completed', "'+1 555 0100", 600, undefined, 4900, 'EUR', 'unpaid']);
    expect(rows[602]).toEqual(['sbm_00601', at(601), 'completed', 'Person 601', -5, undefined, 4900, 'EUR', 'unpaid']);
    expect(rows[2500]).toEqual(['sbm_02499', at(2499), 'completed', 'Person 2499', 2499, undefined, 4900, 'EUR', 'unpaid']);
    // Every row once, in submission order, across the batches.
    expect(rows.slice(1).map((row) => row[0])).toEqual(Array.from({ length: 2500 }, (_, n) => `sbm_${String(n).padStart(5, '0')}`));
  });

  it('exports exactly the selected submissions, and refuses ids that are not submissions of the form', async () => {
    const started = await service.start(WS_A, 'frm_a', { selectedSubmissionIds: ['sbm_01000', 'sbm_00002'], filters: { search: 'nothing' } });
    expect(started.selection).toEqual({ selectedSubmissionIds: ['sbm_01000', 'sbm_00002'], filters: { search: null, status: null, from: null, to: null } });
    expect(await finished(started.id)).toMatchObject({ status: 'completed', rowCount: 2 });
    expect((await exportedRows(started.id)).slice(1).map((row) => row[0])).toEqual(['sbm_00002', 'sbm_01000']);

    expect(await refusal(service.start(WS_A, 'frm_a', { selectedSubmissionIds: ['sbm_00001', 'sbm_other'] }))).toEqual({
      status: 400,
      code: 'unknown_submission',
      field: 'selectedSubmissionIds[1]',
    });
    expect(await refusal(service.start(WS_A, 'frm_a', { filters: { from: 'yesterday' } }))).toEqual({
      status: 400,
      code: 'validation_failed',
      field: 'filters.from',
    });
  });

  it('exports what the filters match: time range, status, and search over answers', async () => {
    const ranged = await service.start(WS_A, 'frm_a', {
      filters: { status: 'completed', from: new Date(T0 + 10 * HOUR).toISOString(), to: new Date(T0 + 12 * HOUR).toISOString() },
    });
    expect(await finished(ranged.id)).toMatchObject({ rowCount: 3 });
    expect((await exportedRows(ranged.id)).slice(1).map((row) => row[0])).toEqual(['sbm_00010', 'sbm_00011', 'sbm_00012']);

    const searched = await service.start(WS_A, 'frm_a', { filters: { search: 'HYPERLINK' } });
    expect(await finished(searched.id)).toMatchObject({ rowCount: 1 });
    // Only the versions the selected rows use make columns: version 1 alone has no team size or payment.
    expect(await exportedRows(searched.id)).toEqual([
      ['Submission ID', 'Submitted at', 'Status', 'Name (v1)', 'Nickname'],
      ['sbm_00003', new Date(T0 + 3 * HOUR).toISOString(), 'completed', `'=HYPERLINK("http://evil.example","x")`, 'nick3'],
    ]);
  });

  it("keeps tenants apart: another workspace's form, export or file is a 404", async () => {
    expect(await refusal(service.start(WS_A, 'frm_b', {}))).toEqual({ status: 404, code: 'form_not_found' });
    const mine = await service.start(WS_A, 'frm_a', { selectedSubmissionIds: ['sbm_00001'] });
    await finished(mine.id);
    expect(await refusal(service.get(WS_B, 'frm_a', mine.id))).toEqual({ status: 404, code: 'submission_export_not_found' });
    expect(await refusal(service.openDownload(WS_B, 'frm_a', mine.id))).toEqual({ status: 404, code: 'submission_export_not_found' });
    expect(await refusal(service.start(WS_B, 'frm_a', {}))).toEqual({ status: 404, code: 'form_not_found' });
  });

  it('answers a repeated start with the same idempotency key with the same export, and refuses the key for another selection', async () => {
    const first = await service.start(WS_A, 'frm_a', { selectedSubmissionIds: ['sbm_00007'] }, { idempotencyKey: 'key-1' });
    const again = await service.start(WS_A, 'frm_a', { selectedSubmissionIds: ['sbm_00007'] }, { idempotencyKey: 'key-1' });
    expect(again.id).toBe(first.id);
    expect(await prisma.submissionExport.count({ where: { idempotency_key: 'key-1' } })).toBe(1);
    expect(await refusal(service.start(WS_A, 'frm_a', { selectedSubmissionIds: ['sbm_00008'] }, { idempotencyKey: 'key-1' }))).toEqual({
      status: 409,
      code: 'idempotency_key_reused',
    });
    expect(await finished(first.id)).toMatchObject({ rowCount: 1 });
  });

  it('leaves no export behind when its job cannot be queued', async () => {
    const queue = api.get<Queue>(getQueueToken(FormsQueues.formsExport));
    const before = await prisma.submissionExport.count();
    jest.spyOn(queue, 'add').mockRejectedValueOnce(new Error('Redis is unreachable'));
    await expect(service.start(WS_A, 'frm_a', {}, { idempotencyKey: 'key-2' })).rejects.toThrow('Redis is unreachable');
    expect(await prisma.submissionExport.count()).toBe(before);
    // The client's retry with the same key starts it for real.
    expect(await finished((await service.start(WS_A, 'frm_a', {}, { idempotencyKey: 'key-2' })).id)).toMatchObject({ status: 'completed', rowCount: 2500 });
  });

  it('refuses the download until the export completed, and once its file expired; the clean-up removes expired files', async () => {
    await prisma.submissionExport.create({ data: { id: 'sxp_waiting', workspace_id: WS_A, form_id: 'frm_a', updated_at: new Date() } });
    expect(await refusal(service.openDownload(WS_A, 'frm_a', 'sxp_waiting'))).toEqual({ status: 409, code: 'export_not_ready' });

    const old = await service.start(WS_A, 'frm_a', { selectedSubmissionIds: ['sbm_00009'] });
    const young = await service.start(WS_A, 'frm_a', { selectedSubmissionIds: ['sbm_00010'] });
    await finished(old.id);
    await finished(young.id);
    await prisma.submissionExport.update({ where: { id: old.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect(await refusal(service.openDownload(WS_A, 'frm_a', old.id))).toEqual({ status: 410, code: 'export_expired' });
    expect((await service.get(WS_A, 'frm_a', old.id)).fileName).toBeNull();

    const cleanup = worker.app.get<Queue>(getQueueToken(FormsQueues.formsExportCleanup));
    expect((await cleanup.getJobSchedulers()).map((scheduler) => scheduler.key)).toContain('remove-expired-exports');
    expect(await settled(await cleanup.add('remove-expired-exports', {}))).toBe('completed');
    expect(existsSync(join(uploadDir, exportFileKey('frm_a', old.id)))).toBe(false);
    expect(await prisma.submissionExport.findUnique({ where: { id: old.id } })).toMatchObject({ status: 'completed', file_key: null });
    expect(existsSync(join(uploadDir, exportFileKey('frm_a', young.id)))).toBe(true);
    expect((await exportedRows(young.id)).slice(1).map((row) => row[0])).toEqual(['sbm_00010']);
  });

  it('reruns an export a crash interrupted mid-write: the partial file is replaced by a whole workbook', async () => {
    // What a worker killed mid-write leaves: the row processing, half a file beside where the workbook goes.
    const id = 'sxp_crashed';
    await prisma.submissionExport.create({
      data: {
        id,
        workspace_id: WS_A,
        form_id: 'frm_a',
        status: 'processing',
        started_at: new Date(),
        selected_submission_ids: ['sbm_00005'],
        updated_at: new Date(),
      },
    });
    const path = join(uploadDir, exportFileKey('frm_a', id));
    mkdirSync(join(uploadDir, 'frm_a'), { recursive: true });
    writeFileSync(`${path}.partial`, 'PK\u0003\u0004 half a zip');
    await worker.app.get<Queue>(getQueueToken(FormsQueues.formsExport)).add('export', { workspaceId: WS_A, exportId: id }, { jobId: id });
    expect(await finished(id)).toMatchObject({ status: 'completed', rowCount: 1 });
    expect(existsSync(`${path}.partial`)).toBe(false);
    expect((await exportedRows(id)).slice(1).map((row) => row[0])).toEqual(['sbm_00005']);
  });

  it('retries a write that broke off, and records a helpful error once the attempts are spent', async () => {
    const storage = worker.app.select(SubmissionExportsWorkerModule).get(UploadStorage);
    const write = storage.write.bind(storage);
    const breakingOff = (source: Readable) => {
      let bytes = 0;
      const cut = new Transform({
        transform(chunk: Buffer, _encoding, next) {
          bytes += chunk.length;
          next(bytes > 2000 ? new Error('connection to storage lost') : null, chunk);
        },
      });
      source.pipe(cut);
      return cut;
    };
    const spy = jest.spyOn(storage, 'write').mockImplementationOnce((key, source, max) => write(key, breakingOff(source), max));
    const retried = await service.start(WS_A, 'frm_a', {});
    expect(await finished(retried.id)).toMatchObject({ status: 'completed', rowCount: 2500, error: null });
    expect(spy).toHaveBeenCalledTimes(2);
    expect((await exportedRows(retried.id)).length).toBe(2501);

    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    spy.mockImplementation(() => Promise.reject(full));
    const failing = await service.start(WS_A, 'frm_a', { selectedSubmissionIds: ['sbm_00001'] });
    const failed = await finished(failing.id);
    spy.mockRestore();
    expect(failed).toMatchObject({ status: 'failed', fileName: null });
    expect(failed.error).toBe("There was no room left to store the export file. Start a new export once the service's operators have fixed it.");
    expect(await refusal(service.openDownload(WS_A, 'frm_a', failing.id))).toEqual({ status: 409, code: 'export_not_ready' });
  });
});
