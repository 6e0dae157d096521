import { Injectable } from '@nestjs/common';
import { DeliveryConnection, EmailPrisma } from '@email/data-access';
import { KeysetPage, keysetWhere } from '@shared/pagination';

@Injectable()
export class SenderIdentityRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  listEnabled(workspaceId: string, page: KeysetPage): Promise<DeliveryConnection[]> {
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

  findEnabled(workspaceId: string, id: string): Promise<DeliveryConnection | null> {
    return this.prisma.deliveryConnection.findFirst({ where: { workspace_id: workspaceId, id, enabled: true } });
  }
}
