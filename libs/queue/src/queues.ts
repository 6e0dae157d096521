import type { DefaultJobOptions } from 'bullmq';

/** Every queue of both services, named once. */
export const Queues = {
  broadcastPrepare: 'broadcast-prepare',
  broadcastDeliver: 'broadcast-deliver',
  subscriberImport: 'subscriber-import',
  subscriberExport: 'subscriber-export',
  analyticsReport: 'analytics-report',
  workflowTick: 'workflow-tick',
  webhookFanout: 'webhook-fanout',
  webhookDeliver: 'webhook-deliver',
  formsExport: 'forms-export',
  formsUploadCleanup: 'forms-upload-cleanup',
} as const;

export type QueueName = (typeof Queues)[keyof typeof Queues];

/** Which worker consumes which queues. */
export const WorkerQueues = {
  'email-send-worker': [Queues.broadcastPrepare, Queues.broadcastDeliver],
  'email-jobs-worker': [Queues.subscriberImport, Queues.subscriberExport, Queues.analyticsReport, Queues.workflowTick],
  'webhook-worker': [Queues.webhookFanout, Queues.webhookDeliver],
  'forms-worker': [Queues.formsExport, Queues.formsUploadCleanup],
} as const satisfies Record<string, readonly QueueName[]>;

/**
 * BullMQ key prefix with a per-queue hash tag, so every key of one queue lands in one Redis Cluster slot.
 * The wait list of a queue is then `{<prefix>:<queue>}:<queue>:wait` (what KEDA watches).
 */
export function queuePrefix(globalPrefix: string, queue: QueueName): string {
  return `{${globalPrefix}:${queue}}`;
}

export const DEFAULT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** Payloads carried by each queue. Jobs carry ids, never personal data. */
export interface JobPayloads {
  'broadcast-prepare': { workspaceId: string; broadcastId: string; runId: string };
  'broadcast-deliver': { workspaceId: string; runId: string; deliveryIds: string[] };
  'subscriber-import': { workspaceId: string; jobId: string };
  'subscriber-export': { workspaceId: string; jobId: string };
  'analytics-report': { workspaceId: string; reportId: string };
  'workflow-tick': { workspaceId: string; kind: 'sequence' | 'automation'; id: string };
  'webhook-fanout': { eventId: string };
  'webhook-deliver': { deliveryId: string };
  'forms-export': { workspaceId: string; exportId: string };
  'forms-upload-cleanup': Record<string, never>;
}
