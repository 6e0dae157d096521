import { Injectable } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import { WorkspaceId } from '@shared/core';

/** What the preflight reads beside the broadcast. Read-only: delivery feedback owns `delivery_feedback_receipts`. */
@Injectable()
export class PreflightSources {
  constructor(private readonly prisma: EmailPrisma) {}

  /** Whether the connection's provider webhook delivered any bounce or complaint report since `since`. */
  async feedbackSince(workspaceId: WorkspaceId, connectionId: string, since: Date): Promise<boolean> {
    const row = await this.prisma.deliveryFeedbackReceipt.findFirst({
      where: { workspace_id: workspaceId, connection_id: connectionId, received_at: { gte: since } },
      select: { connection_id: true },
    });
    return row !== null;
  }
}
