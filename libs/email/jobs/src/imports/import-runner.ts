import { Inject, Injectable, Logger } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { WorkspaceId } from '@shared/core';
import { CsvFormat, csvRecords } from '../csv/csv-format';
import { describeCsvError } from '../csv/csv-scan';
import { jobFileKey, JobFiles } from '../files/job-files';
import { ImportBatchWriter, BatchTarget, ConcurrentImportWrite } from './import-batch.writer';
import { ImportJobRepository } from './import-job.repository';
import { compileMapping, ImportRow, isRejection, mappedCustomFieldIds, readRow, Rejection } from './import-mapping';
import { StoredImportRequest } from './import.service';

/** A job that cannot finish: it fails with this message (the line of a corrupt file, a missing upload file, …). */
export class ImportFailure extends Error {}

/**
 * Runs one import job in the worker: streams its upload's file through the CSV reader, checks each row, and writes
 * batches of SUBSCRIBER_IMPORT_BATCH_ROWS rows (ImportBatchWriter), each committed with the job's checkpoint. A
 * restarted job skips the rows its committed batches already cover, so nothing is lost, duplicated or counted twice.
 */
@Injectable()
export class ImportRunner {
  private readonly logger = new Logger(ImportRunner.name);

  constructor(
    private readonly prisma: EmailPrisma,
    private readonly jobs: ImportJobRepository,
    private readonly files: JobFiles,
    private readonly writer: ImportBatchWriter,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'subscriberJobs'>,
  ) {}

  async run(workspaceId: WorkspaceId, jobId: string): Promise<'completed' | 'failed' | 'skipped'> {
    const job = await this.prisma.subscriberImportJob.findFirst({ where: { workspace_id: workspaceId, id: jobId } });
    if (!job || job.status === 'Completed' || job.status === 'Failed') return 'skipped';
    await this.prisma.subscriberImportJob.updateMany({
      where: { workspace_id: workspaceId, id: jobId, status: { in: ['Queued', 'Processing'] } },
      data: { status: 'Processing', started_at: job.started_at ?? new Date() },
    });
    try {
      await this.process(workspaceId, jobId, job.upload_id, job.dry_run, job.request as unknown as StoredImportRequest, job.processed_rows);
      await this.finish(workspaceId, jobId, 'Completed', null);
      return 'completed';
    } catch (error) {
      if (!(error instanceof ImportFailure)) throw error;
      await this.finish(workspaceId, jobId, 'Failed', error.message);
      return 'failed';
    }
  }

  /** Called by the processor once retries are exhausted on an unexpected error. */
  async giveUp(workspaceId: WorkspaceId, jobId: string, error: Error): Promise<void> {
    this.logger.error(`import ${jobId} failed: ${error.message}`);
    await this.finish(workspaceId, jobId, 'Failed', 'The import stopped on an internal error; start it again with a new upload.');
  }

  private async process(workspaceId: WorkspaceId, jobId: string, uploadId: string, dryRun: boolean, request: StoredImportRequest, done: number) {
    const upload = await this.prisma.subscriberImportUpload.findFirst({ where: { workspace_id: workspaceId, id: uploadId } });
    const bytes = upload && (await this.files.read(jobFileKey('imports', workspaceId, uploadId)));
    if (!upload || !bytes) throw new ImportFailure('The uploaded file is no longer available (uploads are kept for a day); upload it again.');
    const definitions = await this.jobs.customFieldDefinitions(workspaceId, mappedCustomFieldIds(request.mappings));
    let target: BatchTarget;
    try {
      target = {
        jobId,
        dryRun,
        tagIds: request.tag_ids,
        sequenceIds: request.sequence_ids,
        mapping: compileMapping(request.mappings, upload.headers, definitions),
      };
    } catch (error) {
      throw new ImportFailure(`The mapping no longer fits: ${(error as Error).message}`);
    }

    const batchRows = this.config.subscriberJobs.importBatchRows;
    let rowNumber = 0;
    let from = done;
    let rows: ImportRow[] = [];
    let rejections: Rejection[] = [];
    // One batch is written while the next one is read and checked: the database and the parser work at the same time.
    // Batches still commit one after the other, each with its checkpoint.
    let pending: Promise<void> = Promise.resolve();
    let failure: { error: unknown } | null = null;
    const flush = async () => {
      await pending;
      if (failure) throw failure.error;
      const batch = { rows, rejections, from, through: rowNumber };
      from = rowNumber;
      rows = [];
      rejections = [];
      pending = this.writeWithRetry(workspaceId, target, batch.rows, batch.rejections, batch.from, batch.through).then(
        () => undefined,
        (error: unknown) => void (failure = { error }),
      );
    };
    const format: CsvFormat = { encoding: upload.encoding as CsvFormat['encoding'], delimiter: upload.delimiter as CsvFormat['delimiter'] };
    let header = true;
    try {
      for await (const record of csvRecords(bytes, format) as AsyncIterable<string[]>) {
        if (header) {
          header = false;
          continue;
        }
        rowNumber++;
        if (rowNumber <= done) continue;
        const row = readRow(record, rowNumber, target.mapping);
        if (isRejection(row)) rejections.push(row);
        else rows.push(row);
        if (rowNumber - from >= batchRows) await flush();
      }
    } catch (error) {
      // A write's failure is the database's (the queue retries the job); any other error here is the file's.
      if (failure && error === (failure as { error: unknown }).error) throw error;
      await pending;
      throw new ImportFailure(describeCsvError(error));
    }
    if (rowNumber > from) await flush();
    await pending;
    if (failure) throw (failure as { error: unknown }).error;
  }

  /** A batch that met a concurrent write is read and written again (its transaction rolled back entirely). */
  private async writeWithRetry(workspaceId: WorkspaceId, target: BatchTarget, rows: ImportRow[], rejections: Rejection[], from: number, through: number) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.writer.write(workspaceId, target, rows, rejections, from, through);
      } catch (error) {
        if (!(error instanceof ConcurrentImportWrite) || attempt >= 3) throw error;
      }
    }
  }

  private async finish(workspaceId: WorkspaceId, jobId: string, status: 'Completed' | 'Failed', message: string | null): Promise<void> {
    await this.prisma.subscriberImportJob.updateMany({
      where: { workspace_id: workspaceId, id: jobId, status: 'Processing' },
      data: { status, error_message: message, completed_at: new Date() },
    });
  }
}
