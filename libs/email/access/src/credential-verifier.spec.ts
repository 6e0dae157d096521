import { Principal } from '@shared/auth';
import { AppConfig } from '@shared/config';
import { Clock } from '@shared/core';
import { AccessRepository } from './access.repository';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, previewApiKey } from './api-key-secret';
import { EmailCredentialVerifier } from './credential-verifier';

const config = { appBaseUrl: 'https://app.example.test', docsBaseUrl: 'https://docs.example.test' } as AppConfig;
// insufficientScope needs neither the database nor the clock.
const verifier = new EmailCredentialVerifier({} as AccessRepository, new Clock(), config);
const principal = (scopes: string[]): Principal => ({
  credentialType: 'workspace_api_key',
  credentialId: 'key_1',
  subjectId: 'wsp_1',
  scopes,
  expiresAt: null,
  credential: {},
});

describe('EmailCredentialVerifier.insufficientScope', () => {
  it('builds the 403 with required, missing and replacement scopes in canonical order and the recovery links', () => {
    const error = verifier.insufficientScope(
      principal(['tags:read', 'analytics:read']),
      ['tags:write', 'subscribers:read'],
      ['tags:write', 'subscribers:read'],
    );
    expect([error.status, error.type, error.code]).toEqual([403, 'permission_error', 'insufficient_scope']);
    expect(error.message).toBe('This API key lacks subscribers:read, tags:write. Replace it with a key that also has those scopes.');
    expect(error.details).toBeUndefined();
    expect(error.extra).toEqual({
      required_scopes: ['subscribers:read', 'tags:write'],
      missing_scopes: ['subscribers:read', 'tags:write'],
      replacement_scopes: ['analytics:read', 'subscribers:read', 'tags:read', 'tags:write'],
      credential_type: 'workspace_api_key',
      recommended_work_profiles: ['subscriber_management', 'content_and_capture', 'full_email_marketing_access'],
      access_update_url: 'https://app.example.test/settings?tab=api-keys',
      reconnect_required: false,
      permissions_help_url: 'https://docs.example.test/authentication#add-permissions',
      recovery: {
        action: 'replace_api_key',
        message: 'Create an API key with the replacement scopes, then retry with it.',
        replacement_scopes: ['analytics:read', 'subscribers:read', 'tags:read', 'tags:write'],
        access_update_url: 'https://app.example.test/settings?tab=api-keys',
        permissions_help_url: 'https://docs.example.test/authentication#add-permissions',
      },
    });
  });

  it('says "that scope" when one is missing', () => {
    const error = verifier.insufficientScope(principal(['tags:read']), ['tags:read', 'webhooks:write'], ['webhooks:write']);
    expect(error.message).toBe('This API key lacks webhooks:write. Replace it with a key that also has that scope.');
    expect(error.extra.required_scopes).toEqual(['tags:read', 'webhooks:write']);
    expect(error.extra.replacement_scopes).toEqual(['tags:read', 'webhooks:write']);
  });
});

describe('API key secrets', () => {
  it('are 256 random bits after the prefix, never repeated', () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(Buffer.from(key.slice(API_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
    }
  });

  it('are stored as their SHA-256 hex digest and shown as prefix and last four characters', () => {
    // sha256("mrk_abc"), as `printf mrk_abc | sha256sum` prints it.
    expect(hashApiKey('mrk_abc')).toBe('014ee2365e09a445d9324d9cf746b365267fe3d14de81992b990a1b8368863e0');
    expect(previewApiKey('mrk_0123456789wxyz')).toBe('mrk_…wxyz');
  });
});
