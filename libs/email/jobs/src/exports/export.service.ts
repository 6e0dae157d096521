import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { EmailErrors, EmailJobPayloads, EmailQueues } from '@email/contracts';
import { EmailPrisma, SubscriberExportJob } from '@email/data-access';
import { isBlank, SubscriberStatusName } from '@email/audience';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import { CursorCodec, keysetList, keysetWhere, Page, PageQueryDto } from '@shared/pagination';
import type { QueueOf } from '@shared/queue';
import { ImportJobStatus } from '../imports/import.dto';
import { SubscriberExportJobCreateRequestDto, SubscriberExportJobDto, SubscriberExportJobSummaryDto } from './export.dto';
import { ExportLinks } from './export-links';
import { exportQueueOptions } from '../queued-jobs';

export type ExportJobRow = SubscriberExportJob;

/** Whether the job's file can still be downloaded (completed, not expired, not cleaned up). */
const downloadable = (row: ExportJobRow, now: Date) => row.status === 'Completed' && !row.file_deleted_at && !!row.expires_at && row.expires_at > now;

export function toExportSummary(row: ExportJobRow): SubscriberExportJobSummaryDto {
  return {
    self: `/v1/jobs/subscriber-exports/${row.id}`,
    id: row.id,
    status: row.status as ImportJobStatus,
    exported_count: row.exported_count,
    expires_at: row.expires_at?.toISOString() ?? null,
    started_at: row.started_at?.toISOString() ?? null,
    completed_at: row.completed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Export jobs for the API: create, list, read (with a signed download link while the file exists). */
@Injectable()
export class ExportService {
  constructor(
    private readonly prisma: EmailPrisma,
    private readonly links: ExportLinks,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
    @InjectQueue(EmailQueues.subscriberExport) private readonly queue: QueueOf<EmailJobPayloads, 'subscriber-export'>,
  ) {}

  async create(workspaceId: WorkspaceId, request: SubscriberExportJobCreateRequestDto | undefined): Promise<SubscriberExportJobDto> {
    const id = this.ids.newId('exp');
    const row = await this.prisma.subscriberExportJob.create({
      data: {
        id,
        workspace_id: workspaceId,
        query: isBlank(request?.query) ? null : request!.query!.trim(),
        status_filter: request?.status ?? null,
        cold_only: request?.cold_only ?? false,
      },
    });
    await this.queue.add('export', { workspaceId, jobId: id }, exportQueueOptions(id));
    return this.toDto(row);
  }

  list(workspaceId: WorkspaceId, query: PageQueryDto): Promise<Page<SubscriberExportJobSummaryDto>> {
    return keysetList(
      this.cursors,
      `${workspaceId}:subscriber_exports`,
      query,
      (page) =>
        this.prisma.subscriberExportJob.findMany({
          where: { workspace_id: workspaceId, ...keysetWhere(page) },
          orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
          take: page.limit + 1,
        }),
      toExportSummary,
    );
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<SubscriberExportJobDto> {
    const row = await this.prisma.subscriberExportJob.findFirst({ where: { workspace_id: workspaceId, id } });
    if (!row) throw EmailErrors.notFound('subscriber_export_job', id);
    return this.toDto(row);
  }

  /** The job a download link names, if its file may still be downloaded (the link's signature is checked by the caller). */
  async downloadable(jobId: string): Promise<ExportJobRow | null> {
    // By id in any workspace: the signed link is all the person holds; the row names its workspace.
    const row = await this.prisma.subscriberExportJob.findUnique({ where: { id: jobId } });
    return row && downloadable(row, this.clock.now()) ? row : null;
  }

  private toDto(row: ExportJobRow): SubscriberExportJobDto {
    const { self, id, status, exported_count, expires_at, started_at, completed_at, created_at, updated_at } = toExportSummary(row);
    const live = downloadable(row, this.clock.now());
    return {
      self,
      id,
      status,
      selection: { query: row.query, status: row.status_filter as SubscriberStatusName | null, cold_only: row.cold_only },
      exported_count,
      file_name: live ? row.file_name : null,
      download_url: live ? this.links.url(row.id, row.expires_at!) : null,
      expires_at,
      error_message: row.error_message,
      started_at,
      completed_at,
      created_at,
      updated_at,
    };
  }
}
