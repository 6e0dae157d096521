import { Injectable } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import type { Workspace } from '@email/data-access';
import { WorkspaceId } from '@shared/core';

/** The workspace's name and the sender details every marketing email's footer shows. */
export type WorkspaceProfile = Partial<Pick<Workspace, 'name' | 'address' | 'city' | 'state' | 'postal_code' | 'country' | 'time_zone'>>;

@Injectable()
export class WorkspaceRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  find(workspaceId: WorkspaceId): Promise<Workspace | null> {
    return this.prisma.workspace.findUnique({ where: { id: workspaceId } });
  }

  /** The changed workspace, or null when there is none with that id. */
  async update(workspaceId: WorkspaceId, changes: WorkspaceProfile): Promise<Workspace | null> {
    const [updated] = await this.prisma.workspace.updateManyAndReturn({ where: { id: workspaceId }, data: changes });
    return updated ?? null;
  }
}
