import { Module } from '@nestjs/common';
import { readinessChecksProvider, workerImports } from '@shared/bootstrap';
import { oauthPurgeProviders } from '@shared/oauth';
import { WebhookDispatchLifecycle } from '@shared/webhooks';
import { FormsQueues, FormsWorkerQueues } from '@forms/contracts';
import { FormsDataAccessModule, FormsPrisma } from '@forms/data-access';
import { SubmissionExportsWorkerModule } from '@forms/exports';
import { FormsOwnerSignInModule, OAuthRepository } from '@forms/oauth';
import { PaymentWebhookEventsPruneModule } from '@forms/payments';
import { UploadCleanupModule } from '@forms/submissions';
import { FormsWebhookDispatchModule } from '@forms/webhooks';
import { PaymentEventsPruneProcessor, PaymentEventsPruneSchedule } from './payment-events-prune.processor';
import { ExportCleanupProcessor, ExportCleanupSchedule, SubmissionExportProcessor } from './submission-export.processor';
import { UploadCleanupProcessor, UploadCleanupSchedule } from './upload-cleanup.processor';

export const HEALTH_PORT = 9104;
export const QUEUES = FormsWorkerQueues['forms-worker'];

@Module({
  imports: [
    ...workerImports(HEALTH_PORT, QUEUES),
    FormsDataAccessModule,
    UploadCleanupModule,
    SubmissionExportsWorkerModule,
    FormsWebhookDispatchModule,
    PaymentWebhookEventsPruneModule,
    FormsOwnerSignInModule,
  ],
  providers: [
    readinessChecksProvider(FormsPrisma),
    UploadCleanupProcessor,
    UploadCleanupSchedule,
    SubmissionExportProcessor,
    ExportCleanupProcessor,
    ExportCleanupSchedule,
    PaymentEventsPruneProcessor,
    PaymentEventsPruneSchedule,
    ...oauthPurgeProviders(FormsQueues.formsOAuthPurge, OAuthRepository),
    WebhookDispatchLifecycle,
  ],
})
export class WorkerModule {}
