import { Module } from '@nestjs/common';
import { EmailQueues } from '@email/contracts';
import { cursorCodecProvider } from '@shared/pagination';
import { QueueModule } from '@shared/queue';
import { AudienceRepository } from '../audience.repository';
import { QueuedSegmentCountRequests, SegmentCountRequests } from './segment-count.queue';
import { SegmentCounter } from './segment-counter';
import { SegmentRepository } from './segment.repository';
import { SegmentService } from './segment.service';
import { AudienceReferences } from './segment-users';

/** Counting saved segments: what email-jobs-worker needs to refresh the count cache. */
@Module({
  providers: [AudienceRepository, AudienceReferences, SegmentRepository, SegmentCounter],
  exports: [AudienceRepository, AudienceReferences, SegmentRepository, SegmentCounter],
})
export class SegmentCountingModule {}

/** Saved segments for the API: the use cases and the queue that asks for recounts. */
@Module({
  imports: [SegmentCountingModule, QueueModule.register(EmailQueues.segmentCounts)],
  providers: [cursorCodecProvider, SegmentService, { provide: SegmentCountRequests, useClass: QueuedSegmentCountRequests }],
  exports: [SegmentService, SegmentCountingModule],
})
export class EmailSegmentsModule {}
