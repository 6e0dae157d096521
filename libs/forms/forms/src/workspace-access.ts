import { Inject, Injectable } from '@nestjs/common';
import { FormsPrisma } from '@forms/data-access';
import { AuthChangeBus, AuthServices } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { ExpiringCache } from './expiring-cache';
import { DomainError } from '@shared/errors';

export type WorkspaceRole = 'owner' | 'editor' | 'viewer';

/** What each workspace role may do; a key's scopes are checked separately (both must allow). */
export const ROLE_PERMISSIONS = {
  view: ['owner', 'editor', 'viewer'],
  edit: ['owner', 'editor'],
} as const satisfies Record<string, readonly WorkspaceRole[]>;

export type Permission = keyof typeof ROLE_PERMISSIONS;

export function assertRoleAllows(role: WorkspaceRole, permission: Permission): void {
  if ((ROLE_PERMISSIONS[permission] as readonly WorkspaceRole[]).includes(role)) return;
  throw new DomainError('permission_error', 'insufficient_role', `Your ${role} role in this workspace does not allow this; an owner or editor role is needed.`, undefined, {
    role,
    required_roles: [...ROLE_PERMISSIONS[permission]],
  });
}

export interface WorkspaceMembership {
  workspace_id: string;
  name: string;
  plan: 'free' | 'pro' | 'business';
  role: WorkspaceRole;
}

/**
 * Reads the key owner's live workspace memberships; every forms request is checked against them. Reads are cached
 * for AUTH_CACHE_TTL_MS like verified keys; a role change published on the forms auth channel evicts the owner's
 * entry on every replica at once (and a missed message empties the cache at the next epoch check).
 */
@Injectable()
export class WorkspaceAccess {
  private cache: ExpiringCache<WorkspaceMembership[]>;

  constructor(
    private readonly prisma: FormsPrisma,
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
    return this.cache.get(ownerId, (key) => this.load(key));
  }

  private async load(ownerId: string): Promise<WorkspaceMembership[]> {
    const rows = await this.prisma.membership.findMany({
      where: { owner_id: ownerId },
      include: { workspace: { select: { name: true, plan: true } } },
      orderBy: { created_at: 'asc' },
    });
    return rows.map((m) => ({ workspace_id: m.workspace_id, name: m.workspace.name, plan: m.workspace.plan, role: m.role }));
  }

  async membership(ownerId: string, workspaceId: string): Promise<WorkspaceMembership | null> {
    return (await this.memberships(ownerId)).find((m) => m.workspace_id === workspaceId) ?? null;
  }
}
