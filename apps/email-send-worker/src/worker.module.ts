import { Module } from '@nestjs/common';
import { readinessChecksProvider, workerImports } from '@shared/bootstrap';
import { BroadcastPipelineModule } from '@email/broadcasts';
import { EmailWorkerQueues } from '@email/contracts';
import { EmailDataAccessModule, EmailPrisma } from '@email/data-access';
import { BroadcastPrepareProcessor } from './broadcast-prepare.processor';
import { SendPipelineLifecycle } from './send-pipeline.lifecycle';

export const HEALTH_PORT = 9101;
export const QUEUES = EmailWorkerQueues['email-send-worker'];

@Module({
  imports: [...workerImports(HEALTH_PORT, QUEUES), EmailDataAccessModule, BroadcastPipelineModule],
  providers: [readinessChecksProvider(EmailPrisma), BroadcastPrepareProcessor, SendPipelineLifecycle],
})
export class WorkerModule {}
