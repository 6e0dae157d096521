import { Injectable } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import { Clock } from '@shared/core';
import { jobFileKey, JobFiles } from './job-files';

const BATCH = 500;

/**
 * Deletes what has expired, in every workspace (a maintenance pass, run by email-jobs-worker on a schedule): export
 * files past `expires_at` (the job record stays, without download information), and uploads past theirs with their
 * files, except an upload whose import job is still running.
 */
@Injectable()
export class JobFilesCleanup {
  constructor(
    private readonly prisma: EmailPrisma,
    private readonly files: JobFiles,
    private readonly clock: Clock,
  ) {}

  async run(): Promise<{ exports: number; uploads: number }> {
    const now = this.clock.now();
    let exports = 0;
    for (;;) {
      const expired = await this.prisma.subscriberExportJob.findMany({
        where: { expires_at: { lte: now }, file_deleted_at: null },
        select: { id: true, workspace_id: true },
        take: BATCH,
      });
      for (const job of expired) await this.files.remove(jobFileKey('exports', job.workspace_id, job.id));
      if (expired.length)
        await this.prisma.subscriberExportJob.updateMany({ where: { id: { in: expired.map((job) => job.id) } }, data: { file_deleted_at: now } });
      exports += expired.length;
      if (expired.length < BATCH) break;
    }
    let uploads = 0;
    for (;;) {
      const expired = await this.prisma.subscriberImportUpload.findMany({
        where: { expires_at: { lte: now } },
        select: { id: true, workspace_id: true, import_job_id: true },
        take: BATCH,
      });
      const running = new Set(
        (
          await this.prisma.subscriberImportJob.findMany({
            where: { id: { in: expired.flatMap((upload) => upload.import_job_id ?? []) }, status: { in: ['Queued', 'Processing'] } },
            select: { id: true },
          })
        ).map((job) => job.id),
      );
      const done = expired.filter((upload) => !upload.import_job_id || !running.has(upload.import_job_id));
      for (const upload of done) await this.files.remove(jobFileKey('imports', upload.workspace_id, upload.id));
      if (done.length) await this.prisma.subscriberImportUpload.deleteMany({ where: { id: { in: done.map((upload) => upload.id) } } });
      uploads += done.length;
      if (expired.length < BATCH || !done.length) break;
    }
    return { exports, uploads };
  }
}
