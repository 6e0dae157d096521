/** Payloads carried by each email queue. Jobs carry ids, never personal data. */
export interface EmailJobPayloads {
  'broadcast-prepare': { workspaceId: string; broadcastId: string; runId: string };
  'subscriber-import': { workspaceId: string; jobId: string };
  'subscriber-export': { workspaceId: string; jobId: string };
  /** Deletes expired import uploads and export files (with their download links). */
  'subscriber-files-cleanup': Record<string, never>;
  'analytics-report': { workspaceId: string; reportId: string };
  'workflow-tick': { workspaceId: string; kind: 'sequence' | 'automation'; id: string };
  'segment-counts': { workspaceId: string; segmentId: string };
  /** Creates the coming months' email_events partitions and drops those past retention. */
  'engagement-maintenance': Record<string, never>;
  'oauth-purge': Record<string, never>;
  'webhook-fanout': { eventId: string };
  'webhook-deliver': { deliveryId: string };
}
