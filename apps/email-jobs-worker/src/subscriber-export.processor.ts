import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { JobOf, QueueOf } from '@shared/queue';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { exportQueueOptions, ExportRunner, importQueueOptions, JobFilesCleanup, QueuedJobs, REQUEUE_AFTER_MS } from '@email/jobs';
import { Clock, trustedWorkspaceId } from '@shared/core';

type ExportJob = JobOf<EmailJobPayloads, typeof EmailQueues.subscriberExport>;

const logger = new Logger('SubscriberJobs');

/** A failed job's record could not be marked Failed (the database down): an event handler must not throw. */
export function giveUpFailed(jobId: string, error: Error): void {
  logger.error(`job ${jobId} could not be marked Failed (${error.message}); the stale-job sweep will retry it`);
}

/** Runs one subscriber export; a finished job is skipped, so a redelivery writes nothing twice. */
@Processor(EmailQueues.subscriberExport)
export class SubscriberExportProcessor extends WorkerHost {
  constructor(private readonly runner: ExportRunner) {
    super();
  }

  process(job: ExportJob): Promise<'completed' | 'skipped'> {
    return this.runner.run(trustedWorkspaceId(job.data.workspaceId), job.data.jobId);
  }

  /** Retries exhausted: the job record says it failed; if that cannot be written now, the stale-job sweep retries the job. */
  @OnWorkerEvent('failed')
  async onFailed(job: ExportJob | undefined): Promise<void> {
    if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    await this.runner.giveUp(trustedWorkspaceId(job.data.workspaceId), job.data.jobId).catch((error: Error) => giveUpFailed(job.data.jobId, error));
  }
}

export const SUBSCRIBER_FILES_CLEANUP_SCHEDULER = 'subscriber-files-cleanup';
export const SUBSCRIBER_JOBS_REQUEUE_SCHEDULER = 'subscriber-jobs-requeue';

type CleanupJob = JobOf<EmailJobPayloads, typeof EmailQueues.subscriberFilesCleanup>;

/**
 * The maintenance queue's two jobs: deleting expired export files and import uploads, and queueing again the import
 * and export jobs left unfinished: their record committed, then the queue add failed; or their queue job failed for
 * good and marking the record Failed failed too. A re-add uses the record's id as the queue job id, so a job the queue
 * already holds is not added twice; a failed one is retried, and either finishes now or fails again and is marked so.
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
    let imports = 0;
    let exports = 0;
    for (const job of stale.imports) {
      const data = { workspaceId: job.workspace_id, jobId: job.id };
      if (await this.requeueOne(this.imports, job.id, () => this.imports.add('import', data, importQueueOptions(job.id)))) imports++;
    }
    for (const job of stale.exports) {
      const data = { workspaceId: job.workspace_id, jobId: job.id };
      if (await this.requeueOne(this.exports, job.id, () => this.exports.add('export', data, exportQueueOptions(job.id)))) exports++;
    }
    return { imports, exports };
  }

  /** Whether the job was queued again: added when the queue lacks it, retried when it failed; a live one is left alone. */
  private async requeueOne(queue: Queue, id: string, add: () => Promise<unknown>): Promise<boolean> {
    const existing = await queue.getJob(id);
    if (!existing) {
      await add();
      return true;
    }
    if (!(await existing.isFailed())) return false;
    try {
      await existing.retry('failed');
      return true;
    } catch (error) {
      // An overlapping sweep retried it first.
      if (await existing.isFailed()) throw error;
      return false;
    }
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
