import { canonicalScopes, EMAIL_SCOPES, profilesCovering, WORK_PROFILES } from './scopes';

describe('email scopes', () => {
  it('has the 33 scopes and 10 work profiles of the contract', () => {
    expect(EMAIL_SCOPES).toHaveLength(33);
    expect(Object.keys(WORK_PROFILES)).toHaveLength(10);
    expect(WORK_PROFILES.reporting).toHaveLength(16);
    expect(WORK_PROFILES.content_and_capture).toHaveLength(19);
  });

  it('every profile lists known scopes in canonical order', () => {
    for (const scopes of Object.values(WORK_PROFILES)) expect(canonicalScopes(scopes)).toEqual([...scopes]);
  });

  it('sorts and de-duplicates into canonical order', () => {
    expect(canonicalScopes(['broadcasts:write', 'subscribers:read', 'live_actions:write', 'subscribers:read'])).toEqual([
      'live_actions:write',
      'subscribers:read',
      'broadcasts:write',
    ]);
  });

  it('recommends the narrowest profiles first', () => {
    expect(profilesCovering(['webhooks:write'])).toEqual(['outbound_webhooks', 'full_email_marketing_access']);
  });
});
