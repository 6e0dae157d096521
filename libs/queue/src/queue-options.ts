import type { DefaultJobOptions } from 'bullmq';

/**
 * BullMQ key prefix with a per-queue hash tag, so every key of one queue lands in one Redis Cluster slot.
 * The wait list of a queue is then `{<prefix>:<queue>}:<queue>:wait` (what KEDA watches).
 */
export function queuePrefix(globalPrefix: string, queue: string): string {
  return `{${globalPrefix}:${queue}}`;
}

export const DEFAULT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};
