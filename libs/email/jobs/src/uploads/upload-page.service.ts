import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, trustedWorkspaceId } from '@shared/core';
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
  | { ok: false; status: 400 | 404 | 409 | 410 | 413 | 422; code: string; message: string };

const refused = (status: 400 | 404 | 409 | 410 | 413 | 422, code: string, message: string): UploadOutcome => ({ ok: false, status, code, message });

/** A file name as the browser gave it, kept to its last path segment, printable characters and a sane length. */
function cleanFileName(raw: string | undefined): string {
  let name: string;
  try {
    name = decodeURIComponent(raw ?? '');
  } catch {
    name = '';
  }
  name = name
    .split(/[\\/]/)
    .pop()!
    .replace(/\p{Cc}/gu, '')
    .trim();
  return name.slice(0, 255) || 'upload.csv';
}

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

  async receive(token: string, body: Readable, fileName: string | undefined, declaredBytes: number | undefined): Promise<UploadOutcome> {
    const row = await this.byToken(token);
    if (!row) return refused(404, 'invalid_link', 'This upload link is not valid.');
    const closed = this.closedReason(row);
    if (closed) return refused(410, `link_${closed}`, closed === 'used' ? 'A file was already uploaded through this link.' : 'This upload link expired.');
    if (declaredBytes !== undefined && declaredBytes > this.maxBytes) return this.tooLarge();
    if (declaredBytes === 0) return refused(422, 'empty_file', 'The file is empty.');
    const workspaceId = trustedWorkspaceId(row.workspace_id);
    if (!(await this.uploads.claim(workspaceId, row.id, this.clock.now()))) {
      return refused(409, 'upload_in_progress', 'Another file is being uploaded through this link; wait for it to finish.');
    }
    const key = jobFileKey('imports', row.workspace_id, row.id);
    try {
      const size = await this.files.write(key, body, this.maxBytes);
      if (size === 0) throw new CsvProblem('empty_file', 'The file is empty.');
      const format = await this.formatOf(key);
      const scan = await scanCsv((await this.files.read(key))!, format);
      const name = cleanFileName(fileName);
      const file = { file_name: name, size_bytes: BigInt(size), ...format, headers: scan.headers, row_count: scan.rowCount, uploaded_at: this.clock.now() };
      if (!(await this.uploads.markReady(workspaceId, row.id, file))) throw new CsvProblem('unreadable_csv', 'The upload expired while the file arrived.');
      return { ok: true, file_name: name, size_bytes: size, headers: scan.headers, row_count: scan.rowCount };
    } catch (error) {
      await this.files.remove(key);
      await this.uploads.release(workspaceId, row.id);
      if (error instanceof FileTooLargeError) return this.tooLarge();
      if (error instanceof CsvProblem) return refused(422, error.code, error.message);
      throw error;
    }
  }

  private async formatOf(key: string): Promise<CsvFormat> {
    return detectFormat(await readHead((await this.files.read(key))!));
  }

  private tooLarge(): UploadOutcome {
    const limit = this.maxBytes < 1024 * 1024 ? `${Math.floor(this.maxBytes / 1024)} KB` : `${Math.floor(this.maxBytes / (1024 * 1024))} MB`;
    return refused(413, 'file_too_large', `The file is larger than ${limit}, the most an import accepts.`);
  }

  private closedReason(row: UploadRow): 'expired' | 'used' | null {
    if (row.status !== 'Pending') return 'used';
    return row.link_expires_at <= this.clock.now() ? 'expired' : null;
  }

  private byToken(token: string): Promise<UploadRow | null> {
    return /^[A-Za-z0-9_-]{43}$/.test(token) ? this.uploads.findByTokenHash(uploadTokenDigest(token)) : Promise.resolve(null);
  }
}
