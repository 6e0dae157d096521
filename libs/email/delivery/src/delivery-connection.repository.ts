import { Injectable } from '@nestjs/common';
import { DeliveryConnection, EmailPrisma } from '@email/data-access';
import { WorkspaceId } from '@shared/core';
import { KeysetPage, keysetWhere } from '@shared/pagination';

/** The only reader of `delivery_connections`: sender identities and the workspace's sending state both come from here. */
@Injectable()
export class DeliveryConnectionRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  listEnabled(workspaceId: WorkspaceId, page: KeysetPage): Promise<DeliveryConnection[]> {
    return this.prisma.deliveryConnection.findMany({
      where: {
        workspace_id: workspaceId,
        enabled: true,
        ...keysetWhere(page),
      },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
  }

  findEnabled(workspaceId: WorkspaceId, id: string): Promise<DeliveryConnection | null> {
    return this.prisma.deliveryConnection.findFirst({ where: { workspace_id: workspaceId, id, enabled: true } });
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
}
