/**
 * The email-jobs-worker's engagement maintenance: on start it declares the daily job scheduler and runs once, making
 * the current and coming months' email_events partitions; a run drops the months past ENGAGEMENT_RETENTION_MONTHS and
 * counts stale engagement window counts again.
 * Real PostgreSQL, Redis and BullMQ.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { EmailPrisma } from '@email/data-access';
import { EmailQueues } from '@email/contracts';
import { afterStartupRun } from '@shared/testing';
import { ENGAGEMENT_MAINTENANCE_SCHEDULER } from '../src/engagement-maintenance.processor';
import { settled, useJobsWorker } from './worker.fixture';

/** The month `offset` months from the current one (UTC): its partition's name and its first day. */
function month(offset: number): { partition: string; firstDay: string } {
  const now = new Date();
  const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
  return { partition: `email_events_${firstDay.slice(0, 7).replace('-', '_')}`, firstDay };
}

describe('email-jobs-worker: engagement maintenance', () => {
  const jobs = useJobsWorker({ ENGAGEMENT_RETENTION_MONTHS: '25' });
  let queue: Queue;
  let prisma: EmailPrisma;

  beforeAll(() => {
    queue = jobs.worker().app.get<Queue>(getQueueToken(EmailQueues.engagementMaintenance));
    prisma = jobs.prisma();
  });

  const partitions = async () =>
    (
      await prisma.$queryRaw<Array<{ name: string }>>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'email_events'::regclass ORDER BY 1`
    ).map((row) => row.name);

  it('declares the daily scheduler and runs once at start, making this month and the next three', async () => {
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((scheduler) => [scheduler.key, scheduler.pattern, scheduler.tz])).toEqual([[ENGAGEMENT_MAINTENANCE_SCHEDULER, '17 3 * * *', 'UTC']]);

    await afterStartupRun(queue);
    const completed = await queue.getCompleted();
    expect(completed.map((job) => job.name)).toEqual([ENGAGEMENT_MAINTENANCE_SCHEDULER]);
    const expected = [0, 1, 2, 3].map(month);
    expect(await partitions()).toEqual(expected.map((ahead) => ahead.partition));
    expect(completed[0].returnvalue).toMatchObject({ ensured: expected.map((ahead) => ahead.firstDay), dropped: 0, windowsRefreshed: 0, windowsBusy: 0 });
  });

  it('drops the months past the configured retention and keeps the rest', async () => {
    // 25 months kept: the month holding the instant 25 months ago stays, the one before it goes.
    const [tooOld, kept] = [month(-26), month(-25)];
    for (const { firstDay } of [tooOld, kept]) await prisma.$executeRaw`SELECT email_events_ensure_partition(${firstDay}::date)`;
    expect(await partitions()).toEqual(expect.arrayContaining([tooOld.partition, kept.partition]));

    const job = await queue.add(ENGAGEMENT_MAINTENANCE_SCHEDULER, {});
    expect(await settled(job)).toBe('completed');
    const left = await partitions();
    expect(left).not.toContain(tooOld.partition);
    expect(left).toContain(kept.partition);
    expect((await queue.getJob(job.id!))?.returnvalue).toMatchObject({ dropped: 1 });
  });

  it('counts stale window counts again as of now', async () => {
    const day = 86_400_000;
    const ago = (ms: number) => new Date(Date.now() - ms);
    await prisma.workspace.create({ data: { id: 'wsp_worker_windows', name: 'windows' } });
    await prisma.subscriber.create({ data: { id: 'sub_worker_windows', workspace_id: 'wsp_worker_windows', email: 'windows@example.com' } });
    // Counted ten days ago, when the open 35 days back now was 25 days old; no event since.
    const [recent, aging] = [ago(5 * day), ago(35 * day)];
    for (const at of [recent, aging]) {
      await prisma.$executeRaw`SELECT email_events_ensure_partition(date_trunc('month', ${at}::timestamptz AT TIME ZONE 'UTC')::date)`;
      await prisma.$executeRaw`INSERT INTO email_events (workspace_id, subscriber_id, type, occurred_at) VALUES ('wsp_worker_windows', 'sub_worker_windows', 'opened', ${at})`;
    }
    await prisma.subscriberEngagement.create({
      data: {
        subscriber_id: 'sub_worker_windows',
        workspace_id: 'wsp_worker_windows',
        last_opened_at: recent,
        opens_30d: 2,
        opens_90d: 2,
        windows_as_of: ago(10 * day),
      },
    });

    const started = new Date();
    const job = await queue.add(ENGAGEMENT_MAINTENANCE_SCHEDULER, {});
    expect(await settled(job)).toBe('completed');
    expect((await queue.getJob(job.id!))?.returnvalue).toMatchObject({ windowsRefreshed: 1, windowsBusy: 0 });
    const row = await prisma.subscriberEngagement.findUniqueOrThrow({ where: { subscriber_id: 'sub_worker_windows' } });
    expect(row).toMatchObject({ opens_30d: 1, opens_90d: 2, clicks_30d: 0, clicks_90d: 0 });
    expect(row.windows_as_of.getTime()).toBeGreaterThanOrEqual(started.getTime());
  });
});
