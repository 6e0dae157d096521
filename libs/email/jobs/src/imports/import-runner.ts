import { Inject, Injectable, Logger } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { WorkspaceId } from '@shared/core';
import { CsvFormat, csvRecords } from '../csv/csv-format';
import { describeCsvError } from '../csv/csv-scan';
import { jobFileKey, JobFiles } from '../files/job-files';
import { ImportBatchWriter, BatchTarget, ConcurrentImportWrite, ImportFailure } from './import-batch.writer';
import { ImportJobRepository } from './import-job.repository';
import { compileMapping, mappedCustomFieldIds, readRow } from './import-mapping';
import { ImportLanes, LaneBatch } from './import-lanes';
import { StoredImportRequest } from './import.service';

/**
 * Runs one import job in the worker: streams its upload's file through the CSV reader, checks each row, and writes
 * batches of SUBSCRIBER_IMPORT_BATCH_ROWS rows (ImportBatchWriter) in SUBSCRIBER_IMPORT_WRITERS lanes (ImportLanes),
 * each batch committed with its lane's checkpoint. A restarted job skips the rows its committed batches already cover,
 * so nothing is lost, duplicated or counted twice.
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
    const resumeAt = await this.start(workspaceId, jobId);
    if (!resumeAt) return 'skipped';
    try {
      await this.process(workspaceId, jobId, job.upload_id, job.dry_run, job.request as unknown as StoredImportRequest, resumeAt);
      await this.finish(workspaceId, jobId, 'Completed', null);
      return 'completed';
    } catch (error) {
      if (!(error instanceof ImportFailure)) throw error;
      await this.finish(workspaceId, jobId, 'Failed', error.message);
      return 'failed';
    }
  }

  /**
   * Marks the job Processing and returns its lanes' resume points, read in the same statement: a checkpoint an
   * earlier run committed is never overwritten by a stale read. The lanes are fixed by the job's first run, so a
   * resumed job finds its resume points whatever SUBSCRIBER_IMPORT_WRITERS is now. Null: the job finished meanwhile.
   */
  private async start(workspaceId: WorkspaceId, jobId: string): Promise<number[] | null> {
    const firstRun = new Array<number>(this.config.subscriberJobs.importWriters).fill(0);
    const rows = await this.prisma.$queryRaw<Array<{ lane_rows: number[] }>>`
      UPDATE subscriber_import_jobs
         SET status = 'Processing', started_at = coalesce(started_at, ${new Date()}), updated_at = now(),
             lane_rows = CASE WHEN cardinality(lane_rows) = 0 THEN ${firstRun}::int[] ELSE lane_rows END
       WHERE workspace_id = ${workspaceId} AND id = ${jobId} AND status IN ('Queued', 'Processing')
      RETURNING lane_rows`;
    return rows[0]?.lane_rows ?? null;
  }

  /** Called by the processor once retries are exhausted on an unexpected error. */
  async giveUp(workspaceId: WorkspaceId, jobId: string, error: Error): Promise<void> {
    this.logger.error(`import ${jobId} failed: ${error.message}`);
    await this.finish(workspaceId, jobId, 'Failed', 'The import stopped on an internal error; start it again with a new upload.');
  }

  private async process(workspaceId: WorkspaceId, jobId: string, uploadId: string, dryRun: boolean, request: StoredImportRequest, resumeAt: number[]) {
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

    const lanes = new ImportLanes(resumeAt, this.config.subscriberJobs.importBatchRows, (lane, batch) => this.writeWithRetry(workspaceId, target, lane, batch));
    const format: CsvFormat = { encoding: upload.encoding as CsvFormat['encoding'], delimiter: upload.delimiter as CsvFormat['delimiter'] };
    let rowNumber = 0;
    try {
      let header = true;
      for await (const record of csvRecords(bytes, format) as AsyncIterable<string[]>) {
        if (header) {
          header = false;
          continue;
        }
        await lanes.add(readRow(record, ++rowNumber, target.mapping));
      }
    } catch (error) {
      // A write's failure is the database's (the queue retries the job); any other error here is the file's, and the
      // rows before it are still written.
      if (lanes.failed(error)) {
        // The other lanes' writes finish (or fail) before the run ends, so none is still writing when the job is retried.
        await lanes.settled();
        throw error;
      }
      await lanes.finish();
      throw new ImportFailure(describeCsvError(error));
    }
    await lanes.finish();
  }

  /** A batch that met a concurrent write is read and written again (its transaction rolled back entirely). */
  private async writeWithRetry(workspaceId: WorkspaceId, target: BatchTarget, lane: number, batch: LaneBatch) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.writer.write(workspaceId, target, lane, batch);
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
