import { Inject, Injectable } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import { AuthChangeBus, AuthServices } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { ExpiringCache } from './expiring-cache';
import { MembershipsRepository } from './memberships.repository';

export type WorkspaceRole = 'owner' | 'editor' | 'viewer';
export type WorkspacePlan = 'free' | 'pro' | 'business';

/** What each workspace role may do; a key's scopes are checked separately (both must allow). */
export const ROLE_PERMISSIONS = {
  view: ['owner', 'editor', 'viewer'],
  edit: ['owner', 'editor'],
} as const satisfies Record<string, readonly WorkspaceRole[]>;

export type Permission = keyof typeof ROLE_PERMISSIONS;

export function assertRoleAllows(role: WorkspaceRole, permission: Permission): void {
  if ((ROLE_PERMISSIONS[permission] as readonly WorkspaceRole[]).includes(role)) return;
  throw FormsErrors.fail('insufficient_role', `Your ${role} role in this workspace does not allow this; an owner or editor role is needed.`, {
    extra: { role, required_roles: [...ROLE_PERMISSIONS[permission]] },
  });
}

export interface WorkspaceMembership {
  workspace_id: string;
  name: string;
  plan: WorkspacePlan;
  role: WorkspaceRole;
}

/**
 * The key owner's live workspace memberships. Reads are cached for AUTH_CACHE_TTL_MS like verified keys; a role
 * change published on the forms auth channel evicts the owner's entry on every replica at once (and a missed message
 * empties the cache at the next epoch check).
 */
@Injectable()
export class WorkspaceAccess {
  private cache: ExpiringCache<WorkspaceMembership[]>;

  constructor(
    private readonly repository: MembershipsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    changes: AuthChangeBus,
  ) {
    this.cache = new ExpiringCache(config.authCacheTtlMs);
    changes.listen(AuthServices.forms, (change) => {
      if (!change) this.cache = new ExpiringCache(config.authCacheTtlMs);
      else if (change.kind === 'owner') this.cache.delete(change.id);
    });
  }

  memberships(ownerId: string): Promise<WorkspaceMembership[]> {
    return this.cache.get(ownerId, (key) => this.repository.ofOwner(key));
  }

  async membership(ownerId: string, workspaceId: string): Promise<WorkspaceMembership | null> {
    return (await this.memberships(ownerId)).find((m) => m.workspace_id === workspaceId) ?? null;
  }
}
