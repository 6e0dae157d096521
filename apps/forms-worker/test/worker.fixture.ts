import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningWorker, startWorker } from '@shared/bootstrap';
import { createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { QUEUES, WorkerModule } from '../src/worker.module';

/**
 * The forms-worker on a fresh forms database, queue prefix and file directory of its own, started before the file's
 * tests and stopped after them (its queues emptied first). `env` adds configuration.
 */
export function useFormsWorker(env: Record<string, string> = {}) {
  let db: TestDatabase;
  let worker: RunningWorker;
  const uploadDir = mkdtempSync(join(tmpdir(), 'forms-worker-'));

  beforeAll(async () => {
    db = await createTestDatabase('forms');
    Object.assign(process.env, {
      NODE_ENV: 'test',
      FORMS_DATABASE_URL: db.url,
      FORMS_UPLOAD_DIR: uploadDir,
      QUEUE_PREFIX: uniqueQueuePrefix(),
      HEALTH_PORT: '0',
      ...env,
    });
    worker = await startWorker(WorkerModule, { service: 'forms-worker-test', defaultHealthPort: 0, queues: QUEUES });
  });
  afterAll(async () => {
    for (const name of worker ? QUEUES : []) await worker.app.get<Queue>(getQueueToken(name)).obliterate({ force: true });
    await worker?.stop();
    await db?.drop();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  return { worker: () => worker, uploadDir };
}

/** Waits (up to 10 s) until the job completed or failed, and returns that state. */
export async function settled(job: Job): Promise<string> {
  for (let i = 0; i < 200 && !['completed', 'failed'].includes(await job.getState()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return job.getState();
}
