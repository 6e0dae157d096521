import { Injectable } from '@nestjs/common';
import { DeliveryConnection, EmailPrisma, Prisma } from '@email/data-access';
import { WorkspaceId } from '@shared/core';
import { KeysetPage, keysetWhere } from '@shared/pagination';

type Db = EmailPrisma | Prisma.TransactionClient;
const NEWEST_FIRST = [{ created_at: 'desc' }, { id: 'desc' }] satisfies Prisma.DeliveryConnectionOrderByWithRelationInput[];

export interface NewDeliveryConnection {
  id: string;
  name: string;
  provider: string;
  from_email: string;
  from_name: string;
  enabled: boolean;
  provider_config: Prisma.InputJsonObject;
  secrets: string;
  verified_at: Date;
}

export type DeliveryConnectionChanges = Partial<
  Pick<DeliveryConnection, 'name' | 'from_email' | 'from_name' | 'enabled' | 'verified_at' | 'send_rate_per_second' | 'send_connections' | 'daily_quota'>
>;

/** The only reader and writer of `delivery_connections`: connections, sender identities and the workspace's sending state all come from here. */
@Injectable()
export class DeliveryConnectionRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  list(workspaceId: WorkspaceId, page: KeysetPage): Promise<DeliveryConnection[]> {
    return this.prisma.deliveryConnection.findMany({ where: { workspace_id: workspaceId, ...keysetWhere(page) }, orderBy: NEWEST_FIRST, take: page.limit + 1 });
  }

  listEnabled(workspaceId: WorkspaceId, page: KeysetPage): Promise<DeliveryConnection[]> {
    return this.prisma.deliveryConnection.findMany({
      where: { workspace_id: workspaceId, enabled: true, ...keysetWhere(page) },
      orderBy: NEWEST_FIRST,
      take: page.limit + 1,
    });
  }

  find(workspaceId: WorkspaceId, id: string, db: Db = this.prisma): Promise<DeliveryConnection | null> {
    return db.deliveryConnection.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  findEnabled(workspaceId: WorkspaceId, id: string): Promise<DeliveryConnection | null> {
    return this.prisma.deliveryConnection.findFirst({ where: { workspace_id: workspaceId, id, enabled: true } });
  }

  /** Any workspace's connection by id: an inbound provider webhook names only the connection, which then names its workspace. */
  findById(id: string): Promise<DeliveryConnection | null> {
    return this.prisma.deliveryConnection.findUnique({ where: { id } });
  }

  /** The distinct `enabled` values among the workspace's connections: none, one or both. */
  async enabledValues(workspaceId: WorkspaceId): Promise<boolean[]> {
    const rows = await this.prisma.deliveryConnection.findMany({
      where: { workspace_id: workspaceId },
      select: { enabled: true },
      distinct: ['enabled'],
    });
    return rows.map((row) => row.enabled);
  }

  create(workspaceId: WorkspaceId, connection: NewDeliveryConnection, db: Db): Promise<DeliveryConnection> {
    return db.deliveryConnection.create({ data: { ...connection, workspace_id: workspaceId } });
  }

  /** The changed connection, or null when the workspace has no such connection. */
  async update(workspaceId: WorkspaceId, id: string, changes: DeliveryConnectionChanges, db: Db = this.prisma): Promise<DeliveryConnection | null> {
    const { count } = await db.deliveryConnection.updateMany({ where: { workspace_id: workspaceId, id }, data: changes });
    return count ? this.find(workspaceId, id, db) : null;
  }

  /**
   * Runs `work` holding the connection's row lock (FOR UPDATE): a send or schedule starting through it waits for the
   * change, and the change waits for one already starting (see holdForUse). Null when there is no such connection.
   */
  async whileLocked<T>(
    workspaceId: WorkspaceId,
    id: string,
    work: (tx: Prisma.TransactionClient, connection: DeliveryConnection) => Promise<T>,
  ): Promise<T | null> {
    return this.prisma.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<
        Array<{ id: string }>
      >`SELECT id FROM delivery_connections WHERE id = ${id} AND workspace_id = ${workspaceId} FOR UPDATE`;
      const connection = locked && (await this.find(workspaceId, id, tx));
      return connection ? work(tx, connection) : null;
    });
  }

  /**
   * Inside the transaction that starts using the connection (a send or a schedule): takes a share lock on its row, so
   * it cannot be changed or deleted until that transaction commits. False when the connection no longer exists.
   */
  async holdForUse(tx: Prisma.TransactionClient, workspaceId: WorkspaceId, id: string): Promise<boolean> {
    const rows = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM delivery_connections WHERE id = ${id} AND workspace_id = ${workspaceId} FOR SHARE`;
    return rows.length === 1;
  }

  /** New settings and secrets (and the session's names, if it had any) for the same connection; null when it is gone. */
  async replaceSettings(
    workspaceId: WorkspaceId,
    id: string,
    settings: Pick<NewDeliveryConnection, 'provider_config' | 'secrets' | 'verified_at'> &
      Partial<Pick<NewDeliveryConnection, 'name' | 'from_email' | 'from_name'>>,
    db: Db,
  ): Promise<DeliveryConnection | null> {
    const [updated] = await db.deliveryConnection.updateManyAndReturn({ where: { workspace_id: workspaceId, id }, data: settings });
    return updated ?? null;
  }

  /** Moves the sealed secrets to the active encryption key, only if they are still what was read (a concurrent replacement wins). */
  async swapSecrets(workspaceId: WorkspaceId, id: string, from: string, to: string): Promise<boolean> {
    const { count } = await this.prisma.deliveryConnection.updateMany({ where: { workspace_id: workspaceId, id, secrets: from }, data: { secrets: to } });
    return count === 1;
  }

  /** Every workspace's connections that hold secrets, a page at a time by id: the key rotation command walks them all. */
  sealedPage(afterId: string, limit: number): Promise<Pick<DeliveryConnection, 'id' | 'workspace_id' | 'secrets'>[]> {
    return this.prisma.deliveryConnection.findMany({
      where: { id: { gt: afterId }, secrets: { not: null } },
      select: { id: true, workspace_id: true, secrets: true },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  async delete(workspaceId: WorkspaceId, id: string, db: Db = this.prisma): Promise<boolean> {
    const { count } = await db.deliveryConnection.deleteMany({ where: { workspace_id: workspaceId, id } });
    return count === 1;
  }
}
