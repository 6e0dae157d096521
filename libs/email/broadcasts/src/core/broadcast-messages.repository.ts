import { Injectable } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import { WorkspaceId } from '@shared/core';
import type { MessageContext } from './broadcast-messages';

/**
 * Reads what every message of a workspace's broadcasts shows besides the broadcast: the workspace's name and postal
 * address (the footer) and its custom fields' labels (the tokens). Read-only: the workspace and audience libs own
 * these tables; this reads two small rows sets once per prepared broadcast, not per recipient.
 */
@Injectable()
export class BroadcastMessageSources {
  constructor(private readonly prisma: EmailPrisma) {}

  /** Null when the workspace is gone. */
  async contextOf(workspaceId: WorkspaceId): Promise<Pick<MessageContext, 'workspace' | 'customFields'> | null> {
    const [workspace, customFields] = await Promise.all([
      this.prisma.workspace.findUnique({
        where: { id: workspaceId },
        select: { name: true, address: true, city: true, state: true, postal_code: true, country: true },
      }),
      this.prisma.customField.findMany({ where: { workspace_id: workspaceId }, select: { id: true, label: true }, orderBy: { id: 'asc' } }),
    ]);
    return workspace ? { workspace: { ...workspace, id: workspaceId }, customFields } : null;
  }
}
