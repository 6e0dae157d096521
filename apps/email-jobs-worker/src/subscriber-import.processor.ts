import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { JobOf } from '@shared/queue';
import { trustedWorkspaceId } from '@shared/core';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { ImportRunner } from '@email/jobs';
import { giveUpFailed } from './subscriber-export.processor';

type ImportJob = JobOf<EmailJobPayloads, typeof EmailQueues.subscriberImport>;

/**
 * Runs one subscriber import. Idempotent by construction: the job's checkpoint moves with each committed batch, so a
 * retry or a redelivery after a crash resumes after the last batch; a finished job is skipped.
 */
@Processor(EmailQueues.subscriberImport)
export class SubscriberImportProcessor extends WorkerHost {
  constructor(private readonly runner: ImportRunner) {
    super();
  }

  process(job: ImportJob): Promise<'completed' | 'failed' | 'skipped'> {
    return this.runner.run(trustedWorkspaceId(job.data.workspaceId), job.data.jobId);
  }

  /**
   * Retries exhausted on an unexpected error: the job record says it failed instead of staying Processing; if that
   * cannot be written now, the stale-job sweep retries the job.
   */
  @OnWorkerEvent('failed')
  async onFailed(job: ImportJob | undefined, error: Error): Promise<void> {
    if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    await this.runner.giveUp(trustedWorkspaceId(job.data.workspaceId), job.data.jobId, error).catch((failure: Error) => giveUpFailed(job.data.jobId, failure));
  }
}
