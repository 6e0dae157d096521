import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { AuthServices, CredentialVerifier, LastUsedRecorder, Principal } from '@shared/auth';
import { Clock } from '@shared/core';
import { DomainError } from '@shared/errors';
import { EmailErrors } from '@email/contracts';
import { AccessRepository, ApiKeyRecord } from './access.repository';
import { hashApiKey } from './api-key-secret';
import { canonicalScopes, profilesCovering } from './scopes';

/** The API-key credential as clients see it in the capabilities document. */
export interface ApiKeyCredentialView {
  type: 'workspace_api_key';
  id: string;
  name: string;
  status: 'active' | 'expired' | 'revoked' | 'rotated';
  scopes: string[];
  key_preview: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An OAuth access token as clients see it in the capabilities document. */
export interface OAuthCredentialView {
  type: 'oauth_access_token';
  id: string;
  status: 'active';
  scopes: string[];
  token_preview: string;
  client: { id: string; name: string };
  created_by_user_id: string | null;
  last_authorized_by_user_id: string | null;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What an email credential verifier puts on `principal.credential`. */
export interface EmailCredential {
  view: ApiKeyCredentialView | OAuthCredentialView;
  workspace: { id: string; name: string };
}

export function credentialView(key: ApiKeyRecord, now: Date): ApiKeyCredentialView {
  const expired = key.status === 'active' && key.expires_at !== null && key.expires_at <= now;
  return {
    type: 'workspace_api_key',
    id: key.id,
    name: key.name,
    status: expired ? 'expired' : key.status,
    scopes: canonicalScopes(key.scopes),
    key_preview: key.key_preview,
    expires_at: key.expires_at?.toISOString() ?? null,
    last_used_at: key.last_used_at?.toISOString() ?? null,
    revoked_at: key.revoked_at?.toISOString() ?? null,
    created_at: key.created_at.toISOString(),
    updated_at: key.updated_at.toISOString(),
  };
}

/** Verifies workspace API keys and explains missing scopes with the recovery fields clients act on. */
@Injectable()
export class EmailCredentialVerifier implements CredentialVerifier {
  readonly authService = AuthServices.email;
  private readonly logger = new Logger('Credentials');
  private readonly lastUsed = new LastUsedRecorder(
    (id, at, staleBefore) => this.repository.touchKey(id, at, staleBefore),
    (error) => this.logger.warn(`last_used_at update failed: ${String(error)}`),
  );

  constructor(
    private readonly repository: AccessRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async verify(token: string): Promise<Principal> {
    const key = await this.repository.findKeyByHash(hashApiKey(token));
    if (!key) throw EmailErrors.fail('invalid_credential', 'The API key is not valid.');
    const view = credentialView(key, this.clock.now());
    if (view.status === 'revoked') throw EmailErrors.fail('credential_revoked', 'This API key was revoked.');
    if (view.status === 'rotated') throw EmailErrors.fail('credential_revoked', 'This API key was replaced by a newer key.');
    if (view.status === 'expired') throw EmailErrors.fail('credential_expired', 'This API key has expired.');
    return {
      credentialType: 'workspace_api_key',
      credentialId: key.id,
      subjectId: key.workspace_id,
      scopes: view.scopes,
      expiresAt: key.expires_at,
      credential: { view, workspace: key.workspace } satisfies EmailCredential,
    };
  }

  insufficientScope(principal: Principal, required: readonly string[], missing: readonly string[]): DomainError {
    return insufficientScopeError(this.config, principal, required, missing);
  }

  markUsed(principal: Principal): void {
    this.lastUsed.record(principal.credentialId, this.clock.now());
  }
}

/** The 403 for a credential lacking scopes, with the recovery fields clients act on (also the docs' example). */
export function insufficientScopeError(
  config: Pick<AppConfig, 'appBaseUrl' | 'docsBaseUrl'>,
  principal: Pick<Principal, 'credentialType' | 'scopes'>,
  required: readonly string[],
  missing: readonly string[],
): DomainError {
  const requiredScopes = canonicalScopes(required);
  const missingScopes = canonicalScopes(missing);
  const replacementScopes = canonicalScopes([...principal.scopes, ...required]);
  const accessUpdateUrl = `${config.appBaseUrl}/settings?tab=api-keys`;
  const permissionsHelpUrl = `${config.docsBaseUrl}/authentication#add-permissions`;
  const those = missingScopes.length === 1 ? 'that scope' : 'those scopes';
  const oauth = principal.credentialType === 'oauth_access_token';
  const message = oauth
    ? `This app's access lacks ${missingScopes.join(', ')}. Reconnect the app and approve ${those}.`
    : `This API key lacks ${missingScopes.join(', ')}. Replace it with a key that also has ${those}.`;
  return EmailErrors.fail('insufficient_scope', message, {
    extra: {
      required_scopes: requiredScopes,
      missing_scopes: missingScopes,
      replacement_scopes: replacementScopes,
      credential_type: principal.credentialType,
      recommended_work_profiles: profilesCovering(requiredScopes),
      access_update_url: accessUpdateUrl,
      reconnect_required: oauth,
      permissions_help_url: permissionsHelpUrl,
      recovery: {
        action: oauth ? 'reconnect_oauth' : 'replace_api_key',
        message: oauth
          ? 'Reconnect the app through OAuth and approve the replacement scopes, then retry.'
          : 'Create an API key with the replacement scopes, then retry with it.',
        replacement_scopes: replacementScopes,
        access_update_url: accessUpdateUrl,
        permissions_help_url: permissionsHelpUrl,
      },
    },
  });
}
