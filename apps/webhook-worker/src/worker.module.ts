import { Module } from '@nestjs/common';
import { readinessChecksProvider, workerImports } from '@shared/bootstrap';
import { WebhookDispatchLifecycle } from '@shared/webhooks';
import { EmailWorkerQueues } from '@email/contracts';
import { EmailDataAccessModule, EmailPrisma } from '@email/data-access';
import { WebhookDispatchModule } from '@email/webhooks';

export const HEALTH_PORT = 9103;
export const QUEUES = EmailWorkerQueues['webhook-worker'];

@Module({
  imports: [...workerImports(HEALTH_PORT, QUEUES), EmailDataAccessModule, WebhookDispatchModule],
  providers: [readinessChecksProvider(EmailPrisma), WebhookDispatchLifecycle],
})
export class WorkerModule {}
