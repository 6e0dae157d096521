import { Inject, Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
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

/** Cold: subscribed over this many days ago and no human open or click since (the engagement rollup's human opens). */
export const COLD_AFTER_DAYS = 90;

/**
 * Runs one export in the worker: one `COPY (SELECT …) TO STDOUT (FORMAT csv)` of the selected subscribers, in id
 * order, streamed into the job files store after the header line. PostgreSQL writes every cell (ISO times, tags and
 * list values comma-joined, the formula-injection guard of `safeCell`), so no row passes through JavaScript objects
 * and memory stays flat however many rows there are. A rerun writes the whole file again under the same key; it
 * appears only once complete.
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
    const count = await this.sql.transaction(async (client) => {
      const rows = client.query(copyTo(copyStatement(client, Prisma.join(conditions, ' AND '), fields)));
      await this.files.write(jobFileKey('exports', workspaceId, jobId), withHeader(header, rows));
      return rows.rowCount;
    });
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
}

/** The header line, then the rows. COPY sends one message per row: they are passed on in chunks of about 64 KiB. */
function withHeader(header: string, rows: Readable): Readable {
  let chunks: Buffer[] = [Buffer.from(header)];
  let size = 0;
  const out = new Transform({
    transform(row: Buffer, _encoding, next) {
      chunks.push(row);
      size += row.length;
      if (size < 65_536) return next();
      next(null, Buffer.concat(chunks));
      chunks = [];
      size = 0;
    },
    flush(next) {
      next(null, Buffer.concat(chunks));
    },
  });
  rows.once('error', (error) => out.destroy(error));
  return rows.pipe(out);
}

/**
 * `safeCell` in SQL: text starting with a formula character gets a leading quote; empty text is an empty cell. One
 * reference to its argument, so a subquery argument runs once.
 */
const safe = (text: string) => `NULLIF(regexp_replace(${text}, '^([-=+@\\t\\r])', '''\\1'), '')`;

/** An instant as JavaScript's toISOString writes it. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A custom field's stored value as text: a Multi Select's list comma-joined, any other value as written. */
const fieldText = (field: { id: string; type: string }, quote: (text: string) => string) => {
  const value = `s.custom_fields -> ${quote(field.id)}`;
  return field.type === 'Multi_Select'
    ? `(SELECT string_agg(e, ', ') FROM jsonb_array_elements_text(CASE jsonb_typeof(${value}) WHEN 'array' THEN ${value} ELSE jsonb_build_array(${value}) END) AS e)`
    : `(${value} #>> '{}')`;
};

/**
 * The COPY statement. COPY takes no bind parameters, so the selection's values are written into its text as literals
 * quoted by the connection's own escaping (the only values are strings and instants).
 */
function copyStatement(client: PoolClient, where: Prisma.Sql, fields: Array<{ id: string; type: string }>): string {
  const literal = (value: unknown): string => {
    if (typeof value === 'string') return client.escapeLiteral(value);
    if (value instanceof Date) return `${client.escapeLiteral(value.toISOString())}::timestamptz`;
    throw new TypeError(`an export condition has a ${typeof value} value`);
  };
  const condition = where.text.replace(/\$(\d+)/g, (_, n: string) => literal(where.values[Number(n) - 1]));
  const tags = `(SELECT string_agg(t.name, ', ' ORDER BY t.name) FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id
                 WHERE st.subscriber_id = s.id AND st.workspace_id = s.workspace_id)`;
  const columns = [
    's.id',
    safe('s.email'),
    safe('s.name'),
    's.status::text',
    's.country',
    ...['s.subscribed_at', 's.last_opened_at', 's.created_at', 's.updated_at'].map(iso),
    safe(tags),
    ...fields.map((field) => safe(fieldText(field, (text) => client.escapeLiteral(text)))),
  ];
  return `COPY (SELECT ${columns.join(', ')} FROM subscribers s WHERE ${condition} ORDER BY s.id) TO STDOUT (FORMAT csv)`;
}

/** Subscribed before the cutoff, and no human open or click (the engagement rollup) since. */
function coldCondition(cutoff: Date): Prisma.Sql {
  return Prisma.sql`s.subscribed_at < ${cutoff} AND NOT EXISTS (
    SELECT 1 FROM subscriber_engagement e WHERE e.subscriber_id = s.id AND (e.last_opened_at >= ${cutoff} OR e.last_clicked_at >= ${cutoff}))`;
}
