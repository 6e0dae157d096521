import { Injectable } from '@nestjs/common';
import { assertValidKeyRequest, AuthChangeBus, AuthServices, KeyRequest } from '@shared/auth';
import { Clock, IdGenerator } from '@shared/core';
import { EmailErrors } from '@email/contracts';
import { AccessRepository, NewApiKey } from './access.repository';
import { generateApiKey, hashApiKey, previewApiKey } from './api-key-secret';
import { canonicalScopes, EMAIL_SCOPES, isEmailScope } from './scopes';

export interface IssuedKey {
  id: string;
  api_key: string;
}

/** Creates workspaces and issues or revokes their API keys (the admin CLI and, later, the dashboard). */
@Injectable()
export class AccessService {
  constructor(
    private readonly repository: AccessRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly changes: AuthChangeBus,
  ) {}

  async createWorkspace(name: string): Promise<{ workspace_id: string; api_key: string; api_key_id: string }> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 200) throw EmailErrors.invalid('validation_failed', 'A workspace name of 1-200 characters is required.', 'name');
    const { secret, key } = this.newKey('Default key', [...EMAIL_SCOPES], null);
    const [workspace] = await this.repository.createWorkspaceWithKey({ id: this.ids.newId('wsp'), name: trimmed }, key);
    return { workspace_id: workspace.id, api_key: secret, api_key_id: key.id };
  }

  /** An operator names the workspace (a plain id, checked to exist): no request credential chose it. */
  async createApiKey(workspaceId: string, input: KeyRequest): Promise<IssuedKey> {
    assertValidKeyRequest(input, isEmailScope, this.clock.now());
    if (!(await this.repository.findWorkspace(workspaceId))) throw EmailErrors.notFound('workspace', workspaceId);
    const { secret, key } = this.newKey(input.name ?? 'API key', canonicalScopes(input.scopes), input.expiresAt ?? null);
    await this.repository.createApiKey(workspaceId, key);
    return { id: key.id, api_key: secret };
  }

  /** Revokes the key and tells every email-api replica to drop it from its cache. */
  async revokeApiKey(keyId: string): Promise<void> {
    if (!(await this.repository.revokeKey(keyId, this.clock.now()))) throw EmailErrors.notFound('api_key', keyId);
    await this.changes.publish(AuthServices.email, { kind: 'credential', id: keyId });
  }

  private newKey(name: string, scopes: string[], expiresAt: Date | null): { secret: string; key: NewApiKey } {
    const secret = generateApiKey();
    return {
      secret,
      key: { id: this.ids.newId('key'), name, secret_hash: hashApiKey(secret), key_preview: previewApiKey(secret), scopes, expires_at: expiresAt },
    };
  }
}
