import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { QueueOf } from '@shared/queue';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { EngagementMaintenance, EngagementMaintenanceReport } from '@email/audience-engine';

export const ENGAGEMENT_MAINTENANCE_SCHEDULER = 'engagement-maintenance';

/**
 * Daily at 03:17 UTC (off the hour, out of the way of midnight jobs), and once as soon as the scheduler is upserted,
 * so a worker that was down at that hour still makes the coming months' partitions when it starts.
 */
export const ENGAGEMENT_MAINTENANCE_REPEAT = { pattern: '17 3 * * *', tz: 'UTC', immediately: true };

/**
 * Makes the coming months' email_events partitions, drops those past ENGAGEMENT_RETENTION_MONTHS, and counts again the
 * engagement window counts of subscribers with no event lately. Rerunning it is harmless: each step checks the state.
 */
@Processor(EmailQueues.engagementMaintenance)
export class EngagementMaintenanceProcessor extends WorkerHost {
  constructor(private readonly maintenance: EngagementMaintenance) {
    super();
  }

  process(): Promise<EngagementMaintenanceReport> {
    return this.maintenance.run();
  }
}

/** Declares the repeatable job; every replica upserts the same scheduler, so it exists once. */
@Injectable()
export class EngagementMaintenanceSchedule implements OnApplicationBootstrap {
  constructor(@InjectQueue(EmailQueues.engagementMaintenance) private readonly queue: QueueOf<EmailJobPayloads, typeof EmailQueues.engagementMaintenance>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(ENGAGEMENT_MAINTENANCE_SCHEDULER, ENGAGEMENT_MAINTENANCE_REPEAT, {
      name: ENGAGEMENT_MAINTENANCE_SCHEDULER,
      data: {},
    });
  }
}
