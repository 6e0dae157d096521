import { Module } from '@nestjs/common';
import { readinessChecksProvider, workerImports } from '@shared/bootstrap';
import { oauthPurgeProviders } from '@shared/oauth';
import { EmailEngagementModule, SegmentCountingModule } from '@email/audience-engine';
import { EmailQueues, EmailWorkerQueues } from '@email/contracts';
import { EmailDataAccessModule, EmailPrisma } from '@email/data-access';
import { EmailJobsWorkerModule } from '@email/jobs';
import { EmailUsersModule, OAuthRepository } from '@email/oauth';
import { EngagementMaintenanceProcessor, EngagementMaintenanceSchedule } from './engagement-maintenance.processor';
import { SegmentCountsProcessor } from './segment-counts.processor';
import { SubscriberImportProcessor } from './subscriber-import.processor';
import { SubscriberExportProcessor, SubscriberFilesCleanupProcessor, SubscriberFilesCleanupSchedule } from './subscriber-export.processor';

export const HEALTH_PORT = 9102;
export const QUEUES = EmailWorkerQueues['email-jobs-worker'];

@Module({
  imports: [
    ...workerImports(HEALTH_PORT, QUEUES),
    EmailDataAccessModule,
    EmailEngagementModule,
    SegmentCountingModule,
    EmailJobsWorkerModule,
    EmailUsersModule,
  ],
  providers: [
    readinessChecksProvider(EmailPrisma),
    EngagementMaintenanceProcessor,
    EngagementMaintenanceSchedule,
    ...oauthPurgeProviders(EmailQueues.oauthPurge, OAuthRepository),
    SegmentCountsProcessor,
    SubscriberImportProcessor,
    SubscriberExportProcessor,
    SubscriberFilesCleanupProcessor,
    SubscriberFilesCleanupSchedule,
  ],
})
export class WorkerModule {}
