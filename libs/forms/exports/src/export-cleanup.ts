import { Injectable } from '@nestjs/common';
import { UploadStorage } from '@forms/submissions';
import { Clock } from '@shared/core';
import { SubmissionExportsRepository } from './submission-exports.repository';

const BATCH = 500;

/**
 * Removes the files of exports past `expires_at` (a maintenance pass forms-worker runs on a schedule): the file first,
 * then the row's file key, so a crash in between only means removing an absent file again next time. The export rows
 * stay, answering that the file expired.
 */
@Injectable()
export class ExportCleanup {
  constructor(
    private readonly repository: SubmissionExportsRepository,
    private readonly storage: UploadStorage,
    private readonly clock: Clock,
  ) {}

  /** Returns how many files were removed. */
  async run(): Promise<number> {
    const now = this.clock.now();
    let removed = 0;
    for (;;) {
      const expired = await this.repository.expiredFilesOfAllWorkspaces(now, BATCH);
      for (const { file_key } of expired) await this.storage.remove(file_key);
      if (expired.length) await this.repository.forgetFilesOfAllWorkspaces(expired.map((row) => row.id));
      removed += expired.length;
      if (expired.length < BATCH) return removed;
    }
  }
}
