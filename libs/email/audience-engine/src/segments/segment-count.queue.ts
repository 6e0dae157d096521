import { Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { Clock, WorkspaceId } from '@shared/core';
import type { QueueOf } from '@shared/queue';
import { SEGMENT_COUNT_MAX_AGE_MS } from './segment-counter';

/** Asks email-jobs-worker to recount segments whose cached counts are stale. */
export abstract class SegmentCountRequests {
  abstract request(workspaceId: WorkspaceId, segmentIds: string[]): void;
}

@Injectable()
export class QueuedSegmentCountRequests extends SegmentCountRequests {
  private readonly logger = new Logger(QueuedSegmentCountRequests.name);

  constructor(
    @InjectQueue(EmailQueues.segmentCounts) private readonly queue: QueueOf<EmailJobPayloads, 'segment-counts'>,
    private readonly clock: Clock,
  ) {
    super();
  }

  /**
   * Not awaited: a list page never waits on the queue. The job id names the segment and the current freshness
   * window, so however many pages show a stale segment, it is recounted once per window.
   */
  request(workspaceId: WorkspaceId, segmentIds: string[]): void {
    if (!segmentIds.length) return;
    const window = Math.floor(this.clock.now().getTime() / SEGMENT_COUNT_MAX_AGE_MS);
    const jobs = segmentIds.map((segmentId) => ({
      name: 'recount',
      data: { workspaceId, segmentId },
      opts: { jobId: `${segmentId}-${window}`, attempts: 2 },
    }));
    this.queue.addBulk(jobs).catch((error: Error) => this.logger.warn(`could not queue segment recounts: ${error.message}`));
  }
}
