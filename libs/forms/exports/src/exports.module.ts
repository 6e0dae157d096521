import { Module } from '@nestjs/common';
import { FormsQueues } from '@forms/contracts';
import { uploadStorageProvider } from '@forms/submissions';
import { QueueModule } from '@shared/queue';
import { ExportCleanup } from './export-cleanup';
import { ExportRunner } from './export-runner';
import { SubmissionExportService } from './submission-export.service';
import { SubmissionExportsRepository } from './submission-exports.repository';

/** Starting exports, reading them and opening their files: what the app session and the MCP tools call. */
@Module({
  imports: [QueueModule.register(FormsQueues.formsExport)],
  providers: [SubmissionExportsRepository, SubmissionExportService, uploadStorageProvider],
  exports: [SubmissionExportService],
})
export class SubmissionExportsModule {}

/** What forms-worker runs: the export jobs and the removal of expired export files. */
@Module({
  providers: [SubmissionExportsRepository, ExportRunner, ExportCleanup, uploadStorageProvider],
  exports: [ExportRunner, ExportCleanup],
})
export class SubmissionExportsWorkerModule {}
