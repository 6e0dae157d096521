import { Injectable } from '@nestjs/common';
import { FormsPrisma, FormsSql, SubmissionExport } from '@forms/data-access';
import type { DraftSchema } from '@forms/draft-schema';
import { likeLiteral, type WorkspaceId } from '@shared/core';
import type { ExportSelection } from './export-selection';
import type { ExportedSubmission } from './workbook-layout';

export type SubmissionExportRow = SubmissionExport;

export interface NewSubmissionExport {
  id: string;
  formId: string;
  idempotencyKey: string | null;
  selection: ExportSelection;
}

/** Where the keyset walk through an export's submissions stands: after this (created_at, id). */
export interface SubmissionPosition {
  createdAt: Date;
  id: string;
}

/** The selection's parameters ($3..$8) after workspace ($1) and form ($2), in the order SELECTED names them. */
function selectionValues(row: SubmissionExportRow): unknown[] {
  const search = row.filter_search;
  const pattern = search === null ? null : `%${likeLiteral(search)}%`;
  return [row.selected_submission_ids, row.filter_status, row.filter_from, row.filter_to, search, pattern];
}

/**
 * The submissions an export covers, reached through a form of the workspace. With ids, exactly those; otherwise the
 * filters, each off when null (one statement, prepared once). Search matches an answer's text or the submission id.
 */
const SELECTED = `
  FROM form_submissions s JOIN forms f ON f.id = s.form_id AND f.workspace_id = $1
  WHERE s.form_id = $2
    AND (cardinality($3::text[]) = 0 OR s.id = ANY($3::text[]))
    AND ($4::text IS NULL OR s.record->'submission'->>'status' = $4)
    AND ($5::timestamptz IS NULL OR s.created_at >= $5)
    AND ($6::timestamptz IS NULL OR s.created_at <= $6)
    AND ($7::text IS NULL OR s.id = $7 OR EXISTS (
      SELECT 1 FROM json_array_elements(s.record->'answers') a WHERE a->>'text' ILIKE $8))`;

const INSERT_EXPORT = `
  INSERT INTO submission_exports (id, workspace_id, form_id, idempotency_key, selected_submission_ids,
                                  filter_search, filter_status, filter_from, filter_to, updated_at)
  SELECT $1, f.workspace_id, f.id, $4, $5, $6, $7, $8, $9, now() FROM forms f WHERE f.id = $2 AND f.workspace_id = $3
  ON CONFLICT (workspace_id, form_id, idempotency_key) DO NOTHING
  RETURNING id`;

/**
 * Spreadsheet exports and the submissions they read. Every statement names the workspace, the submissions through
 * their form's. The only place this domain talks to the database.
 */
@Injectable()
export class SubmissionExportsRepository {
  constructor(
    private readonly prisma: FormsPrisma,
    private readonly sql: FormsSql,
  ) {}

  async formExists(workspaceId: WorkspaceId, formId: string): Promise<boolean> {
    return (await this.prisma.form.count({ where: { id: formId, workspace_id: workspaceId } })) === 1;
  }

  /** Which of these ids are submissions of the form. */
  async submissionIdsOf(workspaceId: WorkspaceId, formId: string, ids: string[]): Promise<Set<string>> {
    const rows = await this.prisma.formSubmission.findMany({
      where: { id: { in: ids }, form_id: formId, form: { workspace_id: workspaceId } },
      select: { id: true },
    });
    return new Set(rows.map((row) => row.id));
  }

  /** Stores a queued export; false when the form is not the workspace's, or the idempotency key is taken. */
  async insert(workspaceId: WorkspaceId, row: NewSubmissionExport): Promise<boolean> {
    const { selectedSubmissionIds, filters } = row.selection;
    const inserted = await this.sql.query({
      name: 'insert_submission_export',
      text: INSERT_EXPORT,
      values: [row.id, row.formId, workspaceId, row.idempotencyKey, selectedSubmissionIds ?? [], filters.search, filters.status, filters.from, filters.to],
    });
    return inserted.length === 1;
  }

  get(workspaceId: WorkspaceId, formId: string, id: string): Promise<SubmissionExportRow | null> {
    return this.prisma.submissionExport.findFirst({ where: { id, form_id: formId, workspace_id: workspaceId } });
  }

  byIdempotencyKey(workspaceId: WorkspaceId, formId: string, key: string): Promise<SubmissionExportRow | null> {
    return this.prisma.submissionExport.findFirst({ where: { workspace_id: workspaceId, form_id: formId, idempotency_key: key } });
  }

  async remove(workspaceId: WorkspaceId, id: string): Promise<void> {
    await this.prisma.submissionExport.deleteMany({ where: { id, workspace_id: workspaceId, status: 'queued' } });
  }

  /** Moves a queued (or interrupted) export to processing; null when it is missing or already finished. */
  async start(workspaceId: WorkspaceId, id: string, now: Date): Promise<SubmissionExportRow | null> {
    const { count } = await this.prisma.submissionExport.updateMany({
      where: { id, workspace_id: workspaceId, status: { in: ['queued', 'processing'] } },
      data: { status: 'processing', started_at: now },
    });
    return count ? this.prisma.submissionExport.findFirst({ where: { id, workspace_id: workspaceId } }) : null;
  }

  async complete(
    workspaceId: WorkspaceId,
    id: string,
    file: { rowCount: number; fileKey: string; fileName: string; fileSize: number; completedAt: Date; expiresAt: Date },
  ): Promise<void> {
    await this.prisma.submissionExport.updateMany({
      where: { id, workspace_id: workspaceId, status: 'processing' },
      data: {
        status: 'completed',
        row_count: file.rowCount,
        file_key: file.fileKey,
        file_name: file.fileName,
        file_size: file.fileSize,
        completed_at: file.completedAt,
        expires_at: file.expiresAt,
      },
    });
  }

  async fail(workspaceId: WorkspaceId, id: string, error: string, now: Date): Promise<void> {
    await this.prisma.submissionExport.updateMany({
      where: { id, workspace_id: workspaceId, status: { in: ['queued', 'processing'] } },
      data: { status: 'failed', error, completed_at: now },
    });
  }

  /** The published versions the export's submissions were validated against. */
  async versionsOf(workspaceId: WorkspaceId, row: SubmissionExportRow): Promise<{ version: number; schema: DraftSchema }[]> {
    const used = await this.sql.query<{ version: number }>({
      name: 'submission_export_versions',
      text: `SELECT DISTINCT s.published_version AS version ${SELECTED}`,
      values: [workspaceId, row.form_id, ...selectionValues(row)],
    });
    const versions = await this.prisma.formVersion.findMany({
      where: { form_id: row.form_id, form: { workspace_id: workspaceId }, version: { in: used.map((v) => v.version) } },
      select: { version: true, schema: true },
    });
    return versions.map((v) => ({ version: v.version, schema: v.schema as unknown as DraftSchema }));
  }

  /** The next `limit` submissions of the export after `after`, oldest first (keyset on created_at, id). */
  page(workspaceId: WorkspaceId, row: SubmissionExportRow, after: SubmissionPosition | null, limit: number): Promise<ExportedSubmission[]> {
    return this.sql.query<ExportedSubmission>({
      name: 'submission_export_page',
      text: `SELECT s.id, s.created_at, s.record->'submission'->>'status' AS status,
                    s.record->'answers' AS answers, s.record->'submission'->'payments' AS payments
             ${SELECTED} AND (s.created_at, s.id) > ($9::timestamptz, $10::text)
             ORDER BY s.created_at, s.id LIMIT $11`,
      values: [workspaceId, row.form_id, ...selectionValues(row), after?.createdAt ?? '-infinity', after?.id ?? '', limit],
    });
  }

  /** Completed exports past their expiry whose file is still stored, up to `limit`. */
  // Across every workspace: the clean-up expires files by date alone, on behalf of no tenant.
  expiredFilesOfAllWorkspaces(now: Date, limit: number): Promise<{ id: string; file_key: string }[]> {
    return this.prisma.submissionExport.findMany({
      where: { expires_at: { lte: now }, file_key: { not: null } },
      select: { id: true, file_key: true },
      take: limit,
    }) as Promise<{ id: string; file_key: string }[]>;
  }

  // Across every workspace: see expiredFilesOfAllWorkspaces; the rows stay, without their file.
  async forgetFilesOfAllWorkspaces(ids: string[]): Promise<void> {
    await this.prisma.submissionExport.updateMany({ where: { id: { in: ids } }, data: { file_key: null } });
  }
}
