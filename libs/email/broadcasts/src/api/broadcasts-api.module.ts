import { Module } from '@nestjs/common';
import { EmailQueues } from '@email/contracts';
import { EmailAudienceModule } from '@email/audience';
import { SegmentCountingModule } from '@email/audience-engine';
import { EmailDeliveryModule } from '@email/delivery';
import { EmailEventsModule } from '@email/events';
import { cursorCodecProvider } from '@shared/pagination';
import { QueueModule } from '@shared/queue';
import { BroadcastMessages } from '../core/broadcast-messages';
import { BroadcastMessageSources } from '../core/broadcast-messages.repository';
import { BroadcastRecipients } from '../core/broadcast-recipients';
import { BroadcastRunStarter } from '../core/broadcast-run-starter';
import { ConnectionLimiter } from '../core/connection-limiter';
import { BroadcastPreflightChecks } from '../core/preflight';
import { PreflightSources } from '../core/preflight.repository';
import { BroadcastEngagement } from './broadcast-engagement';
import { BroadcastRepository } from './broadcast.repository';
import { BroadcastSendService } from './broadcast-send.service';
import { BroadcastService } from './broadcast.service';

/** The broadcast operations of the API: drafts and their schedule, preflight, send, progress, delivery errors, cancel, test sends. */
@Module({
  imports: [
    EmailDeliveryModule,
    EmailAudienceModule,
    SegmentCountingModule,
    EmailEventsModule,
    // A send queues its preparation for email-send-worker.
    QueueModule.register(EmailQueues.broadcastPrepare),
  ],
  providers: [
    cursorCodecProvider,
    BroadcastRepository,
    BroadcastEngagement,
    BroadcastRecipients,
    BroadcastRunStarter,
    BroadcastMessages,
    BroadcastMessageSources,
    PreflightSources,
    BroadcastPreflightChecks,
    BroadcastService,
    BroadcastSendService,
    ConnectionLimiter,
  ],
  exports: [BroadcastService, BroadcastSendService],
})
export class EmailBroadcastsApiModule {}
