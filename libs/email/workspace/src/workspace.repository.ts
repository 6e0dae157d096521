import { Injectable } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import type { Workspace } from '@email/data-access';
import { WorkspaceId } from '@shared/core';

@Injectable()
export class WorkspaceRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  find(workspaceId: WorkspaceId): Promise<Workspace | null> {
    return this.prisma.workspace.findUnique({ where: { id: workspaceId } });
  }
}
