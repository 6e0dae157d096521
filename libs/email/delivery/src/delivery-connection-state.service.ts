import { Injectable } from '@nestjs/common';
import { WorkspaceId } from '@shared/core';
import { DeliveryConnectionRepository } from './delivery-connection.repository';

/** Whether a workspace can send email: an enabled connection, only disabled ones, or none at all. */
export type DeliveryConnectionState = 'enabled' | 'disabled' | 'missing';

/** What the other email libs may ask about a workspace's delivery connections. */
@Injectable()
export class DeliveryConnectionStateService {
  constructor(private readonly repository: DeliveryConnectionRepository) {}

  async stateOf(workspaceId: WorkspaceId): Promise<DeliveryConnectionState> {
    const values = await this.repository.enabledValues(workspaceId);
    if (values.includes(true)) return 'enabled';
    return values.length ? 'disabled' : 'missing';
  }
}
