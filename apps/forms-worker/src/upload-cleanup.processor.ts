import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { QueueOf } from '@shared/queue';
import { FormsJobPayloads, FormsQueues } from '@forms/contracts';
import { UploadCleanup } from '@forms/submissions';

/** How often the clean-up runs; what it removes depends on FORMS_UPLOAD_RETENTION_HOURS. */
const EVERY_MS = 15 * 60_000;

@Processor(FormsQueues.formsUploadCleanup)
export class UploadCleanupProcessor extends WorkerHost {
  constructor(private readonly cleanup: UploadCleanup) {
    super();
  }

  process(): Promise<{ removed: number; deletedForms: number }> {
    return this.cleanup.run();
  }
}

/** Declares the repeatable job; every replica upserts the same scheduler, so it exists once. */
@Injectable()
export class UploadCleanupSchedule implements OnApplicationBootstrap {
  constructor(@InjectQueue(FormsQueues.formsUploadCleanup) private readonly queue: QueueOf<FormsJobPayloads, 'forms-upload-cleanup'>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('remove-unattached-uploads', { every: EVERY_MS }, { name: 'remove-unattached-uploads', data: {} });
  }
}
