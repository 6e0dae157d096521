import { Injectable } from '@nestjs/common';
import { WorkspaceId } from '@shared/core';
import type { Workspace } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { WorkspaceDto } from './workspace.dto';
import { WorkspaceRepository } from './workspace.repository';

export function toWorkspaceDto(workspace: Workspace): WorkspaceDto {
  return {
    self: '/v1/workspace',
    id: workspace.id,
    name: workspace.name,
    logo: workspace.logo,
    address: workspace.address,
    city: workspace.city,
    state: workspace.state,
    postal_code: workspace.postal_code,
    country: workspace.country,
    time_zone: workspace.time_zone,
    created_at: workspace.created_at.toISOString(),
    updated_at: workspace.updated_at.toISOString(),
  };
}

@Injectable()
export class WorkspaceService {
  constructor(private readonly repository: WorkspaceRepository) {}

  async get(workspaceId: WorkspaceId): Promise<WorkspaceDto> {
    const workspace = await this.repository.find(workspaceId);
    if (!workspace) throw EmailErrors.notFound('workspace', workspaceId);
    return toWorkspaceDto(workspace);
  }
}
