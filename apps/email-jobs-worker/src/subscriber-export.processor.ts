import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { JobOf, QueueOf } from '@shared/queue';
import { trustedWorkspaceId } from '@shared/core';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { ExportRunner, JobFilesCleanup } from '@email/jobs';

type ExportJob = JobOf<EmailJobPayloads, typeof EmailQueues.subscriberExport>;

/** Runs one subscriber export; a finished job is skipped, so a redelivery writes nothing twice. */
@Processor(EmailQueues.subscriberExport)
export class SubscriberExportProcessor extends WorkerHost {
  constructor(private readonly runner: ExportRunner) {
    super();
  }

  process(job: ExportJob): Promise<'completed' | 'skipped'> {
    return this.runner.run(trustedWorkspaceId(job.data.workspaceId), job.data.jobId);
  }

  @OnWorkerEvent('failed')
  async onFailed(job: ExportJob | undefined): Promise<void> {
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) await this.runner.giveUp(trustedWorkspaceId(job.data.workspaceId), job.data.jobId);
  }
}

export const SUBSCRIBER_FILES_CLEANUP_SCHEDULER = 'subscriber-files-cleanup';

/** Deletes expired export files and import uploads. */
@Processor(EmailQueues.subscriberFilesCleanup)
export class SubscriberFilesCleanupProcessor extends WorkerHost {
  constructor(private readonly cleanup: JobFilesCleanup) {
    super();
  }

  process(): Promise<{ exports: number; uploads: number }> {
    return this.cleanup.run();
  }
}

/** Every 15 minutes (the first run at once); every replica upserts the same scheduler, so it exists once. */
@Injectable()
export class SubscriberFilesCleanupSchedule implements OnApplicationBootstrap {
  constructor(@InjectQueue(EmailQueues.subscriberFilesCleanup) private readonly queue: QueueOf<EmailJobPayloads, typeof EmailQueues.subscriberFilesCleanup>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(SUBSCRIBER_FILES_CLEANUP_SCHEDULER, { every: 15 * 60 * 1000 }, { name: SUBSCRIBER_FILES_CLEANUP_SCHEDULER, data: {} });
  }
}
