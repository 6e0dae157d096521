import { Injectable } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import { DeliveryConnectionState } from './capabilities';

/** Whether a workspace can send email: the only place this lib talks to Prisma. */
@Injectable()
export class DeliveryConnectionStateRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  async stateOf(workspaceId: string): Promise<DeliveryConnectionState> {
    const rows = await this.prisma.deliveryConnection.findMany({
      where: { workspace_id: workspaceId },
      select: { enabled: true },
      distinct: ['enabled'],
    });
    if (rows.some((row) => row.enabled)) return 'enabled';
    return rows.length ? 'disabled' : 'missing';
  }
}
