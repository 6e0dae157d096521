import { Module } from '@nestjs/common';
import { SegmentCountingModule } from '@email/audience-engine';
import { EmailQueues } from '@email/contracts';
import { EmailDeliveryModule } from '@email/delivery';
import { EmailEventsModule } from '@email/events';
import { QueueModule } from '@shared/queue';
import { BroadcastMessages } from '../core/broadcast-messages';
import { BroadcastMessageSources } from '../core/broadcast-messages.repository';
import { BroadcastRecipients } from '../core/broadcast-recipients';
import { BroadcastRunStarter } from '../core/broadcast-run-starter';
import { BroadcastPreflightChecks } from '../core/preflight';
import { PreflightSources } from '../core/preflight.repository';
import { ConnectionLimiter } from '../core/connection-limiter';
import { DeliveryLanes } from './delivery-lanes';
import { RunMaintenance } from './run-maintenance';
import { RunPreparer } from './run-preparer';
import { RunResources } from './run-resources';
import { RunStore } from './run-store';
import { ScheduledStarts } from './scheduled-starts';

/** The send pipeline of email-send-worker: preparation, the send lanes, and maintenance (recovery, resume, cancel, scheduled starts). */
@Module({
  imports: [EmailDeliveryModule, EmailEventsModule, SegmentCountingModule, QueueModule.register(EmailQueues.broadcastPrepare)],
  providers: [
    BroadcastRecipients,
    BroadcastRunStarter,
    BroadcastMessages,
    BroadcastMessageSources,
    BroadcastPreflightChecks,
    PreflightSources,
    RunStore,
    ConnectionLimiter,
    RunResources,
    RunPreparer,
    DeliveryLanes,
    ScheduledStarts,
    RunMaintenance,
  ],
  exports: [RunPreparer, DeliveryLanes, RunMaintenance],
})
export class BroadcastPipelineModule {}
