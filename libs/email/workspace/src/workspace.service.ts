import { Injectable } from '@nestjs/common';
import { WorkspaceId } from '@shared/core';
import type { Workspace } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { WorkspaceDto } from './workspace.dto';
import { WorkspaceProfile, WorkspaceRepository } from './workspace.repository';

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

  /** Sets the given profile fields (an empty string clears one; the name cannot be cleared). */
  async updateProfile(workspaceId: WorkspaceId, changes: Partial<Record<keyof WorkspaceProfile, string>>): Promise<WorkspaceDto> {
    const data: Record<string, string | null> = {};
    for (const [field, raw] of Object.entries(changes) as Array<[keyof WorkspaceProfile, string | undefined]>) {
      if (raw === undefined) continue;
      const value = raw.trim();
      if (value.length > 255) throw EmailErrors.invalid('validation_failed', `${field} must be at most 255 characters.`, field);
      if (field === 'name' && !value) throw EmailErrors.invalid('validation_failed', 'name must not be blank.', field);
      data[field] = value || null;
    }
    if (!Object.keys(data).length) throw EmailErrors.fail('empty_update', `Give at least one of ${Object.keys(changes).join(', ')}.`);
    const updated = await this.repository.update(workspaceId, data);
    if (!updated) throw EmailErrors.notFound('workspace', workspaceId);
    return toWorkspaceDto(updated);
  }
}
