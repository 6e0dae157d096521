import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { JobOf, QueueOf } from '@shared/queue';
import { trustedWorkspaceId } from '@shared/core';
import { FormsJobPayloads, FormsQueues } from '@forms/contracts';
import { ExportCleanup, ExportRunner } from '@forms/exports';

type ExportJob = JobOf<FormsJobPayloads, 'forms-export'>;

/** How often expired export files are looked for; how long a file lives is FORMS_EXPORT_TTL_HOURS. */
const CLEANUP_EVERY_MS = 15 * 60_000;

/** Runs one spreadsheet export; a finished one is skipped, an interrupted one is written again from the start. */
@Processor(FormsQueues.formsExport)
export class SubmissionExportProcessor extends WorkerHost {
  constructor(private readonly runner: ExportRunner) {
    super();
  }

  process(job: ExportJob): Promise<'completed' | 'skipped'> {
    return this.runner.run(trustedWorkspaceId(job.data.workspaceId), job.data.exportId);
  }

  @OnWorkerEvent('failed')
  async onFailed(job: ExportJob | undefined, error: Error): Promise<void> {
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) await this.runner.giveUp(trustedWorkspaceId(job.data.workspaceId), job.data.exportId, error);
  }
}

@Processor(FormsQueues.formsExportCleanup)
export class ExportCleanupProcessor extends WorkerHost {
  constructor(private readonly cleanup: ExportCleanup) {
    super();
  }

  async process(): Promise<{ removed: number }> {
    return { removed: await this.cleanup.run() };
  }
}

/** Declares the repeatable clean-up; every replica upserts the same scheduler, so it exists once. */
@Injectable()
export class ExportCleanupSchedule implements OnApplicationBootstrap {
  constructor(@InjectQueue(FormsQueues.formsExportCleanup) private readonly queue: QueueOf<FormsJobPayloads, 'forms-export-cleanup'>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('remove-expired-exports', { every: CLEANUP_EVERY_MS }, { name: 'remove-expired-exports', data: {} });
  }
}
