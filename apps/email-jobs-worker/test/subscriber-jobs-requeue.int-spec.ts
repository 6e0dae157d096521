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
import { EmailPrisma } from '@email/data-access';
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

  it('queues again, under the record id, the jobs Queued for over a minute, and leaves recent ones to their own add', async () => {
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await prisma.subscriberExportJob.create({ data: { id: 'exp_stuck', workspace_id: WS, created_at: twoMinutesAgo } });
    await prisma.subscriberExportJob.create({ data: { id: 'exp_recent', workspace_id: WS } });
    const request = { mappings: [{ csv_column: 'email', field: { type: 'email' } }], tag_ids: [], new_tag_name: null, sequence_ids: [] };
    await prisma.subscriberImportJob.create({ data: { id: 'imp_stuck', workspace_id: WS, upload_id: 'imu_gone', request, created_at: twoMinutesAgo } });

    // Twice, as overlapping runs would (the scheduler's own run may also fall in between).
    await Promise.all([sweep(), sweep()]);
    await until(async () => (await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: 'exp_stuck' } })).status === 'Completed');
    await until(async () => (await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: 'imp_stuck' } })).status !== 'Queued');

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
});
