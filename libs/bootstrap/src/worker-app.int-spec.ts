import { Injectable, Module } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Redis } from 'ioredis';
import { REDIS_CLIENT } from '@shared/redis';
import type { JobOf, QueueOf } from '@shared/queue';
import { uniqueQueuePrefix } from '@shared/testing';
import { READINESS_CHECKS } from './readiness';
import { RunningWorker, startWorker, workerImports } from './worker-app';

/** A queue of this test only: the bootstrap takes whatever queues a service names. */
const QUEUE = 'worker-app-test';
interface TestPayloads {
  [QUEUE]: { exportId: string };
}

const finished: string[] = [];

@Processor(QUEUE)
class SlowProcessor extends WorkerHost {
  async process(job: JobOf<TestPayloads, typeof QUEUE>): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 400));
    finished.push(job.id!);
    return 'done';
  }
}

@Injectable()
class QueueHandle {
  constructor(@InjectQueue(QUEUE) readonly queue: QueueOf<TestPayloads, typeof QUEUE>) {}
}

@Module({
  imports: workerImports(0, [QUEUE]),
  providers: [
    SlowProcessor,
    QueueHandle,
    { provide: READINESS_CHECKS, inject: [REDIS_CLIENT], useFactory: (redis: Redis) => [{ name: 'redis', check: () => redis.ping() }] },
  ],
})
class TestWorkerModule {}

describe('worker processes (real Redis + BullMQ)', () => {
  let worker: RunningWorker;

  beforeAll(async () => {
    Object.assign(process.env, { NODE_ENV: 'test', QUEUE_PREFIX: uniqueQueuePrefix(), HEALTH_PORT: '0' });
    worker = await startWorker(TestWorkerModule, { service: 'test-worker', defaultHealthPort: 0, queues: [QUEUE] });
  });

  afterAll(async () => {
    await worker?.stop();
  });

  const get = (path: string) => fetch(`http://127.0.0.1:${worker.healthPort}${path}`);

  it('serves health, readiness and queue metrics on its health port', async () => {
    expect((await get('/healthz')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { redis: 'ok' } });
    const metrics = await (await get('/metrics')).text();
    expect(metrics).toContain(`bullmq_queue_jobs{queue="${QUEUE}",state="wait"}`);
  });

  it('uses a hash-tagged key prefix per queue', async () => {
    const { queue } = worker.app.get(QueueHandle);
    expect(queue.opts.prefix).toBe(`{${process.env.QUEUE_PREFIX}:${QUEUE}}`);
  });

  it('finishes the active job before shutting down', async () => {
    const { queue } = worker.app.get(QueueHandle);
    const job = await queue.add('export', { exportId: 'exp_1' }, { jobId: 'exp_1' });
    for (let i = 0; i < 100 && !(await job.isActive()); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await job.isActive()).toBe(true);
    await worker.stop();
    expect(finished).toEqual(['exp_1']);
  });
});
