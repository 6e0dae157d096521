import { Inject, Injectable } from '@nestjs/common';
import { AuthChangeBus, AuthServices } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { ExpiringCache } from './expiring-cache';
import { MembershipsRepository } from './memberships.repository';
import type { WorkspaceMembership } from './workspace-roles';

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
