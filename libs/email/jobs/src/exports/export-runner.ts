import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { EmailPrisma, EmailSql, Prisma } from '@email/data-access';
import { subscriberConditions } from '@email/audience';
import type { SubscriberStatus } from '@email/data-access';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, WorkspaceId } from '@shared/core';
import { jobFileKey, JobFiles } from '../files/job-files';
import { safeCell, STANDARD_COLUMNS } from './export-csv';

/** Cold: subscribed over this many days ago and no human open or click since (the engagement rollup's human opens). */
export const COLD_AFTER_DAYS = 90;
const PAGE_ROWS = 5000;

interface ExportRow {
  id: string;
  email: string;
  name: string;
  status: string;
  country: string | null;
  subscribed_at: Date;
  last_opened_at: Date | null;
  created_at: Date;
  updated_at: Date;
  custom_fields: Record<string, unknown>;
  tags: string | null;
}

/**
 * Runs one export in the worker: pages through the selected subscribers by id (keyset, PAGE_ROWS at a time) and
 * streams them as CSV into the job files store, so memory stays flat however many rows there are. A rerun writes the
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
      select: { id: true, label: true },
    });
    const conditions = subscriberConditions(workspaceId, {
      search: job.query ?? undefined,
      status: (job.status_filter as SubscriberStatus | null) ?? undefined,
    });
    if (job.cold_only) conditions.push(coldCondition(new Date(started.getTime() - COLD_AFTER_DAYS * 86_400_000)));
    let count = 0;
    const pages = async function* (this: ExportRunner): AsyncGenerator<string> {
      yield stringify([[...STANDARD_COLUMNS, 'tags', ...fields.map((field) => safeCell(field.label))]]);
      let after = '';
      for (;;) {
        const rows = await this.page(conditions, after);
        if (!rows.length) return;
        count += rows.length;
        after = rows[rows.length - 1].id;
        yield stringify(
          rows.map((row) => [
            ...[row.id, row.email, row.name, row.status, row.country].map(safeCell),
            ...[row.subscribed_at, row.last_opened_at, row.created_at, row.updated_at].map((date) => date?.toISOString() ?? ''),
            safeCell(row.tags),
            ...fields.map((field) => safeCell(row.custom_fields[field.id])),
          ]),
        );
      }
    }.call(this);
    await this.files.write(jobFileKey('exports', workspaceId, jobId), Readable.from(pages));
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

  /** Called by the processor once retries are exhausted. */
  async giveUp(workspaceId: WorkspaceId, jobId: string): Promise<void> {
    await this.prisma.subscriberExportJob.updateMany({
      where: { workspace_id: workspaceId, id: jobId, status: { in: ['Queued', 'Processing'] } },
      data: { status: 'Failed', error_message: 'The export stopped on an internal error; start a new export.', completed_at: this.clock.now() },
    });
  }

  private async page(conditions: Prisma.Sql[], after: string): Promise<ExportRow[]> {
    const query = Prisma.sql`
      SELECT s.id, s.email, s.name, s.status::text AS status, s.country, s.subscribed_at, s.last_opened_at, s.created_at, s.updated_at, s.custom_fields,
             (SELECT string_agg(t.name, ', ' ORDER BY t.name) FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id
               WHERE st.subscriber_id = s.id AND st.workspace_id = s.workspace_id) AS tags
      FROM subscribers s WHERE ${Prisma.join(conditions, ' AND ')} AND s.id > ${after}
      ORDER BY s.id LIMIT ${PAGE_ROWS}`;
    return this.sql.query<ExportRow>({ text: query.text, values: query.values });
  }
}

/** Subscribed before the cutoff, and no human open or click (the engagement rollup) since. */
function coldCondition(cutoff: Date): Prisma.Sql {
  return Prisma.sql`s.subscribed_at < ${cutoff} AND NOT EXISTS (
    SELECT 1 FROM subscriber_engagement e WHERE e.subscriber_id = s.id AND (e.last_opened_at >= ${cutoff} OR e.last_clicked_at >= ${cutoff}))`;
}
