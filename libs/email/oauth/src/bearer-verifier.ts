import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuthServices, CredentialVerifier, LastUsedRecorder, Principal } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock } from '@shared/core';
import { DomainError } from '@shared/errors';
import { tokenDigest, usableAccessToken } from '@shared/oauth';
import { EmailErrors } from '@email/contracts';
import { canonicalScopes, EmailCredential, EmailCredentialVerifier, insufficientScopeError, OAuthCredentialView } from '@email/access';
import { OAuthRepository, TokenRecord } from './oauth.repository';
import { EMAIL_OAUTH } from './oauth-settings';

const RECONNECT = {
  credential_type: 'oauth_access_token',
  reconnect_required: true,
  recovery: { action: 'reconnect_oauth', message: 'Refresh the token, or connect the app again through OAuth.' },
};

/** The email service's bearer credentials: OAuth access tokens (`mra_…`) here, workspace API keys by EmailCredentialVerifier. */
@Injectable()
export class EmailBearerVerifier implements CredentialVerifier {
  readonly authService = AuthServices.email;
  private readonly logger = new Logger('Credentials');
  private readonly lastUsed = new LastUsedRecorder(
    (id, at, staleBefore) => this.repository.touchToken(id, at, staleBefore),
    (error) => this.logger.warn(`OAuth token last_used_at update failed: ${String(error)}`),
  );

  constructor(
    private readonly apiKeys: EmailCredentialVerifier,
    private readonly repository: OAuthRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async verify(token: string): Promise<Principal> {
    if (!token.startsWith(EMAIL_OAUTH.accessTokenPrefix)) return this.apiKeys.verify(token);
    const found = await this.repository.findAccessToken(tokenDigest(token));
    const row = usableAccessToken(found, this.clock.now(), (code, message) => EmailErrors.fail(code, message, { extra: RECONNECT }));
    const view = oauthCredentialView(row);
    return {
      credentialType: 'oauth_access_token',
      credentialId: row.id,
      subjectId: row.workspace_id,
      scopes: view.scopes,
      expiresAt: row.expires_at,
      credential: { view, workspace: row.connection.workspace } satisfies EmailCredential,
    };
  }

  insufficientScope(principal: Principal, required: readonly string[], missing: readonly string[]): DomainError {
    return insufficientScopeError(this.config, principal, required, missing);
  }

  markUsed(principal: Principal): void {
    if (principal.credentialType === 'oauth_access_token') this.lastUsed.record(principal.credentialId, this.clock.now());
    else this.apiKeys.markUsed(principal);
  }
}

function oauthCredentialView(row: TokenRecord): OAuthCredentialView {
  return {
    type: 'oauth_access_token',
    id: row.id,
    status: 'active',
    scopes: canonicalScopes(row.scopes),
    token_preview: row.token_preview,
    client: row.connection.client ?? { id: row.client_id, name: 'OAuth app' },
    created_by_user_id: row.connection.created_by_user_id,
    last_authorized_by_user_id: row.connection.last_authorized_by_user_id,
    expires_at: row.expires_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
