/**
 * The email-jobs-worker's segment recounts: a queued job counts the segment with the audience engine and stores the
 * counts and their time on the segment row; a job for a segment deleted since does nothing. Real PostgreSQL, Redis
 * and BullMQ.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { EmailPrisma } from '@email/data-access';
import { EmailQueues } from '@email/contracts';
import { settled, useJobsWorker } from './worker.fixture';

describe('email-jobs-worker: segment recounts', () => {
  const jobs = useJobsWorker();
  let queue: Queue;
  let prisma: EmailPrisma;

  beforeAll(async () => {
    queue = jobs.worker().app.get<Queue>(getQueueToken(EmailQueues.segmentCounts));
    prisma = jobs.prisma();
    await prisma.workspace.create({ data: { id: 'wsp_counts', name: 'Counts' } });
    await prisma.subscriber.createMany({
      data: ['Active', 'Active', 'Unsubscribed', 'Active'].map((status, i) => ({
        id: `sub_counts_${i}`,
        workspace_id: 'wsp_counts',
        email: `c${i}@example.com`,
        status: status as 'Active' | 'Unsubscribed',
        country: i === 3 ? 'US' : 'DE',
      })),
    });
    const definition = { match: 'all', groups: [{ id: 'g', match: 'all', conditions: [{ id: 'eu', field: 'country', operator: 'in_region', value: 'EU' }] }] };
    await prisma.segment.create({ data: { id: 'seg_counts', workspace_id: 'wsp_counts', name: 'EU', name_key: 'eu', definition } });
  });

  /** The job's return value once it has settled. */
  async function finished(job: Job): Promise<unknown> {
    await settled(job);
    return (await queue.getJob(job.id!))?.returnvalue;
  }

  it('stores the counts and when they were taken', async () => {
    const before = await prisma.segment.findUniqueOrThrow({ where: { id: 'seg_counts' } });
    expect(before).toMatchObject({ total_count: 0, confirmed_count: 0, counts_refreshed_at: null });
    const job = await queue.add('recount', { workspaceId: 'wsp_counts', segmentId: 'seg_counts' });
    expect(await finished(job)).toEqual({ total: 3, confirmed: 2 });
    const after = await prisma.segment.findUniqueOrThrow({ where: { id: 'seg_counts' } });
    expect(after).toMatchObject({ total_count: 3, confirmed_count: 2, counts_refreshed_at: expect.any(Date) });
    expect(after.updated_at).toEqual(before.updated_at);
  });

  it('skips a segment that no longer exists, or belongs to another workspace', async () => {
    for (const data of [
      { workspaceId: 'wsp_counts', segmentId: 'seg_gone' },
      { workspaceId: 'wsp_other', segmentId: 'seg_counts' },
    ]) {
      expect(await finished(await queue.add('recount', data))).toEqual({ skipped: 'segment_deleted' });
    }
  });
});
