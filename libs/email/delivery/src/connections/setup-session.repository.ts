import { Injectable } from '@nestjs/common';
import { DeliveryConnectionSetupSession, EmailPrisma, Prisma } from '@email/data-access';
import { WorkspaceId } from '@shared/core';

type Db = EmailPrisma | Prisma.TransactionClient;
export type SetupSessionRow = DeliveryConnectionSetupSession;
export type NewSetupSession = Pick<
  SetupSessionRow,
  'id' | 'purpose' | 'connection_id' | 'name' | 'provider' | 'from_email' | 'from_name' | 'token_hash' | 'expires_at'
>;

/** The only reader and writer of `delivery_connection_setup_sessions`. */
@Injectable()
export class SetupSessionRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  create(workspaceId: WorkspaceId, session: NewSetupSession, db: Db = this.prisma): Promise<SetupSessionRow> {
    return db.deliveryConnectionSetupSession.create({ data: { ...session, workspace_id: workspaceId } });
  }

  find(workspaceId: WorkspaceId, id: string, db: Db = this.prisma): Promise<SetupSessionRow | null> {
    return db.deliveryConnectionSetupSession.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  /** By the browser link's token digest, in any workspace: the link is the only thing the person holds; the row names its workspace. */
  findByTokenHash(tokenHash: string): Promise<SetupSessionRow | null> {
    return this.prisma.deliveryConnectionSetupSession.findUnique({ where: { token_hash: tokenHash } });
  }

  /**
   * Moves a session out of `pending` (to completed, failed or expired), only if it still is pending: of two
   * concurrent submits of one link, one wins. False when it was no longer pending.
   */
  async finish(
    workspaceId: WorkspaceId,
    id: string,
    change: Partial<Pick<SetupSessionRow, 'status' | 'connection_id' | 'completed_at' | 'failed_at' | 'failure_code'>>,
    db: Db = this.prisma,
  ): Promise<boolean> {
    const { count } = await db.deliveryConnectionSetupSession.updateMany({ where: { workspace_id: workspaceId, id, status: 'pending' }, data: change });
    return count === 1;
  }

  /** Counts a failed connection test on a pending session; the count after it, or null when it is no longer pending. */
  async countFailedTest(workspaceId: WorkspaceId, id: string): Promise<number | null> {
    const rows = await this.prisma.deliveryConnectionSetupSession.updateManyAndReturn({
      where: { workspace_id: workspaceId, id, status: 'pending' },
      data: { failed_tests: { increment: 1 } },
      select: { failed_tests: true },
    });
    return rows[0]?.failed_tests ?? null;
  }
}
