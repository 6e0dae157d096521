import { Inject, Injectable, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock } from '@shared/core';
import { SubmissionsRepository } from './submissions.repository';
import { UploadStorage, uploadStorageProvider } from './upload-storage';

const BATCH = 500;

/**
 * Removes uploads no submission ever referred to once they are older than FORMS_UPLOAD_RETENTION_HOURS: the row
 * first (only while still unattached), then its file. A crash in between leaves a file without a row, never a row
 * without its file. Also removes the files of deleted forms (their rows went with the form).
 */
@Injectable()
export class UploadCleanup {
  constructor(
    private readonly repository: SubmissionsRepository,
    private readonly storage: UploadStorage,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(): Promise<{ removed: number; deletedForms: number }> {
    return { removed: await this.removeUnattached(), deletedForms: await this.removeFilesOfDeletedForms() };
  }

  /** Returns how many uploads were removed. */
  async removeUnattached(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.formsUploadRetentionHours * 3_600_000);
    let removed = 0;
    for (;;) {
      const keys = await this.repository.deleteUnattachedUploadsOfAllWorkspaces(before, BATCH);
      for (const key of keys) if (key) await this.storage.remove(key);
      removed += keys.length;
      if (keys.length < BATCH) return removed;
    }
  }

  /** A form's files live under its id, and a form id is never reused: files of a form that is gone are garbage. */
  async removeFilesOfDeletedForms(): Promise<number> {
    const stored = await this.storage.formIds();
    let removed = 0;
    for (let i = 0; i < stored.length; i += BATCH) {
      const batch = stored.slice(i, i + BATCH);
      const existing = await this.repository.existingFormIdsOfAllWorkspaces(batch);
      for (const formId of batch.filter((id) => !existing.has(id))) await this.storage.removeForm(formId);
      removed += batch.length - existing.size;
    }
    return removed;
  }
}

/** What a worker needs to run the clean-up, without the rest of the submissions domain. */
@Module({
  providers: [SubmissionsRepository, UploadCleanup, uploadStorageProvider],
  exports: [UploadCleanup],
})
export class UploadCleanupModule {}
