import { OAuthRepositoryPort, RepositoryOAuthStore } from './repository-store';

describe('RepositoryOAuthStore', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const repository = {
    revokeFamily: jest.fn(async () => ['oat_1', 'oat_2']),
    createSession: jest.fn(async () => undefined),
  } as unknown as OAuthRepositoryPort;

  it('evicts every access token a family revocation revoked, on the service channel', async () => {
    const evicted: string[] = [];
    const store = new RepositoryOAuthStore(
      repository,
      () => now,
      async (id) => void evicted.push(id),
    );
    await store.revokeFamily('oaf_1', now);
    expect(repository.revokeFamily).toHaveBeenCalledWith('oaf_1', now);
    expect(evicted).toEqual(['oat_1', 'oat_2']);
  });

  it('dates a new session with its clock (for the clean-up of expired ones)', async () => {
    const store = new RepositoryOAuthStore(
      repository,
      () => now,
      async () => undefined,
    );
    const session = { id: 'bss_1', userId: 'usr_1', expiresAt: now, tokenHash: 'h' };
    await store.createSession(session);
    expect(repository.createSession).toHaveBeenCalledWith(session, now);
  });
});
