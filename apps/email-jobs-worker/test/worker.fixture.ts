import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { EmailPrisma } from '@email/data-access';
import { RunningWorker, startWorker } from '@shared/bootstrap';
import { createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { QUEUES, WorkerModule } from '../src/worker.module';

/**
 * The email-jobs-worker on a fresh email database and queue prefix of its own, started before the file's tests and
 * stopped after them (its queues emptied first). `env` adds configuration.
 */
export function useJobsWorker(env: Record<string, string> = {}) {
  let db: TestDatabase;
  let worker: RunningWorker;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    Object.assign(process.env, { NODE_ENV: 'test', EMAIL_DATABASE_URL: db.url, QUEUE_PREFIX: uniqueQueuePrefix(), HEALTH_PORT: '0', ...env });
    worker = await startWorker(WorkerModule, { service: 'email-jobs-worker-test', defaultHealthPort: 0, queues: QUEUES });
  });
  afterAll(async () => {
    for (const name of worker ? QUEUES : []) await worker.app.get<Queue>(getQueueToken(name)).obliterate({ force: true });
    await worker?.stop();
    await db?.drop();
  });

  return { worker: () => worker, prisma: () => worker.app.get(EmailPrisma) };
}

/** Waits (up to 10 s) until the job completed or failed, and returns that state. */
export async function settled(job: Job): Promise<string> {
  for (let i = 0; i < 200 && !['completed', 'failed'].includes(await job.getState()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return job.getState();
}
