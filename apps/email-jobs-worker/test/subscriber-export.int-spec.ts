/**
 * The email-jobs-worker's subscriber exports and the clean-up of expired files: the CSV holds every standard column,
 * the tags and the custom fields by label, with formula-like cells neutralised; the selection (search, status, cold)
 * is the list's; the file expires and the clean-up deletes it, and expired uploads with theirs. Real PostgreSQL,
 * Redis and BullMQ; the export is one COPY statement whose selection values are inlined as quoted literals.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmailQueues } from '@email/contracts';
import { EmailPrisma } from '@email/data-access';
import { csvRecords, JobFilesCleanup } from '@email/jobs';
import { settled, useJobsWorker } from './worker.fixture';

const WS = 'wsp_export';
const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-export-worker-'));
const DAY = 86_400_000;

describe('email-jobs-worker: subscriber exports', () => {
  const jobs = useJobsWorker({ SUBSCRIBER_JOB_FILES_DIR: filesDir });
  let queue: Queue;
  let prisma: EmailPrisma;
  let sequence = 0;

  beforeAll(async () => {
    queue = jobs.worker().app.get<Queue>(getQueueToken(EmailQueues.subscriberExport));
    prisma = jobs.prisma();
    await prisma.workspace.create({ data: { id: WS, name: 'Exports' } });
    await prisma.customField.create({
      data: { id: 'cf_color', workspace_id: WS, label: 'Favorite color', label_key: 'favorite color', type: 'Text', options: [] },
    });
    await prisma.customField.create({
      data: { id: 'cf_sizes', workspace_id: WS, label: 'Sizes', label_key: 'sizes', type: 'Multi_Select', options: ['S', 'M'] },
    });
    await prisma.tag.create({ data: { id: 'tag_b', workspace_id: WS, name: 'Beta', name_key: 'beta' } });
    await prisma.tag.create({ data: { id: 'tag_a', workspace_id: WS, name: 'Alpha', name_key: 'alpha' } });
    const old = new Date(Date.now() - 200 * DAY);
    await prisma.subscriber.createMany({
      data: [
        {
          id: 'sub_1',
          workspace_id: WS,
          email: 'ann@example.com',
          name: '=HYPERLINK("http://evil")',
          country: 'DE',
          custom_fields: { cf_color: '+blue', cf_sizes: ['S', 'M'] },
        },
        { id: 'sub_2', workspace_id: WS, email: 'bob@example.com', name: 'Bob, "the" builder', status: 'Unsubscribed', subscribed_at: old },
        { id: 'sub_3', workspace_id: WS, email: 'cold@example.com', name: '@cold', subscribed_at: old },
        { id: 'sub_4', workspace_id: WS, email: 'clicker@example.com', name: 'Clicker', subscribed_at: old },
      ],
    });
    await prisma.subscriberTag.createMany({ data: ['tag_b', 'tag_a'].map((tag_id) => ({ workspace_id: WS, subscriber_id: 'sub_1', tag_id })) });
    await prisma.subscriberEngagement.create({
      data: { subscriber_id: 'sub_4', workspace_id: WS, last_clicked_at: new Date(Date.now() - 10 * DAY), windows_as_of: new Date() },
    });
  });

  afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

  async function exported(
    selection: { query?: string; status_filter?: 'Unsubscribed'; cold_only?: boolean } = {},
  ): Promise<{ rows: string[][]; jobId: string }> {
    const jobId = `exp_${++sequence}`;
    await prisma.subscriberExportJob.create({ data: { id: jobId, workspace_id: WS, ...selection } });
    expect(await settled(await queue.add('export', { workspaceId: WS, jobId }, { jobId }))).toBe('completed');
    const job = await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({
      status: 'Completed',
      file_name: `subscribers-${job.completed_at!.toISOString().slice(0, 10)}-${jobId}.csv`,
      expires_at: expect.any(Date),
    });
    const rows: string[][] = [];
    const file = createReadStream(path.join(filesDir, 'exports', WS, `${jobId}.csv`));
    for await (const record of csvRecords(file, { encoding: 'utf-8', delimiter: ',' }) as AsyncIterable<string[]>) rows.push(record);
    expect(job.exported_count).toBe(rows.length - 1);
    return { rows, jobId };
  }

  it('writes every standard column, the tags and the custom fields by label, neutralising formula-like cells', async () => {
    const { rows } = await exported();
    expect(rows[0]).toEqual([
      'id',
      'email',
      'name',
      'status',
      'country',
      'subscribed_at',
      'last_opened_at',
      'created_at',
      'updated_at',
      'tags',
      'Favorite color',
      'Sizes',
    ]);
    const ann = rows.find((row) => row[0] === 'sub_1')!;
    expect(ann.slice(1, 5)).toEqual(['ann@example.com', `'=HYPERLINK("http://evil")`, 'Active', 'DE']);
    expect(ann.slice(9)).toEqual(['Alpha, Beta', `'+blue`, 'S, M']);
    expect(rows.find((row) => row[0] === 'sub_2')![2]).toBe('Bob, "the" builder');
    expect(rows.find((row) => row[0] === 'sub_3')![2]).toBe(`'@cold`);
    expect(rows.length).toBe(5);
  });

  it('selects like the subscriber list (search, status), and cold as no human open or click in 90 days', async () => {
    expect((await exported({ query: 'BOB' })).rows.slice(1).map((row) => row[0])).toEqual(['sub_2']);
    expect((await exported({ status_filter: 'Unsubscribed' })).rows.slice(1).map((row) => row[0])).toEqual(['sub_2']);
    expect((await exported({ cold_only: true })).rows.slice(1).map((row) => row[0])).toEqual(['sub_2', 'sub_3']);
  });

  it('streams a large export', async () => {
    await prisma.subscriber.createMany({
      data: Array.from({ length: 12_000 }, (_, i) => ({ id: `sub_bulk_${String(i).padStart(5, '0')}`, workspace_id: WS, email: `bulk${i}@example.com` })),
    });
    const { rows } = await exported({ query: 'bulk' });
    expect(rows.length).toBe(12_001);
    expect(new Set(rows.slice(1).map((row) => row[0])).size).toBe(12_000);
  });

  it('matches a search with quotes and backslashes literally', async () => {
    await prisma.subscriber.create({ data: { id: 'sub_quote', workspace_id: WS, email: 'darcy@example.com', name: "D'Arcy \\ Smith" } });
    expect((await exported({ query: "'arcy \\" })).rows.slice(1).map((row) => row[0])).toEqual(['sub_quote']);
    expect((await exported({ query: "' OR '1'='1" })).rows.slice(1)).toEqual([]);
  });

  it('cleans up expired export files and uploads, keeping an upload whose import is still running', async () => {
    const { jobId } = await exported({ query: 'ann' });
    await prisma.subscriberExportJob.update({ where: { id: jobId }, data: { expires_at: new Date(Date.now() - 1000) } });
    mkdirSync(path.join(filesDir, 'imports', WS), { recursive: true });
    for (const [id, jobStatus] of [
      ['imu_done', 'Completed'],
      ['imu_running', 'Processing'],
    ] as const) {
      writeFileSync(path.join(filesDir, 'imports', WS, `${id}.csv`), 'email\n');
      await prisma.subscriberImportUpload.create({
        data: {
          id,
          workspace_id: WS,
          status: 'Queued',
          token_hash: id,
          link_expires_at: new Date(),
          expires_at: new Date(Date.now() - 1000),
          import_job_id: `imp_${id}`,
        },
      });
      await prisma.subscriberImportJob.create({ data: { id: `imp_${id}`, workspace_id: WS, upload_id: id, status: jobStatus, request: {} } });
    }
    expect(await jobs.worker().app.get(JobFilesCleanup).run()).toEqual({ exports: 1, uploads: 1 });
    expect(existsSync(path.join(filesDir, 'exports', WS, `${jobId}.csv`))).toBe(false);
    expect((await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: jobId } })).file_deleted_at).not.toBeNull();
    expect(existsSync(path.join(filesDir, 'imports', WS, 'imu_done.csv'))).toBe(false);
    expect(existsSync(path.join(filesDir, 'imports', WS, 'imu_running.csv'))).toBe(true);
    expect(await prisma.subscriberImportUpload.findMany({ where: { workspace_id: WS }, select: { id: true } })).toEqual([{ id: 'imu_running' }]);
  });
});
