import { Inject, Injectable, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock } from '@shared/core';
import { SubmissionsRepository } from './submissions.repository';
import { UploadStorage, uploadStorageProvider } from './upload-storage';

const BATCH = 500;

/**
 * Removes uploads no submission ever referred to once they are older than FORMS_UPLOAD_RETENTION_HOURS: the row
 * first (only while still unattached), then its file. A crash in between leaves a file without a row, never a row
 * without its file.
 */
@Injectable()
export class UploadCleanup {
  constructor(
    private readonly repository: SubmissionsRepository,
    private readonly storage: UploadStorage,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Returns how many uploads were removed. */
  async removeUnattached(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.formsUploadRetentionHours * 3_600_000);
    let removed = 0;
    for (;;) {
      const keys = await this.repository.deleteUnattachedUploads(before, BATCH);
      for (const key of keys) if (key) await this.storage.remove(key);
      removed += keys.length;
      if (keys.length < BATCH) return removed;
    }
  }
}

/** What a worker needs to run the clean-up, without the rest of the submissions domain. */
@Module({
  providers: [SubmissionsRepository, UploadCleanup, uploadStorageProvider],
  exports: [UploadCleanup],
})
export class UploadCleanupModule {}
