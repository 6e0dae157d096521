import { Injectable } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import type { ApiKey, Workspace } from '@email/data-access';

export type ApiKeyRecord = ApiKey & { workspace: Pick<Workspace, 'id' | 'name'> };

/**
 * Workspaces and their API keys. The only place this domain talks to Prisma. Nothing here takes a WorkspaceId: these
 * are the admin operations and the credential lookup that come before any workspace is established.
 */
@Injectable()
export class AccessRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  /** Admin: creates a workspace, so there is no workspace to scope by yet. */
  createWorkspaceWithKey(workspace: { id: string; name: string }, key: NewApiKey): Promise<[Workspace, ApiKey]> {
    return this.prisma.$transaction([
      this.prisma.workspace.create({ data: workspace }),
      this.prisma.apiKey.create({ data: { ...key, workspace_id: workspace.id } }),
    ]);
  }

  /** Admin: whether the workspace an operator names exists. */
  findWorkspace(workspaceId: string): Promise<Workspace | null> {
    return this.prisma.workspace.findUnique({ where: { id: workspaceId } });
  }

  /** Admin: issues a key for a workspace the operator names (checked with findWorkspace), not one a credential chose. */
  createApiKey(workspaceId: string, key: NewApiKey): Promise<ApiKey> {
    return this.prisma.apiKey.create({ data: { ...key, workspace_id: workspaceId } });
  }

  /** Authentication: the key's own hash is what identifies its workspace. */
  findKeyByHash(secretHash: string): Promise<ApiKeyRecord | null> {
    return this.prisma.apiKey.findUnique({ where: { secret_hash: secretHash }, include: { workspace: { select: { id: true, name: true } } } });
  }

  /** Admin: revokes by id (key ids are unique across workspaces); returns false when no active key has that id. */
  async revokeKey(keyId: string, at: Date): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({ where: { id: keyId, status: 'active' }, data: { status: 'revoked', revoked_at: at } });
    return count === 1;
  }

  /**
   * Authentication: stamps the key just verified. Moves last_used_at forward only when it is older than `staleBefore`,
   * so most calls write nothing.
   */
  async touchKey(keyId: string, at: Date, staleBefore: Date): Promise<void> {
    await this.prisma.apiKey.updateMany({
      where: { id: keyId, OR: [{ last_used_at: null }, { last_used_at: { lt: staleBefore } }] },
      data: { last_used_at: at },
    });
  }
}

export interface NewApiKey {
  id: string;
  name: string;
  secret_hash: string;
  key_preview: string;
  scopes: string[];
  expires_at: Date | null;
}
