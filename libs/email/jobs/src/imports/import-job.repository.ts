import { Injectable } from '@nestjs/common';
import { EmailPrisma, Prisma, SubscriberImportJob, SubscriberImportRejection } from '@email/data-access';
import { FieldDefinition } from '@email/audience';
import { WorkspaceId } from '@shared/core';
import { KeysetPage, keysetWhere } from '@shared/pagination';

export type ImportJobRow = SubscriberImportJob;
export type RejectionRow = SubscriberImportRejection;
type Db = EmailPrisma | Prisma.TransactionClient;

/** The only reader and writer of `subscriber_import_jobs` and `subscriber_import_rejections` (the batch writes are ImportBatchWriter's). */
@Injectable()
export class ImportJobRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  create(
    workspaceId: WorkspaceId,
    row: Pick<ImportJobRow, 'id' | 'upload_id' | 'dry_run'> & { request: Prisma.InputJsonValue },
    db: Db,
  ): Promise<ImportJobRow> {
    return db.subscriberImportJob.create({ data: { ...row, workspace_id: workspaceId } });
  }

  find(workspaceId: WorkspaceId, id: string): Promise<ImportJobRow | null> {
    return this.prisma.subscriberImportJob.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  /** Real imports, newest first (dry runs are previews, not jobs a client lists). */
  list(workspaceId: WorkspaceId, page: KeysetPage): Promise<ImportJobRow[]> {
    return this.prisma.subscriberImportJob.findMany({
      where: { workspace_id: workspaceId, dry_run: false, ...keysetWhere(page) },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
  }

  rejections(workspaceId: WorkspaceId, jobId: string, afterRow: number, limit: number): Promise<RejectionRow[]> {
    return this.prisma.subscriberImportRejection.findMany({
      where: { workspace_id: workspaceId, job_id: jobId, row_number: { gt: afterRow } },
      orderBy: { row_number: 'asc' },
      take: limit + 1,
    });
  }

  async existingIds(workspaceId: WorkspaceId, table: 'tags' | 'sequences', ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const where = { workspace_id: workspaceId, id: { in: ids } };
    const rows =
      table === 'tags' ? await this.prisma.tag.findMany({ where, select: { id: true } }) : await this.prisma.sequence.findMany({ where, select: { id: true } });
    return new Set(rows.map((row) => row.id));
  }

  async customFieldDefinitions(workspaceId: WorkspaceId, ids: string[]): Promise<Map<string, FieldDefinition>> {
    if (!ids.length) return new Map();
    const rows = await this.prisma.$queryRaw<FieldDefinition[]>`
      SELECT id, type::text AS type, options FROM custom_fields WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::text[])`;
    return new Map(rows.map((row) => [row.id, row]));
  }
}
