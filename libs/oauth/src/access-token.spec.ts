import { type AccessTokenRefusal, type AccessTokenState, usableAccessToken } from './access-token';

describe('usableAccessToken', () => {
  const now = new Date(Date.UTC(2026, 5, 1, 12));
  const live: AccessTokenState & { id: string } = {
    id: 'oat_1',
    revoked_at: null,
    expires_at: new Date(now.getTime() + 60_000),
    connection: { revoked_at: null },
  };
  const refuse = (code: AccessTokenRefusal, message: string) => Object.assign(new Error(message), { code });
  const refusal = (row: AccessTokenState | null) => {
    try {
      usableAccessToken(row, now, refuse);
    } catch (error) {
      return (error as { code: string }).code;
    }
    return 'accepted';
  };

  it('gives back a live token as found', () => {
    expect(usableAccessToken(live, now, refuse)).toBe(live);
  });

  it('refuses an unknown token, a revoked one (itself or its connection) and an expired one, with the service error', () => {
    expect(refusal(null)).toBe('invalid_credential');
    expect(refusal({ ...live, revoked_at: new Date(now.getTime() - 1) })).toBe('credential_revoked');
    expect(refusal({ ...live, connection: { revoked_at: new Date(now.getTime() - 1) } })).toBe('credential_revoked');
    expect(refusal({ ...live, expires_at: now })).toBe('credential_expired');
  });

  it('says revoked before expired when both hold', () => {
    expect(refusal({ ...live, revoked_at: now, expires_at: now })).toBe('credential_revoked');
  });
});
