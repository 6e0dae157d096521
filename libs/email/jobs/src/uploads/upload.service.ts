import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { EmailErrors } from '@email/contracts';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import { SubscriberImportUploadDto } from './upload.dto';
import { UploadRepository, UploadRow } from './upload.repository';

/** How long the browser link works (once). */
export const UPLOAD_LINK_TTL_MS = 30 * 60 * 1000;
/** How long an upload and its file are kept for an import job to take them. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** The path of the browser page; the token after it is the only authority. */
export const UPLOAD_PAGE_PATH = '/imports/subscribers';

export const uploadTokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');

export function toUploadDto(row: UploadRow, uploadUrl: string | null = null): SubscriberImportUploadDto {
  return {
    self: `/v1/jobs/subscriber-import-uploads/${row.id}`,
    id: row.id,
    status: row.status as SubscriberImportUploadDto['status'],
    upload_url: uploadUrl,
    file_name: row.file_name,
    size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
    headers: row.headers,
    row_count: row.row_count,
    import_job_id: row.import_job_id,
    expires_at: row.expires_at.toISOString(),
    uploaded_at: row.uploaded_at?.toISOString() ?? null,
    queued_at: row.queued_at?.toISOString() ?? null,
  };
}

/** The API side of import uploads: start one (a one-time browser link) and read it. The page is UploadPageService. */
@Injectable()
export class UploadService {
  constructor(
    private readonly uploads: UploadRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'publicBaseUrl'>,
  ) {}

  async start(workspaceId: WorkspaceId): Promise<SubscriberImportUploadDto> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now().getTime();
    const row = await this.uploads.create(workspaceId, {
      id: this.ids.newId('imu'),
      token_hash: uploadTokenDigest(token),
      link_expires_at: new Date(now + UPLOAD_LINK_TTL_MS),
      expires_at: new Date(now + UPLOAD_TTL_MS),
    });
    return toUploadDto(row, `${this.config.publicBaseUrl}${UPLOAD_PAGE_PATH}/${token}`);
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<SubscriberImportUploadDto> {
    const row = await this.uploads.find(workspaceId, id, this.clock.now());
    if (!row) throw EmailErrors.notFound('subscriber_import_upload', id);
    return toUploadDto(row);
  }
}
