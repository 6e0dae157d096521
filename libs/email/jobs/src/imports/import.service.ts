import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { EmailErrors, EmailJobPayloads, EmailQueues } from '@email/contracts';
import { EmailPrisma, Prisma } from '@email/data-access';
import { isBlank, TagRepository } from '@email/audience';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import { CursorCodec, keysetList, Page, PageQueryDto, parseLimit } from '@shared/pagination';
import type { QueueOf } from '@shared/queue';
import { UploadRepository } from '../uploads/upload.repository';
import {
  SubscriberImportJobCreateRequestDto,
  SubscriberImportJobDto,
  SubscriberImportJobSummaryDto,
  SubscriberImportResultsResponseDto,
  ImportJobStatus,
} from './import.dto';
import { compileMapping, mappedCustomFieldIds } from './import-mapping';
import { ImportJobRepository, ImportJobRow } from './import-job.repository';
import { importQueueOptions } from '../queued-jobs';

/** What the worker needs of the request, stored with the job (the new tag already resolved to its id). */
export interface StoredImportRequest {
  mappings: SubscriberImportJobCreateRequestDto['mappings'];
  tag_ids: string[];
  new_tag_name: string | null;
  sequence_ids: string[];
}

const isRowPosition = (position: unknown): position is { row: number } =>
  typeof (position as { row?: unknown })?.row === 'number' && Number.isInteger((position as { row: number }).row);

export function toImportSummary(row: ImportJobRow): SubscriberImportJobSummaryDto {
  const done = row.status === 'Completed' || row.status === 'Failed';
  return {
    self: `/v1/jobs/subscriber-imports/${row.id}`,
    id: row.id,
    status: row.status as ImportJobStatus,
    imported_count: done || row.processed_rows ? row.created_count + row.updated_count + row.unchanged_count : null,
    started_at: row.started_at?.toISOString() ?? null,
    completed_at: row.completed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const toImportDto = (row: ImportJobRow): SubscriberImportJobDto => {
  const { self, id, status, imported_count, started_at, completed_at, created_at, updated_at } = toImportSummary(row);
  return { self, id, status, imported_count, error_message: row.error_message, started_at, completed_at, created_at, updated_at };
};

/** Import jobs for the API: create (or preview as a dry run), list, read, and the rejected-rows report. */
@Injectable()
export class ImportService {
  constructor(
    private readonly jobs: ImportJobRepository,
    private readonly uploads: UploadRepository,
    private readonly tags: TagRepository,
    private readonly prisma: EmailPrisma,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
    @InjectQueue(EmailQueues.subscriberImport) private readonly queue: QueueOf<EmailJobPayloads, 'subscriber-import'>,
  ) {}

  /**
   * Checks everything that can be checked before a row is read (the upload is Ready, each mapping fits its headers and
   * the workspace's custom fields, the tags and sequences exist), then queues the job. A real import takes the upload
   * (Ready → Queued) in the job's transaction; a dry run leaves it Ready for the import that follows.
   */
  async create(workspaceId: WorkspaceId, request: SubscriberImportJobCreateRequestDto, dryRun: boolean): Promise<SubscriberImportJobDto> {
    const now = this.clock.now();
    const upload = await this.uploads.find(workspaceId, request.upload_id, now);
    if (!upload) throw EmailErrors.invalid('validation_failed', `"${request.upload_id}" is not an upload of this workspace (or it expired).`, 'upload_id');
    if (upload.status !== 'Ready') {
      throw EmailErrors.invalid(
        'import_upload_not_ready',
        upload.status === 'Pending' ? 'The upload has no file yet.' : 'Another import job already took this upload.',
        'upload_id',
      );
    }
    compileMapping(request.mappings, upload.headers, await this.jobs.customFieldDefinitions(workspaceId, mappedCustomFieldIds(request.mappings)));
    await this.requireAll(workspaceId, 'tags', request.existing_tag_ids ?? [], 'unknown_tag', 'existing_tag_ids');
    await this.requireAll(workspaceId, 'sequences', request.sequence_ids ?? [], 'unknown_sequence', 'sequence_ids');
    const newTagName = isBlank(request.new_tag_name) ? null : request.new_tag_name!.trim();

    const id = this.ids.newId('imp');
    const job = await this.prisma.$transaction(async (tx) => {
      const tagIds = [...new Set(request.existing_tag_ids ?? [])];
      // A dry run creates nothing, not even the new tag; an import creates it now, so a resumed job uses the same tag.
      if (newTagName && !dryRun) tagIds.push(...(await this.tags.findOrCreateByNames(workspaceId, tx, [newTagName], () => this.ids.newId('tag'), now)));
      const stored: StoredImportRequest = {
        mappings: request.mappings,
        tag_ids: [...new Set(tagIds)],
        new_tag_name: newTagName,
        sequence_ids: [...new Set(request.sequence_ids ?? [])],
      };
      const created = await this.jobs.create(
        workspaceId,
        { id, upload_id: upload.id, dry_run: dryRun, request: stored as unknown as Prisma.InputJsonValue },
        tx,
      );
      if (!dryRun && !(await this.uploads.markQueued(workspaceId, upload.id, id, now, tx))) {
        throw EmailErrors.invalid('import_upload_not_ready', 'Another import job already took this upload.', 'upload_id');
      }
      return created;
    });
    // The job id is the queue's job id: queuing it again (a retry of this call, the stale-job sweep) adds nothing.
    await this.queue.add('import', { workspaceId, jobId: id }, importQueueOptions(id));
    return toImportDto(job);
  }

  list(workspaceId: WorkspaceId, query: PageQueryDto): Promise<Page<SubscriberImportJobSummaryDto>> {
    return keysetList(this.cursors, `${workspaceId}:subscriber_imports`, query, (page) => this.jobs.list(workspaceId, page), toImportSummary);
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<SubscriberImportJobDto> {
    return toImportDto(await this.require(workspaceId, id));
  }

  /** Our extension: the counts and a page of rejected rows, in row order. */
  async results(workspaceId: WorkspaceId, id: string, query: PageQueryDto): Promise<SubscriberImportResultsResponseDto> {
    const job = await this.require(workspaceId, id);
    const scope = `${workspaceId}:subscriber_import_rejections:${id}`;
    const limit = parseLimit(query.limit);
    const after = query.starting_after ? this.cursors.decode(scope, query.starting_after, isRowPosition).row : 0;
    const rows = await this.jobs.rejections(workspaceId, id, after, limit);
    const kept = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return {
      data: {
        job_id: job.id,
        dry_run: job.dry_run,
        status: job.status as ImportJobStatus,
        processed_rows: job.processed_rows,
        created_count: job.created_count,
        updated_count: job.updated_count,
        unchanged_count: job.unchanged_count,
        rejected_count: job.rejected_count,
        duplicate_count: job.duplicate_count,
        rejected_rows: kept.map((row) => ({ row_number: row.row_number, csv_column: row.csv_column, code: row.code, reason: row.reason })),
      },
      pagination: { has_more: hasMore, next_cursor: hasMore ? this.cursors.encode(scope, { row: kept[kept.length - 1].row_number }) : null },
    };
  }

  private async require(workspaceId: WorkspaceId, id: string): Promise<ImportJobRow> {
    const job = await this.jobs.find(workspaceId, id);
    if (!job) throw EmailErrors.notFound('subscriber_import_job', id);
    return job;
  }

  private async requireAll(workspaceId: WorkspaceId, table: 'tags' | 'sequences', ids: string[], code: 'unknown_tag' | 'unknown_sequence', field: string) {
    const found = await this.jobs.existingIds(workspaceId, table, ids);
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing >= 0)
      throw EmailErrors.invalid(code, `"${ids[missing]}" is not a ${table === 'tags' ? 'tag' : 'sequence'} of this workspace.`, `${field}[${missing}]`);
  }
}
