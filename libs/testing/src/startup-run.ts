import { until } from './until';

type QueueCounts = { getJobCounts(...types: string[]): Promise<Record<string, number>> };

/**
 * Waits until the run a worker's job scheduler makes at start-up (an `every` scheduler's first job is due at once) has
 * finished, so it cannot act on rows a test seeds afterwards before the test's own job sees them.
 */
export async function afterStartupRun(queue: QueueCounts): Promise<void> {
  await until('the scheduled run at start-up', async () => {
    const counts = await queue.getJobCounts('waiting', 'active', 'prioritized', 'completed', 'failed');
    return counts.completed + counts.failed > 0 && counts.waiting + counts.active + counts.prioritized === 0;
  });
}
