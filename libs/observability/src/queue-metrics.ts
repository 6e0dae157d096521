import type { Queue } from 'bullmq';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { withTimeout } from './with-timeout';

/** Prometheus registry with process metrics and a per-queue job-count gauge read at scrape time. */
export function createQueueMetrics(queues: Queue[]): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'bullmq_queue_jobs',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      // Bounded, so a scrape answers (503) instead of hanging while Redis is down.
      const counting = Promise.all(queues.map((q) => q.getJobCounts('wait', 'active', 'delayed', 'failed', 'prioritized')));
      const all = await withTimeout(counting, 2000, 'queue counts timed out');
      all.forEach((counts, i) => {
        for (const [state, count] of Object.entries(counts)) this.set({ queue: queues[i].name, state }, count);
      });
    },
  });
  return registry;
}
