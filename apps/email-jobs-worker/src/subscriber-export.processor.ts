import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { JobOf, QueueOf } from '@shared/queue';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { exportQueueOptions, ExportRunner, importQueueOptions, JobFilesCleanup, QueuedJobs, REQUEUE_AFTER_MS } from '@email/jobs';
import { Clock, trustedWorkspaceId } from '@shared/core';

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
export const SUBSCRIBER_JOBS_REQUEUE_SCHEDULER = 'subscriber-jobs-requeue';

type CleanupJob = JobOf<EmailJobPayloads, typeof EmailQueues.subscriberFilesCleanup>;

/**
 * The maintenance queue's two jobs: deleting expired export files and import uploads, and queueing again the import
 * and export jobs left Queued (their record committed, then the queue add failed). A re-add uses the record's id as
 * the queue job id, so a job the queue already holds is not added twice.
 */
@Processor(EmailQueues.subscriberFilesCleanup)
export class SubscriberFilesCleanupProcessor extends WorkerHost {
  constructor(
    private readonly cleanup: JobFilesCleanup,
    private readonly queued: QueuedJobs,
    private readonly clock: Clock,
    @InjectQueue(EmailQueues.subscriberImport) private readonly imports: QueueOf<EmailJobPayloads, typeof EmailQueues.subscriberImport>,
    @InjectQueue(EmailQueues.subscriberExport) private readonly exports: QueueOf<EmailJobPayloads, typeof EmailQueues.subscriberExport>,
  ) {
    super();
  }

  process(job: CleanupJob): Promise<{ exports: number; uploads: number } | { imports: number; exports: number }> {
    return job.name === SUBSCRIBER_JOBS_REQUEUE_SCHEDULER ? this.requeue() : this.cleanup.run();
  }

  private async requeue(): Promise<{ imports: number; exports: number }> {
    const stale = await this.queued.stale(this.clock.now());
    for (const job of stale.imports) await this.imports.add('import', { workspaceId: job.workspace_id, jobId: job.id }, importQueueOptions(job.id));
    for (const job of stale.exports) await this.exports.add('export', { workspaceId: job.workspace_id, jobId: job.id }, exportQueueOptions(job.id));
    return { imports: stale.imports.length, exports: stale.exports.length };
  }
}

/**
 * The clean-up every 15 minutes and the stale-job sweep every REQUEUE_AFTER_MS (each first run at once); every replica
 * upserts the same schedulers, so each exists once.
 */
@Injectable()
export class SubscriberFilesCleanupSchedule implements OnApplicationBootstrap {
  constructor(@InjectQueue(EmailQueues.subscriberFilesCleanup) private readonly queue: QueueOf<EmailJobPayloads, typeof EmailQueues.subscriberFilesCleanup>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(SUBSCRIBER_FILES_CLEANUP_SCHEDULER, { every: 15 * 60 * 1000 }, { name: SUBSCRIBER_FILES_CLEANUP_SCHEDULER, data: {} });
    await this.queue.upsertJobScheduler(SUBSCRIBER_JOBS_REQUEUE_SCHEDULER, { every: REQUEUE_AFTER_MS }, { name: SUBSCRIBER_JOBS_REQUEUE_SCHEDULER, data: {} });
  }
}
