import { Inject, Injectable } from '@nestjs/common';
import { to as copyTo } from 'pg-copy-streams';
import { Readable, Transform } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { EmailPrisma, EmailSql, Prisma } from '@email/data-access';
import { subscriberConditions } from '@email/audience';
import type { SubscriberStatus } from '@email/data-access';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, WorkspaceId } from '@shared/core';
import { jobFileKey, JobFiles } from '../files/job-files';
import { safeCell, STANDARD_COLUMNS } from './export-csv';
import { coldCondition, copyStatement, tagLookupFor } from './export-sql';

/** Cold: subscribed over this many days ago and no human open or click since (the engagement rollup's human opens). */
export const COLD_AFTER_DAYS = 90;

/**
 * Runs one export in the worker: one `COPY (SELECT …) TO STDOUT (FORMAT csv)` of the selected subscribers, in id
 * order (`copyStatement`), streamed into the job files store after the header line. PostgreSQL writes every cell, so
 * no row passes through JavaScript objects and memory stays flat however many rows there are. The tags are looked up
 * per row or read in one pass, whichever the planner's estimate of the selection makes cheaper. A rerun writes the
 * whole file again under the same key; it appears only once complete.
 */
@Injectable()
export class ExportRunner {
  constructor(
    private readonly prisma: EmailPrisma,
    private readonly sql: EmailSql,
    private readonly files: JobFiles,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'subscriberJobs'>,
  ) {}

  async run(workspaceId: WorkspaceId, jobId: string): Promise<'completed' | 'skipped'> {
    const job = await this.prisma.subscriberExportJob.findFirst({ where: { workspace_id: workspaceId, id: jobId } });
    if (!job || job.status === 'Completed' || job.status === 'Failed') return 'skipped';
    const started = this.clock.now();
    await this.prisma.subscriberExportJob.updateMany({
      where: { workspace_id: workspaceId, id: jobId },
      data: { status: 'Processing', started_at: job.started_at ?? started },
    });

    const fields = await this.prisma.customField.findMany({
      where: { workspace_id: workspaceId },
      orderBy: [{ label_key: 'asc' }],
      select: { id: true, label: true, type: true },
    });
    const conditions = subscriberConditions(workspaceId, {
      search: job.query ?? undefined,
      status: (job.status_filter as SubscriberStatus | null) ?? undefined,
    });
    if (job.cold_only) conditions.push(coldCondition(new Date(started.getTime() - COLD_AFTER_DAYS * 86_400_000)));
    const header = stringify([[...STANDARD_COLUMNS, 'tags', ...fields.map((field) => safeCell(field.label))]]);
    const count = await this.sql.transaction(
      async (client) => {
        const where = Prisma.join(conditions, ' AND ');
        const lookup = await tagLookupFor(client, workspaceId, where);
        const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
        const rows = client.query(copyTo(copyStatement(client, workspaceId, where, fields, lookup)));
        const copying = copyInProgress(rows);
        const file = withHeader(header, rows);
        try {
          await this.files.write(jobFileKey('exports', workspaceId, jobId), file);
        } catch (error) {
          // Destroyed first, so the cancelled COPY's error has nowhere to go.
          file.destroy();
          if (copying.now()) await this.stopCopy(pid, rows, copying.over);
          throw error;
        }
        return rows.rowCount;
      },
      // The COPY holds the transaction for as long as the file takes to write, however many rows it has.
      { timeoutMs: 0 },
    );
    const completed = this.clock.now();
    await this.prisma.subscriberExportJob.updateMany({
      where: { workspace_id: workspaceId, id: jobId },
      data: {
        status: 'Completed',
        exported_count: count,
        file_name: `subscribers-${completed.toISOString().slice(0, 10)}-${jobId}.csv`,
        completed_at: completed,
        expires_at: new Date(completed.getTime() + this.config.subscriberJobs.exportTtlHours * 3_600_000),
      },
    });
    return 'completed';
  }

  /**
   * After a failed write the COPY is still sending, and the connection reads nothing else (its ROLLBACK would wait
   * forever) until the COPY ends: it is cancelled, and what it still sends is read and dropped.
   */
  private async stopCopy(pid: number, rows: Readable, over: Promise<void>): Promise<void> {
    rows.unpipe();
    rows.resume();
    await this.sql.query({ text: 'SELECT pg_cancel_backend($1)', values: [pid] });
    await over;
  }

  /** Called by the processor once retries are exhausted. */
  async giveUp(workspaceId: WorkspaceId, jobId: string): Promise<void> {
    await this.prisma.subscriberExportJob.updateMany({
      where: { workspace_id: workspaceId, id: jobId, status: { in: ['Queued', 'Processing'] } },
      data: { status: 'Failed', error_message: 'The export stopped on an internal error; start a new export.', completed_at: this.clock.now() },
    });
  }
}

/** Whether the COPY is still sending, and when it stops (its end or its error). */
function copyInProgress(rows: Readable): { now: () => boolean; over: Promise<void> } {
  let copying = true;
  const over = new Promise<void>((resolve) => {
    const stop = () => {
      copying = false;
      resolve();
    };
    rows.once('end', stop);
    rows.once('error', stop);
  });
  return { now: () => copying, over };
}

/**
 * The size of the pieces written: pg-copy-streams passes on one chunk per socket read (about 10 KiB), and a write per
 * chunk cost as much CPU again as reading them (system calls, stream bookkeeping); in 256 KiB pieces, a third of it.
 */
const WRITE_BYTES = 256 * 1024;

/** The header line, then the rows, in pieces of about WRITE_BYTES. */
function withHeader(header: string, rows: Readable): Readable {
  let chunks: Buffer[] = [Buffer.from(header)];
  let size = chunks[0].length;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      chunks.push(chunk);
      size += chunk.length;
      if (size < WRITE_BYTES) return next();
      const piece = Buffer.concat(chunks, size);
      chunks = [];
      size = 0;
      next(null, piece);
    },
    flush(next) {
      next(null, Buffer.concat(chunks, size));
    },
  });
  rows.once('error', (error) => out.destroy(error));
  return rows.pipe(out);
}
