import { Inject, Injectable } from '@nestjs/common';
import * as ExcelJS from 'exceljs';
import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { UploadStorage } from '@forms/submissions';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, WorkspaceId } from '@shared/core';
import { SubmissionExportRow, SubmissionExportsRepository, SubmissionPosition } from './submission-exports.repository';
import { headerRow, submissionRow, workbookLayout } from './workbook-layout';

/** Submissions read per statement: memory holds one batch, whatever the export's size. */
export const EXPORT_BATCH_ROWS = 1000;
/** No workbook grows past this (a runaway guard, far above 100,000 submissions). */
const MAX_FILE_BYTES = 2 * 1024 ** 3 - 1;

/** Storage errors the person can understand, by errno code; anything else is an internal error. */
const STORAGE_FAILURES: Record<string, string> = {
  ENOSPC: 'There was no room left to store the export file.',
  EDQUOT: 'There was no room left to store the export file.',
  EACCES: 'The export file could not be stored: the storage refused the write.',
  EROFS: 'The export file could not be stored: the storage is read-only.',
};

/** What the export row says when its job gave up: safe to show, and says what to do (no stack, no internals). */
export function failureMessage(error: Error): string {
  const known = STORAGE_FAILURES[(error as NodeJS.ErrnoException).code ?? ''];
  return known
    ? `${known} Start a new export once the service's operators have fixed it.`
    : 'The export stopped on an internal error after several attempts; start a new export, and contact support if it fails again.';
}

/**
 * Waits until the zip's compression has taken the rows written so far. exceljs's worksheet stream pushes its XML into
 * the deflate stream without heeding backpressure, so rows produced faster than they are compressed pile up in memory
 * (about 0.7 MB per 1,000 rows); waiting for that stream's drain, and through it for the file, keeps memory flat.
 * Reaches into the writer (`stream.pipes`), checked at run time: without it, it only yields once.
 */
async function compressionCaughtUp(sheet: object, failed: Promise<unknown>): Promise<void> {
  const targets = (sheet as { stream?: { pipes?: unknown } }).stream?.pipes;
  if (!Array.isArray(targets)) return new Promise((resolve) => setImmediate(resolve));
  for (const target of targets as Writable[]) if (target.writableNeedDrain) await Promise.race([once(target, 'drain'), failed]);
}

/** Where an export's workbook is stored: beside the form's uploads, so a deleted form's files go together. */
export const exportFileKey = (formId: string, exportId: string) => `${formId}/${exportId}`;

/**
 * Runs one export in forms-worker: pages through the selected submissions (keyset, EXPORT_BATCH_ROWS at a time) and
 * streams them through exceljs's streaming writer into UploadStorage, so memory stays flat however many rows there
 * are. Idempotent: a finished export is skipped; an interrupted one is written again from the start under the same
 * key, replacing any partial file (a file appears under its key only once complete).
 */
@Injectable()
export class ExportRunner {
  constructor(
    private readonly repository: SubmissionExportsRepository,
    private readonly storage: UploadStorage,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'formsExportTtlHours'>,
  ) {}

  async run(workspaceId: WorkspaceId, exportId: string): Promise<'completed' | 'skipped'> {
    const row = await this.repository.start(workspaceId, exportId, this.clock.now());
    if (!row) return 'skipped';
    const fileKey = exportFileKey(row.form_id, row.id);
    const out = new PassThrough();
    // Its errors reach us through `stored`; a failed store stops the writing (see writeWorkbook).
    out.on('error', () => undefined);
    const stored = this.storage.write(fileKey, out, MAX_FILE_BYTES);
    stored.catch((error: Error) => out.destroy(error));
    let rowCount: number;
    try {
      rowCount = await this.writeWorkbook(workspaceId, row, out, stored);
    } catch (error) {
      out.destroy(error as Error);
      await stored.catch(() => undefined);
      throw error;
    }
    const { size } = await stored;
    const completedAt = this.clock.now();
    await this.repository.complete(workspaceId, row.id, {
      rowCount,
      fileKey,
      fileName: `responses-${row.form_id}-${completedAt.toISOString().slice(0, 10)}.xlsx`,
      fileSize: size,
      completedAt,
      expiresAt: new Date(completedAt.getTime() + this.config.formsExportTtlHours * 3_600_000),
    });
    return 'completed';
  }

  /** Marks the export failed once its job gave up, with a message the person can act on. */
  async giveUp(workspaceId: WorkspaceId, exportId: string, error: Error): Promise<void> {
    await this.repository.fail(workspaceId, exportId, failureMessage(error), this.clock.now());
  }

  /** Writes the whole workbook to `out` and ends it; returns the number of submission rows. */
  private async writeWorkbook(workspaceId: WorkspaceId, row: SubmissionExportRow, out: PassThrough, stored: Promise<unknown>): Promise<number> {
    const versions = await this.repository.versionsOf(workspaceId, row);
    const layout = workbookLayout(versions);
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet('Responses');
    sheet.addRow(headerRow(layout)).commit();
    let count = 0;
    let after: SubmissionPosition | null = null;
    for (;;) {
      const page = await this.repository.page(workspaceId, row, after, EXPORT_BATCH_ROWS);
      for (const submission of page) sheet.addRow(submissionRow(layout, submission)).commit();
      count += page.length;
      if (page.length < EXPORT_BATCH_ROWS) break;
      const last = page[page.length - 1];
      after = { createdAt: last.created_at, id: last.id };
      // Let compression and the file catch up before reading more, so rows do not pile up in memory; stop if it failed.
      await compressionCaughtUp(sheet, stored);
      if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), stored]);
      if (out.destroyed) throw out.errored ?? new Error('The export file stopped taking bytes.');
    }
    sheet.commit();
    // The writer waits for the file stream to finish, which never comes if the store failed first.
    await Promise.race([workbook.commit(), stored]);
    return count;
  }
}
