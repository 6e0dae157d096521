/**
 * The stale-job sweep: an import or export whose record committed but whose queue add failed (Redis gone for a moment)
 * stays Queued; the sweep queues it again once it is over a minute old, under the record's id, so it runs once. Real
 * PostgreSQL, Redis and BullMQ.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmailQueues } from '@email/contracts';
import { EmailPrisma, Prisma } from '@email/data-access';
import { ImportRunner, unfinishedJobs } from '@email/jobs';
import { SUBSCRIBER_JOBS_REQUEUE_SCHEDULER } from '../src/subscriber-export.processor';
import { settled, useJobsWorker } from './worker.fixture';

const WS = 'wsp_requeue';
const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-requeue-worker-'));

describe('email-jobs-worker: jobs left Queued', () => {
  const jobs = useJobsWorker({ SUBSCRIBER_JOB_FILES_DIR: filesDir });
  let prisma: EmailPrisma;
  const queue = (name: string) => jobs.worker().app.get<Queue>(getQueueToken(name));

  beforeAll(async () => {
    prisma = jobs.prisma();
    await prisma.workspace.create({ data: { id: WS, name: 'Requeue' } });
  });

  afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

  /** Runs the sweep as its scheduler would, and returns what it queued again. */
  async function sweep(): Promise<unknown> {
    const job = await queue(EmailQueues.subscriberFilesCleanup).add(SUBSCRIBER_JOBS_REQUEUE_SCHEDULER, {});
    expect(await settled(job)).toBe('completed');
    return (await queue(EmailQueues.subscriberFilesCleanup).getJob(job.id!))!.returnvalue;
  }

  async function until(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** Whether the import has ended: a run passes through Processing on its way to Completed or Failed. */
  const importEnded = async (id: string) => ['Completed', 'Failed'].includes((await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id } })).status);

  it('queues again, under the record id, the jobs Queued for over a minute, and leaves recent ones to their own add', async () => {
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await prisma.subscriberExportJob.create({ data: { id: 'exp_stuck', workspace_id: WS, created_at: twoMinutesAgo } });
    await prisma.subscriberExportJob.create({ data: { id: 'exp_recent', workspace_id: WS } });
    const request = { mappings: [{ csv_column: 'email', field: { type: 'email' } }], tag_ids: [], new_tag_name: null, sequence_ids: [] };
    await prisma.subscriberImportJob.create({ data: { id: 'imp_stuck', workspace_id: WS, upload_id: 'imu_gone', request, created_at: twoMinutesAgo } });

    // Twice, as overlapping runs would (the scheduler's own run may also fall in between).
    await Promise.all([sweep(), sweep()]);
    await until(async () => (await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: 'exp_stuck' } })).status === 'Completed');
    await until(() => importEnded('imp_stuck'));

    expect(await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: 'exp_stuck' } })).toMatchObject({ status: 'Completed', exported_count: 0 });
    // The import ran (and failed on its missing upload, as any import would): it was queued, not lost.
    expect(await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: 'imp_stuck' } })).toMatchObject({
      status: 'Failed',
      error_message: expect.stringMatching(/no longer available/),
    });
    // Two sweeps, one queue job each: the queue job id is the record's id.
    const exportJob = await queue(EmailQueues.subscriberExport).getJob('exp_stuck');
    expect(exportJob?.data).toEqual({ workspaceId: WS, jobId: 'exp_stuck' });
    expect(exportJob?.attemptsStarted).toBe(1);
    expect(await queue(EmailQueues.subscriberExport).getJob('exp_recent')).toBeUndefined();
    expect((await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: 'exp_recent' } })).status).toBe('Queued');

    expect(await sweep()).toEqual({ imports: 0, exports: 0 });
  });

  it('runs again a job whose queue job failed for good while marking its record Failed failed too (the database down)', async () => {
    const request = { mappings: [{ csv_column: 'email', field: { type: 'email' } }], tag_ids: [], new_tag_name: null, sequence_ids: [] };
    await prisma.subscriberImportJob.create({
      data: { id: 'imp_orphaned', workspace_id: WS, upload_id: 'imu_gone', request, created_at: new Date(Date.now() - 120_000) },
    });
    const runner = jobs.worker().app.get(ImportRunner);
    const down = new Error("Can't reach database server at 127.0.0.1:5432");
    const run = jest.spyOn(runner, 'run').mockRejectedValueOnce(down);
    const giveUp = jest.spyOn(runner, 'giveUp').mockRejectedValueOnce(down);
    const failed = await queue(EmailQueues.subscriberImport).add('import', { workspaceId: WS, jobId: 'imp_orphaned' }, { jobId: 'imp_orphaned', attempts: 1 });
    expect(await settled(failed)).toBe('failed');
    await until(async () => giveUp.mock.calls.length === 1);
    // The worker lived through the failed give-up; the record is left Queued, and a plain re-add would be a no-op.
    expect((await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: 'imp_orphaned' } })).status).toBe('Queued');

    expect(await sweep()).toEqual({ imports: 1, exports: 0 });
    await until(() => importEnded('imp_orphaned'));
    expect(await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: 'imp_orphaned' } })).toMatchObject({
      status: 'Failed',
      error_message: expect.stringMatching(/no longer available/),
    });
    expect(run).toHaveBeenCalledTimes(2);
    expect((await queue(EmailQueues.subscriberImport).getJob('imp_orphaned'))?.attemptsStarted).toBe(2);
    expect(await sweep()).toEqual({ imports: 0, exports: 0 });
  });

  it('leaves alone a Processing job whose queue job is still running, and the sweep reads the unfinished jobs through the partial indexes', async () => {
    await prisma.subscriberExportJob.create({
      data: { id: 'exp_running', workspace_id: WS, status: 'Processing', created_at: new Date(Date.now() - 120_000) },
    });
    const running = await queue(EmailQueues.subscriberExport).add(
      'export',
      { workspaceId: WS, jobId: 'exp_running' },
      { jobId: 'exp_running', delay: 3_600_000 },
    );
    expect(await sweep()).toEqual({ imports: 0, exports: 0 });
    expect(await running.getState()).toBe('delayed');

    for (const table of ['subscriber_import_jobs', 'subscriber_export_jobs'] as const) {
      const plan = await prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
        return tx.$queryRaw<Array<{ 'QUERY PLAN': string }>>(Prisma.sql`EXPLAIN ${unfinishedJobs(table, new Date())}`);
      });
      expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain(`Index Scan using ${table}_unfinished_created_at_idx`);
    }
  });
});
