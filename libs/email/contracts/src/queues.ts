/** Every queue of the email service, named once. */
export const EmailQueues = {
  broadcastPrepare: 'broadcast-prepare',
  subscriberImport: 'subscriber-import',
  subscriberExport: 'subscriber-export',
  subscriberFilesCleanup: 'subscriber-files-cleanup',
  analyticsReport: 'analytics-report',
  workflowTick: 'workflow-tick',
  segmentCounts: 'segment-counts',
  engagementMaintenance: 'engagement-maintenance',
  oauthPurge: 'oauth-purge',
  webhookFanout: 'webhook-fanout',
  webhookDeliver: 'webhook-deliver',
} as const;

export type EmailQueueName = (typeof EmailQueues)[keyof typeof EmailQueues];

/** Which email worker consumes which queues. */
export const EmailWorkerQueues = {
  'email-send-worker': [EmailQueues.broadcastPrepare],
  'email-jobs-worker': [
    EmailQueues.subscriberImport,
    EmailQueues.subscriberExport,
    EmailQueues.subscriberFilesCleanup,
    EmailQueues.analyticsReport,
    EmailQueues.workflowTick,
    EmailQueues.segmentCounts,
    EmailQueues.engagementMaintenance,
    EmailQueues.oauthPurge,
  ],
  'webhook-worker': [EmailQueues.webhookFanout, EmailQueues.webhookDeliver],
} as const satisfies Record<string, readonly EmailQueueName[]>;
