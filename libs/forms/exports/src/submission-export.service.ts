import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Readable } from 'node:stream';
import { FormsErrors, FormsJobPayloads, FormsQueues } from '@forms/contracts';
import { UploadStorage } from '@forms/submissions';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import type { QueueOf } from '@shared/queue';
import { ExportSelection, readExportSelection, SubmissionStatus } from './export-selection';
import { SubmissionExportRow, SubmissionExportsRepository } from './submission-exports.repository';

export type SubmissionExportStatus = SubmissionExportRow['status'];

/** An export as the app session and the MCP tools show it. */
export interface SubmissionExportView {
  id: string;
  formId: string;
  status: SubmissionExportStatus;
  selection: ExportSelection;
  rowCount: number | null;
  /** Set while the file can be downloaded. */
  fileName: string | null;
  fileSize: number | null;
  expiresAt: string | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

export interface ExportDownload {
  stream: Readable;
  fileName: string;
  size: number;
  contentType: string;
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Attempts of one export job before it is marked failed, and the wait between them. */
export const EXPORT_JOB_OPTIONS = { attempts: 3, backoff: { type: 'exponential', delay: 2000 } } as const;

const iso = (date: Date | null) => date?.toISOString() ?? null;

function selectionOf(row: SubmissionExportRow): ExportSelection {
  return {
    selectedSubmissionIds: row.selected_submission_ids.length ? row.selected_submission_ids : null,
    filters: { search: row.filter_search, status: row.filter_status as SubmissionStatus | null, from: row.filter_from, to: row.filter_to },
  };
}

const sameSelection = (a: ExportSelection, b: ExportSelection) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Spreadsheet exports of a form's submissions: start one (checked, stored, queued for forms-worker), read it, and
 * open its file. Every method takes the workspace first; a form of another workspace is a 404 like a missing one.
 */
@Injectable()
export class SubmissionExportService {
  constructor(
    private readonly repository: SubmissionExportsRepository,
    private readonly storage: UploadStorage,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    @InjectQueue(FormsQueues.formsExport) private readonly queue: QueueOf<FormsJobPayloads, 'forms-export'>,
  ) {}

  /**
   * Starts an export of `body`'s selection (see readExportSelection). With an idempotency key, a repeat of the same
   * request answers the export it started (and queues its job again if that was lost); another body with the key is a
   * 409. The job id is the export id, so the job is queued at most once however often this runs.
   */
  async start(workspaceId: WorkspaceId, formId: string, body: unknown, options: { idempotencyKey?: string } = {}): Promise<SubmissionExportView> {
    const selection = readExportSelection(body);
    if (!(await this.repository.formExists(workspaceId, formId))) throw FormsErrors.notFound('form', formId);
    if (selection.selectedSubmissionIds) await this.checkSubmissions(workspaceId, formId, selection.selectedSubmissionIds);

    const key = options.idempotencyKey || null;
    const id = this.ids.newId('sxp');
    const inserted = await this.repository.insert(workspaceId, { id, formId, idempotencyKey: key, selection });
    const row = inserted ? await this.repository.get(workspaceId, formId, id) : key && (await this.repository.byIdempotencyKey(workspaceId, formId, key));
    if (!row) throw FormsErrors.notFound('form', formId);
    if (!sameSelection(selectionOf(row), selection)) {
      throw FormsErrors.fail('idempotency_key_reused', 'This idempotency key started an export of another selection; use a new key.');
    }
    if (row.status === 'queued') await this.enqueue(workspaceId, row.id, inserted);
    return this.toView(row);
  }

  async get(workspaceId: WorkspaceId, formId: string, exportId: string): Promise<SubmissionExportView> {
    return this.toView(await this.find(workspaceId, formId, exportId));
  }

  /** The stored workbook: 409 until the export completed, 410 once its file expired. */
  async openDownload(workspaceId: WorkspaceId, formId: string, exportId: string): Promise<ExportDownload> {
    const row = await this.find(workspaceId, formId, exportId);
    if (row.status !== 'completed') {
      throw FormsErrors.fail('export_not_ready', `The export is ${row.status}; its file can be downloaded once it has completed.`);
    }
    const stream = this.live(row) ? await this.storage.read(row.file_key!) : null;
    if (!stream) throw FormsErrors.fail('export_expired', 'The export file has expired and was removed; start a new export.');
    return { stream, fileName: row.file_name!, size: row.file_size!, contentType: XLSX_CONTENT_TYPE };
  }

  /** Queues the export's job; a new export whose job could not be queued is removed, so nothing is left half-started. */
  private async enqueue(workspaceId: WorkspaceId, exportId: string, isNew: boolean): Promise<void> {
    try {
      await this.queue.add('export', { workspaceId, exportId }, { jobId: exportId, ...EXPORT_JOB_OPTIONS });
    } catch (error) {
      if (isNew) await this.repository.remove(workspaceId, exportId);
      throw error;
    }
  }

  private async checkSubmissions(workspaceId: WorkspaceId, formId: string, ids: string[]): Promise<void> {
    const found = await this.repository.submissionIdsOf(workspaceId, formId, ids);
    const index = ids.findIndex((id) => !found.has(id));
    if (index >= 0) {
      const field = `selectedSubmissionIds[${index}]`;
      throw FormsErrors.invalid('unknown_submission', `${field}: "${ids[index]}" is not a submission of this form.`, field);
    }
  }

  private async find(workspaceId: WorkspaceId, formId: string, exportId: string): Promise<SubmissionExportRow> {
    const row = await this.repository.get(workspaceId, formId, exportId);
    if (!row) throw FormsErrors.notFound('submission_export', exportId);
    return row;
  }

  private live(row: SubmissionExportRow): boolean {
    return row.status === 'completed' && row.file_key !== null && row.expires_at !== null && row.expires_at > this.clock.now();
  }

  private toView(row: SubmissionExportRow): SubmissionExportView {
    const live = this.live(row);
    return {
      id: row.id,
      formId: row.form_id,
      status: row.status,
      selection: selectionOf(row),
      rowCount: row.row_count,
      fileName: live ? row.file_name : null,
      fileSize: live ? row.file_size : null,
      expiresAt: iso(row.expires_at),
      error: row.error,
      createdAt: row.created_at.toISOString(),
      startedAt: iso(row.started_at),
      completedAt: iso(row.completed_at),
    };
  }
}
