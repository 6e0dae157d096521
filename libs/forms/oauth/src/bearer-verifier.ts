import { Injectable, Logger } from '@nestjs/common';
import { AuthServices, CredentialVerifier, LastUsedRecorder, Principal } from '@shared/auth';
import { Clock } from '@shared/core';
import type { DomainError } from '@shared/errors';
import { tokenDigest, usableAccessToken } from '@shared/oauth';
import { FormsErrors } from '@forms/contracts';
import { FormsCredentialVerifier, MeCredential } from '@forms/accounts';
import { OAuthRepository } from './oauth.repository';
import { FORMS_OAUTH } from './oauth-settings';

export const OAUTH_CREDENTIAL_TYPE = 'oauth_access_token';

const RECONNECT = { credential_type: OAUTH_CREDENTIAL_TYPE, reconnect_required: true };

/**
 * The forms service's bearer credentials: OAuth access tokens (`pfa_…`) here, account API keys (`fsk_…`) by
 * FormsCredentialVerifier. Both resolve to the owner account; each request then reads that owner's memberships live.
 * Any other token (an email service's `mra_…` included) goes to the key lookup and is refused there.
 */
@Injectable()
export class FormsBearerVerifier implements CredentialVerifier {
  readonly authService = AuthServices.forms;
  private readonly logger = new Logger('Credentials');
  private readonly lastUsed = new LastUsedRecorder(
    (id, at, staleBefore) => this.repository.touchToken(id, at, staleBefore),
    (error) => this.logger.warn(`OAuth token last_used_at update failed: ${String(error)}`),
  );

  constructor(
    private readonly apiKeys: FormsCredentialVerifier,
    private readonly repository: OAuthRepository,
    private readonly clock: Clock,
  ) {}

  async verify(token: string): Promise<Principal> {
    if (!token.startsWith(FORMS_OAUTH.accessTokenPrefix)) return this.apiKeys.verify(token);
    const found = await this.repository.findAccessToken(tokenDigest(token));
    const row = usableAccessToken(found, this.clock.now(), (code, message) => FormsErrors.fail(code, message, { extra: RECONNECT }));
    const credential: MeCredential = {
      id: row.id,
      name: row.connection.client?.name ?? 'OAuth app',
      prefix: FORMS_OAUTH.accessTokenPrefix,
      last4: row.token_preview.slice(-4),
      scopes: row.scopes,
      last_used_at: row.last_used_at,
      revoked_at: null,
      owner: row.owner,
    };
    return { credentialType: OAUTH_CREDENTIAL_TYPE, credentialId: row.id, subjectId: row.owner_id, scopes: row.scopes, expiresAt: row.expires_at, credential };
  }

  insufficientScope(principal: Principal, required: readonly string[], missing: readonly string[]): DomainError {
    return this.apiKeys.insufficientScope(principal, required, missing);
  }

  markUsed(principal: Principal): void {
    if (principal.credentialType === OAUTH_CREDENTIAL_TYPE) this.lastUsed.record(principal.credentialId, this.clock.now());
    else this.apiKeys.markUsed(principal);
  }
}
