import { Injectable } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import { FormsPrisma } from '@forms/data-access';
import type { ApiKey, Owner } from '@forms/data-access';
import { isUniqueViolation } from '@shared/errors';

export type KeyWithOwner = ApiKey & { owner: Owner };

export interface NewFormsKey {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  secret_hash: string;
  scopes: string[];
  expires_at: Date | null;
}

/** Accounts, workspaces, memberships and keys. The only place this domain talks to Prisma. */
@Injectable()
export class AccountsRepository {
  constructor(private readonly prisma: FormsPrisma) {}

  /**
   * Owner, their first workspace (as owner) and a key, all or nothing. Email and username are unique in the database,
   * so two concurrent sign-ups cannot both take one: a taken email is 409 `account_exists`, a taken username is
   * `username_taken` (nothing is written; the caller tries another).
   */
  async createAccount(
    owner: { id: string; email: string; username: string },
    workspace: { id: string; name: string },
    key: NewFormsKey,
  ): Promise<'created' | 'username_taken'> {
    try {
      await this.prisma.$transaction([
        this.prisma.owner.create({ data: owner }),
        this.prisma.workspace.create({ data: workspace }),
        this.prisma.membership.create({ data: { owner_id: owner.id, workspace_id: workspace.id, role: 'owner' } }),
        this.prisma.apiKey.create({ data: { ...key, owner_id: owner.id } }),
      ]);
      return 'created';
    } catch (error) {
      if (isUniqueViolation(error, 'owners_email_key'))
        throw FormsErrors.fail('account_exists', 'An account with this email already exists.', { details: { field: 'email' } });
      if (isUniqueViolation(error, 'owners_username_key')) return 'username_taken';
      throw error;
    }
  }

  createWorkspace(ownerId: string, workspace: { id: string; name: string; plan: 'free' | 'pro' | 'business' }) {
    return this.prisma.$transaction([
      this.prisma.workspace.create({ data: workspace }),
      this.prisma.membership.create({ data: { owner_id: ownerId, workspace_id: workspace.id, role: 'owner' } }),
    ]);
  }

  workspaceExists(workspaceId: string): Promise<boolean> {
    return this.prisma.workspace.count({ where: { id: workspaceId } }).then((n) => n > 0);
  }

  async setMembership(workspaceId: string, ownerId: string, role: 'owner' | 'editor' | 'viewer'): Promise<void> {
    await this.prisma.membership.upsert({
      where: { workspace_id_owner_id: { workspace_id: workspaceId, owner_id: ownerId } },
      create: { workspace_id: workspaceId, owner_id: ownerId, role },
      update: { role },
    });
  }

  usernameTaken(username: string): Promise<boolean> {
    return this.prisma.owner.count({ where: { username } }).then((n) => n > 0);
  }

  ownerExists(ownerId: string): Promise<boolean> {
    return this.prisma.owner.count({ where: { id: ownerId } }).then((n) => n > 0);
  }

  createKey(ownerId: string, key: NewFormsKey): Promise<ApiKey> {
    return this.prisma.apiKey.create({ data: { ...key, owner_id: ownerId } });
  }

  findKeyByHash(secretHash: string): Promise<KeyWithOwner | null> {
    return this.prisma.apiKey.findUnique({ where: { secret_hash: secretHash }, include: { owner: true } });
  }

  async revokeKey(keyId: string, at: Date): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({ where: { id: keyId, revoked_at: null }, data: { revoked_at: at } });
    return count === 1;
  }

  async touchKey(keyId: string, at: Date, staleBefore: Date): Promise<void> {
    await this.prisma.apiKey.updateMany({
      where: { id: keyId, OR: [{ last_used_at: null }, { last_used_at: { lt: staleBefore } }] },
      data: { last_used_at: at },
    });
  }
}
