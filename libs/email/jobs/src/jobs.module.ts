import { Module } from '@nestjs/common';
import { EmailAudienceModule } from '@email/audience';
import { EmailQueues } from '@email/contracts';
import { cursorCodecProvider } from '@shared/pagination';
import { QueueModule } from '@shared/queue';
import { JobFiles } from './files/job-files';
import { jobFilesProvider } from './files/job-files.provider';
import { ImportBatchWriter } from './imports/import-batch.writer';
import { ImportJobRepository } from './imports/import-job.repository';
import { ImportRunner } from './imports/import-runner';
import { ImportService } from './imports/import.service';
import { ExportLinks } from './exports/export-links';
import { ExportRunner } from './exports/export-runner';
import { ExportService } from './exports/export.service';
import { JobFilesCleanup } from './files/job-files-cleanup';
import { QueuedJobs } from './queued-jobs';
import { UploadPageService } from './uploads/upload-page.service';
import { UploadRepository } from './uploads/upload.repository';
import { UploadService } from './uploads/upload.service';

/** Subscriber import uploads, import and export jobs for email-api: the API operations, the upload page, the export downloads. */
@Module({
  imports: [EmailAudienceModule, QueueModule.register(EmailQueues.subscriberImport, EmailQueues.subscriberExport)],
  providers: [
    cursorCodecProvider,
    jobFilesProvider,
    UploadRepository,
    UploadService,
    UploadPageService,
    ImportJobRepository,
    ImportService,
    ExportLinks,
    ExportService,
  ],
  exports: [UploadService, UploadPageService, ImportService, ExportService, ExportLinks, JobFiles],
})
export class EmailJobsApiModule {}

/** What email-jobs-worker runs: import and export jobs, the clean-up of expired files, and the stale-job sweep's reads. */
@Module({
  providers: [jobFilesProvider, ImportJobRepository, ImportBatchWriter, ImportRunner, ExportRunner, JobFilesCleanup, QueuedJobs],
  exports: [ImportRunner, ExportRunner, JobFilesCleanup, QueuedJobs],
})
export class EmailJobsWorkerModule {}
