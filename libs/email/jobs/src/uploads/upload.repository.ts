import { Injectable } from '@nestjs/common';
import { EmailPrisma, Prisma, SubscriberImportUpload } from '@email/data-access';
import { WorkspaceId } from '@shared/core';

export type UploadRow = SubscriberImportUpload;
type Db = EmailPrisma | Prisma.TransactionClient;

/** A browser still sending after this long has gone away: its claim on the link lapses and the link can be used again. */
const RECEIVING_LEASE_MS = 15 * 60 * 1000;

/** The only reader and writer of `subscriber_import_uploads`. */
@Injectable()
export class UploadRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  create(workspaceId: WorkspaceId, row: Pick<UploadRow, 'id' | 'token_hash' | 'link_expires_at' | 'expires_at'>): Promise<UploadRow> {
    return this.prisma.subscriberImportUpload.create({ data: { ...row, workspace_id: workspaceId } });
  }

  /** An upload that has not expired. */
  find(workspaceId: WorkspaceId, id: string, now: Date, db: Db = this.prisma): Promise<UploadRow | null> {
    return db.subscriberImportUpload.findFirst({ where: { workspace_id: workspaceId, id, expires_at: { gt: now } } });
  }

  /** By the browser link's token digest, in any workspace: the link is all the person holds; the row names its workspace. */
  findByTokenHash(tokenHash: string): Promise<UploadRow | null> {
    return this.prisma.subscriberImportUpload.findUnique({ where: { token_hash: tokenHash } });
  }

  /** Claims a Pending upload's link for one file: false when it is not Pending, expired, or another browser is sending. */
  async claim(workspaceId: WorkspaceId, id: string, now: Date): Promise<boolean> {
    const { count } = await this.prisma.subscriberImportUpload.updateMany({
      where: {
        workspace_id: workspaceId,
        id,
        status: 'Pending',
        link_expires_at: { gt: now },
        OR: [{ receiving_since: null }, { receiving_since: { lt: new Date(now.getTime() - RECEIVING_LEASE_MS) } }],
      },
      data: { receiving_since: now },
    });
    return count === 1;
  }

  /** Gives the link back after a refused file, so the person can choose another. */
  async release(workspaceId: WorkspaceId, id: string): Promise<void> {
    await this.prisma.subscriberImportUpload.updateMany({ where: { workspace_id: workspaceId, id, status: 'Pending' }, data: { receiving_since: null } });
  }

  /** Pending → Ready with what the file holds; the link is spent. */
  async markReady(
    workspaceId: WorkspaceId,
    id: string,
    file: Pick<UploadRow, 'file_name' | 'size_bytes' | 'encoding' | 'delimiter' | 'headers' | 'row_count' | 'uploaded_at'>,
  ): Promise<boolean> {
    const { count } = await this.prisma.subscriberImportUpload.updateMany({
      where: { workspace_id: workspaceId, id, status: 'Pending' },
      data: { ...file, status: 'Ready', receiving_since: null },
    });
    return count === 1;
  }

  /** Ready → Queued for one import job, inside the job's transaction: of two jobs naming one upload, one wins. */
  async markQueued(workspaceId: WorkspaceId, id: string, jobId: string, now: Date, db: Db): Promise<boolean> {
    const { count } = await db.subscriberImportUpload.updateMany({
      where: { workspace_id: workspaceId, id, status: 'Ready', expires_at: { gt: now } },
      data: { status: 'Queued', import_job_id: jobId, queued_at: now },
    });
    return count === 1;
  }

  /** Expired uploads of every workspace, for the clean-up (it removes their files, then the rows). */
  expired(now: Date, limit: number): Promise<Array<Pick<UploadRow, 'id' | 'workspace_id'>>> {
    return this.prisma.subscriberImportUpload.findMany({ where: { expires_at: { lte: now } }, select: { id: true, workspace_id: true }, take: limit });
  }

  async delete(workspaceId: WorkspaceId, ids: string[]): Promise<void> {
    await this.prisma.subscriberImportUpload.deleteMany({ where: { workspace_id: workspaceId, id: { in: ids } } });
  }
}
