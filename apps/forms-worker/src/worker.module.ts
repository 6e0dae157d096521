import { Module } from '@nestjs/common';
import { readinessChecksProvider, workerImports } from '@shared/observability';
import { WorkerQueues } from '@shared/queue';
import { FormsDataAccessModule, FormsPrisma } from '@forms/data-access';

export const HEALTH_PORT = 9104;
export const QUEUES = WorkerQueues['forms-worker'];

@Module({
  imports: [...workerImports(HEALTH_PORT, QUEUES), FormsDataAccessModule],
  providers: [readinessChecksProvider(FormsPrisma)],
})
export class WorkerModule {}
