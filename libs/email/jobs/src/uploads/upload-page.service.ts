import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { CsvFormat, detectFormat, readHead } from '../csv/csv-format';
import { CsvProblem, scanCsv } from '../csv/csv-scan';
import { FileTooLargeError, jobFileKey, JobFiles } from '../files/job-files';
import { UploadRepository, UploadRow } from './upload.repository';
import { uploadTokenDigest } from './upload.service';

/** What the page shows for a link. */
export type UploadPageView = { state: 'invalid' } | { state: 'closed'; reason: 'expired' | 'used' } | { state: 'form'; maxBytes: number; linkExpiresAt: Date };

/** The answer to one file sent through the page. */
export type UploadOutcome =
  | { ok: true; file_name: string; size_bytes: number; headers: string[]; row_count: number }
  | { ok: false; status: 400 | 403 | 404 | 409 | 410 | 413 | 422; code: string; message: string };

const refused = (status: 400 | 404 | 409 | 410 | 413 | 422, code: string, message: string): UploadOutcome => ({ ok: false, status, code, message });

/** A file name as the browser gave it, kept to its last path segment, printable characters and a sane length. */
function cleanFileName(raw: string | undefined): string {
  const name = (raw ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/\p{Cc}/gu, '')
    .trim();
  return name.slice(0, 255) || 'upload.csv';
}

/** The endings of the text exports an import reads; anything else (a spreadsheet, a picture) is refused unread. */
const CSV_NAME = /\.(csv|tsv|txt)$/i;

/** How a byte limit reads on the page. */
export const byteLimitText = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.floor(bytes / 1024)} KB` : `${Math.floor(bytes / (1024 * 1024))} MB`);

/**
 * The browser page behind an upload's `upload_url`: the link's token is the only authority. One file is accepted per
 * link: it streams to storage under the upload's key, is read back as a stream for its encoding, delimiter, header row
 * and row count, and only then does the upload become Ready. A refused file leaves nothing behind and frees the link.
 */
@Injectable()
export class UploadPageService {
  constructor(
    private readonly uploads: UploadRepository,
    private readonly files: JobFiles,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'subscriberJobs'>,
  ) {}

  get maxBytes(): number {
    return this.config.subscriberJobs.importMaxBytes;
  }

  async view(token: string): Promise<UploadPageView> {
    const row = await this.byToken(token);
    if (!row) return { state: 'invalid' };
    const closed = this.closedReason(row);
    return closed ? { state: 'closed', reason: closed } : { state: 'form', maxBytes: this.maxBytes, linkExpiresAt: row.link_expires_at };
  }

  /** One file sent through the page; `fileName` is the name the browser gave, decoded. */
  async receive(token: string, body: Readable, fileName: string | undefined, declaredBytes: number | undefined): Promise<UploadOutcome> {
    const row = await this.byToken(token);
    if (!row) return refused(404, 'invalid_link', 'This upload link is not valid.');
    const closed = this.closedReason(row);
    if (closed) return refused(410, `link_${closed}`, closed === 'used' ? 'A file was already uploaded through this link.' : 'This upload link expired.');
    const name = cleanFileName(fileName);
    if (!CSV_NAME.test(name)) return refused(422, 'not_csv', `“${name}” is not a CSV file. Choose a .csv file (a .tsv or .txt export works too).`);
    if (declaredBytes !== undefined && declaredBytes > this.maxBytes) return this.tooLarge(name);
    if (declaredBytes === 0) return this.empty(name);
    const workspaceId = trustedWorkspaceId(row.workspace_id);
    if (!(await this.uploads.claim(workspaceId, row.id, this.clock.now()))) {
      return refused(409, 'upload_in_progress', 'Another file is being uploaded through this link; wait for it to finish.');
    }
    const key = jobFileKey('imports', row.workspace_id, row.id);
    try {
      const size = await this.files.write(key, body, this.maxBytes);
      if (size === 0) return await this.refuse(workspaceId, row.id, key, this.empty(name));
      const format = await this.formatOf(key);
      const scan = await scanCsv((await this.files.read(key))!, format);
      const file = { file_name: name, size_bytes: BigInt(size), ...format, headers: scan.headers, row_count: scan.rowCount, uploaded_at: this.clock.now() };
      if (!(await this.uploads.markReady(workspaceId, row.id, file))) throw new CsvProblem('unreadable_csv', 'The upload expired while the file arrived.');
      return { ok: true, file_name: name, size_bytes: size, headers: scan.headers, row_count: scan.rowCount };
    } catch (error) {
      if (error instanceof FileTooLargeError) return this.refuse(workspaceId, row.id, key, this.tooLarge(name));
      if (error instanceof CsvProblem) return this.refuse(workspaceId, row.id, key, refused(422, error.code, error.message));
      await this.forget(workspaceId, row.id, key);
      throw error;
    }
  }

  /** A refused file leaves nothing behind and frees the link. */
  private async refuse(workspaceId: WorkspaceId, id: string, key: string, outcome: UploadOutcome): Promise<UploadOutcome> {
    await this.forget(workspaceId, id, key);
    return outcome;
  }

  private async forget(workspaceId: WorkspaceId, id: string, key: string): Promise<void> {
    await this.files.remove(key);
    await this.uploads.release(workspaceId, id);
  }

  private async formatOf(key: string): Promise<CsvFormat> {
    return detectFormat(await readHead((await this.files.read(key))!));
  }

  private tooLarge(name: string): UploadOutcome {
    return refused(413, 'file_too_large', `“${name}” is larger than ${byteLimitText(this.maxBytes)}, the most an import accepts.`);
  }

  private empty(name: string): UploadOutcome {
    return refused(422, 'empty_file', `“${name}” is empty. Choose a CSV file with a header row.`);
  }

  private closedReason(row: UploadRow): 'expired' | 'used' | null {
    if (row.status !== 'Pending') return 'used';
    return row.link_expires_at <= this.clock.now() ? 'expired' : null;
  }

  private byToken(token: string): Promise<UploadRow | null> {
    return /^[A-Za-z0-9_-]{43}$/.test(token) ? this.uploads.findByTokenHash(uploadTokenDigest(token)) : Promise.resolve(null);
  }
}
