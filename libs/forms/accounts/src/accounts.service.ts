import { Injectable } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import { assertValidKeyRequest, AuthChangeBus, AuthServices, KeyRequest } from '@shared/auth';
import { Clock, IdGenerator } from '@shared/core';
import { AccountsRepository, NewFormsKey } from './accounts.repository';
import { generateFormsKey } from './api-key-secret';
import { FORMS_SCOPES, isFormsScope } from './scopes';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Creates accounts (owner + first workspace + key) and issues or revokes account-owned keys. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly changes: AuthChangeBus,
  ) {}

  async createAccount(input: { email: string; workspaceName?: string }): Promise<{ owner_id: string; workspace_id: string; api_key: string }> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254) throw FormsErrors.invalid('validation_failed', 'A valid email address is required.', 'email');
    const { secret, key } = this.newKey('Default key', [...FORMS_SCOPES], null);
    const ownerId = this.ids.newId('usr');
    const workspaceId = this.ids.newId('wrk');
    // A name that looked free can be taken by a concurrent sign-up before ours is stored: then the next free one.
    for (;;) {
      const username = await this.freeUsername(email.split('@')[0]);
      const workspaceName = input.workspaceName?.trim() || `${username}'s workspace`;
      const outcome = await this.repository.createAccount({ id: ownerId, email, username }, { id: workspaceId, name: workspaceName }, key);
      if (outcome === 'created') return { owner_id: ownerId, workspace_id: workspaceId, api_key: secret };
    }
  }

  async createApiKey(ownerId: string, input: KeyRequest): Promise<{ id: string; api_key: string }> {
    assertValidKeyRequest(input, isFormsScope, this.clock.now());
    if (!(await this.repository.ownerExists(ownerId))) throw FormsErrors.notFound('owner', ownerId);
    const ordered = FORMS_SCOPES.filter((s) => input.scopes.includes(s));
    const { secret, key } = this.newKey(input.name ?? 'API key', ordered, input.expiresAt ?? null);
    await this.repository.createKey(ownerId, key);
    return { id: key.id, api_key: secret };
  }

  /** Another workspace owned by an existing account. */
  async createWorkspace(ownerId: string, input: { name: string; plan?: 'free' | 'pro' | 'business' }): Promise<{ workspace_id: string }> {
    const name = input.name.trim();
    if (!name || name.length > 200) throw FormsErrors.invalid('validation_failed', 'A workspace name of 1 to 200 characters is required.', 'name');
    if (!(await this.repository.ownerExists(ownerId))) throw FormsErrors.notFound('owner', ownerId);
    const workspaceId = this.ids.newId('wrk');
    await this.repository.createWorkspace(ownerId, { id: workspaceId, name, plan: input.plan ?? 'free' });
    await this.changes.publish(AuthServices.forms, { kind: 'owner', id: ownerId });
    return { workspace_id: workspaceId };
  }

  /** Adds an account to a workspace, or changes its role there; every forms-api replica re-reads its roles. */
  async setMembership(workspaceId: string, ownerId: string, role: 'owner' | 'editor' | 'viewer'): Promise<void> {
    if (!['owner', 'editor', 'viewer'].includes(role)) throw FormsErrors.invalid('validation_failed', 'role must be owner, editor or viewer.', 'role');
    if (!(await this.repository.ownerExists(ownerId))) throw FormsErrors.notFound('owner', ownerId);
    if (!(await this.repository.workspaceExists(workspaceId))) throw FormsErrors.notFound('workspace', workspaceId);
    await this.repository.setMembership(workspaceId, ownerId, role);
    await this.changes.publish(AuthServices.forms, { kind: 'owner', id: ownerId });
  }

  /** Revokes the key and tells every forms-api replica to drop it from its cache. */
  async revokeApiKey(keyId: string): Promise<void> {
    if (!(await this.repository.revokeKey(keyId, this.clock.now()))) throw FormsErrors.notFound('api_key', keyId);
    await this.changes.publish(AuthServices.forms, { kind: 'credential', id: keyId });
  }

  private async freeUsername(localPart: string): Promise<string> {
    const base =
      localPart
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 30) || 'user';
    for (let attempt = 0; ; attempt++) {
      const candidate = attempt === 0 ? base : `${base}-${attempt + 1}`;
      if (!(await this.repository.usernameTaken(candidate))) return candidate;
    }
  }

  private newKey(name: string, scopes: string[], expiresAt: Date | null): { secret: string; key: NewFormsKey } {
    const generated = generateFormsKey();
    return {
      secret: generated.secret,
      key: {
        id: this.ids.newId('key'),
        name,
        prefix: generated.prefix,
        last4: generated.last4,
        secret_hash: generated.hash,
        scopes,
        expires_at: expiresAt,
      },
    };
  }
}
