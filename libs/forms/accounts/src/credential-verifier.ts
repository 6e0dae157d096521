import { Injectable, Logger } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import { AuthServices, CredentialVerifier, LastUsedRecorder, Principal } from '@shared/auth';
import { Clock } from '@shared/core';
import type { DomainError } from '@shared/errors';
import { AccountsRepository, KeyWithOwner } from './accounts.repository';
import { hashFormsKey } from './api-key-secret';
import { FORMS_SCOPES } from './scopes';
import { MeDto } from './me.dto';

/** What `GET /api/v1/me` shows of a principal's credential: an API key, or an OAuth access token described like one. */
export type MeCredential = Pick<KeyWithOwner, 'id' | 'name' | 'prefix' | 'last4' | 'scopes' | 'last_used_at' | 'revoked_at'> & {
  owner: Pick<KeyWithOwner['owner'], 'id' | 'email' | 'username'>;
};

/** The account check (`GET /api/v1/me`) for the credential a principal was verified with. */
export function toMe(key: MeCredential): MeDto {
  return {
    owner: { id: key.owner.id, email: key.owner.email, username: key.owner.username, preferred_workspace: null },
    api_key: {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      last4: key.last4,
      scopes: [...key.scopes],
      last_used_at: key.last_used_at?.toISOString() ?? null,
      revoked_at: key.revoked_at?.toISOString() ?? null,
    },
  };
}

/** Verifies account-owned forms keys: a forms principal's subject is the owning account, not a workspace. */
@Injectable()
export class FormsCredentialVerifier implements CredentialVerifier {
  readonly authService = AuthServices.forms;
  private readonly logger = new Logger('Credentials');
  private readonly lastUsed = new LastUsedRecorder(
    (id, at, staleBefore) => this.repository.touchKey(id, at, staleBefore),
    (error) => this.logger.warn(`last_used_at update failed: ${String(error)}`),
  );

  constructor(
    private readonly repository: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  async verify(token: string): Promise<Principal> {
    const key = await this.repository.findKeyByHash(hashFormsKey(token));
    if (!key) throw FormsErrors.fail('invalid_credential', 'The API key is not valid.');
    if (key.revoked_at) throw FormsErrors.fail('credential_revoked', 'This API key was revoked.');
    if (key.expires_at && key.expires_at <= this.clock.now()) throw FormsErrors.fail('credential_expired', 'This API key has expired.');
    return { credentialType: 'api_key', credentialId: key.id, subjectId: key.owner_id, scopes: key.scopes, expiresAt: key.expires_at, credential: key };
  }

  insufficientScope(principal: Principal, required: readonly string[], missing: readonly string[]): DomainError {
    const order = (scopes: readonly string[]) => FORMS_SCOPES.filter((s) => scopes.includes(s));
    return FormsErrors.fail('insufficient_scope', `This API key lacks ${missing.join(', ')}.`, {
      extra: {
        required_scopes: order(required),
        missing_scopes: order(missing),
        replacement_scopes: order([...principal.scopes, ...required]),
        credential_type: principal.credentialType,
      },
    });
  }

  markUsed(principal: Principal): void {
    this.lastUsed.record(principal.credentialId, this.clock.now());
  }
}
