import { EmailPrisma } from '@email/data-access';
import type { AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import type { StoredToken } from '@shared/oauth';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { OAuthRepository } from './oauth.repository';

const now = new Date(Date.UTC(2026, 5, 1, 12, 0));
const later = new Date(now.getTime() + 3_600_000);

/** The single-use rules under races: of concurrent uses of one code or refresh token, exactly one is the first. */
describe('OAuthRepository (real PostgreSQL)', () => {
  let db: TestDatabase;
  let prisma: EmailPrisma;
  let repository: OAuthRepository;
  let grantId: string;
  const workspaceId = trustedWorkspaceId('wsp_oauth');

  beforeAll(async () => {
    db = await createTestDatabase('email');
    prisma = new EmailPrisma({ emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig);
    repository = new OAuthRepository(prisma);
    await prisma.workspace.create({ data: { id: workspaceId, name: 'OAuth' } });
    await repository.createUser({ id: 'usr_1', email: 'a@example.test', name: 'A', password_hash: 'x' }, [workspaceId]);
    await repository.createClient({
      id: 'oac_1',
      name: 'App',
      redirectUris: ['https://app.example/cb'],
      scopes: ['tags:read'],
      clientUri: null,
      createdAt: now,
    });
    grantId = await repository.approveConnection(workspaceId, { newId: 'mcn_1', clientId: 'oac_1', userId: 'usr_1', scopes: ['tags:read'] });
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const token = (id: string, kind: 'access' | 'refresh', familyId = 'oaf_1'): StoredToken => ({
    id,
    tokenHash: `hash_${id}`,
    kind,
    familyId,
    grantId,
    clientId: 'oac_1',
    userId: 'usr_1',
    workspaceId,
    scopes: ['tags:read'],
    preview: 'mra_…abcd',
    expiresAt: later,
    revokedAt: null,
    createdAt: now,
  });

  it('lets exactly one of ten concurrent exchanges use a code first', async () => {
    await repository.saveAuthorizationCode(
      {
        codeHash: 'code_1',
        grantId,
        clientId: 'oac_1',
        userId: 'usr_1',
        workspaceId,
        scopes: ['tags:read'],
        redirectUri: 'https://app.example/cb',
        codeChallenge: 'c'.repeat(43),
        familyId: 'oaf_code',
        expiresAt: later,
      },
      now,
    );
    const uses = await Promise.all(Array.from({ length: 10 }, () => repository.consumeAuthorizationCode('code_1', now)));
    expect(uses.filter((use) => use!.firstUse)).toHaveLength(1);
    expect(await repository.consumeAuthorizationCode('code_unknown', now)).toBeNull();
  });

  it('lets exactly one of ten concurrent refreshes rotate a refresh token, and never consumes an access token as one', async () => {
    expect(await repository.saveTokens([token('oat_a', 'access'), token('oat_r', 'refresh')])).toBe(true);
    const uses = await Promise.all(Array.from({ length: 10 }, () => repository.consumeRefreshToken('hash_oat_r', now)));
    expect(uses.filter((use) => use!.firstUse)).toHaveLength(1);
    expect(await repository.consumeRefreshToken('hash_oat_a', now)).toBeNull();
  });

  it('revokes a family, answering its live access tokens, and issues nothing under a revoked connection', async () => {
    await repository.saveTokens([token('oat_a2', 'access', 'oaf_2'), token('oat_r2', 'refresh', 'oaf_2')]);
    expect(await repository.revokeFamily('oaf_2', now)).toEqual(['oat_a2']);
    expect((await repository.findToken('hash_oat_r2'))!.revokedAt).toEqual(now);
    expect((await repository.findToken('hash_oat_a'))!.revokedAt).toBeNull();

    expect(await repository.revokeConnection(workspaceId, grantId, now)).toEqual(['oat_a']);
    expect(await repository.revokeConnection(workspaceId, grantId, now)).toBeNull();
    expect(await repository.saveTokens([token('oat_a3', 'access', 'oaf_3'), token('oat_r3', 'refresh', 'oaf_3')])).toBe(false);
    expect(await repository.findToken('hash_oat_a3')).toBeNull();
  });
});
