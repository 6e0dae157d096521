import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { JobOf } from '@shared/queue';
import { trustedWorkspaceId } from '@shared/core';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { SegmentCounter } from '@email/audience-engine';

/** Recounts one saved segment whose cached counts a list page found stale; a segment deleted since is skipped. */
@Processor(EmailQueues.segmentCounts)
export class SegmentCountsProcessor extends WorkerHost {
  constructor(private readonly counter: SegmentCounter) {
    super();
  }

  async process(
    job: JobOf<EmailJobPayloads, typeof EmailQueues.segmentCounts>,
  ): Promise<{ total: number; confirmed: number } | { skipped: 'segment_deleted' }> {
    const counted = await this.counter.recountById(trustedWorkspaceId(job.data.workspaceId), job.data.segmentId);
    return counted ? { total: counted.total, confirmed: counted.confirmed } : { skipped: 'segment_deleted' };
  }
}
