import { EmailPrisma } from '@email/data-access';
import type { AppConfig } from '@shared/config';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { AccessRepository, NewApiKey } from './access.repository';

const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 12, minute));
const key = (id: string): NewApiKey => ({ id, name: id, secret_hash: `hash_${id}`, key_preview: 'pl_…abcd', scopes: ['tags:read'], expires_at: null });

/** The conditional writes of the key table: last-use stamps only move forward past the staleness window, revocation happens once. */
describe('AccessRepository (real PostgreSQL)', () => {
  let db: TestDatabase;
  let prisma: EmailPrisma;
  let repository: AccessRepository;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    prisma = new EmailPrisma({ emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig);
    repository = new AccessRepository(prisma);
    await repository.createWorkspaceWithKey({ id: 'wsp_keys', name: 'Keys' }, key('key_used'));
    await repository.createApiKey('wsp_keys', key('key_bystander'));
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const lastUsed = async (id: string) => (await prisma.apiKey.findUniqueOrThrow({ where: { id } })).last_used_at;

  it('touchKey stamps a never-used key, then moves the stamp only once it is older than the cut-off', async () => {
    await repository.touchKey('key_used', at(0), at(0));
    expect(await lastUsed('key_used')).toEqual(at(0));
    await repository.touchKey('key_used', at(5), at(0));
    expect(await lastUsed('key_used')).toEqual(at(0));
    await repository.touchKey('key_used', at(10), at(1));
    expect(await lastUsed('key_used')).toEqual(at(10));
    expect(await lastUsed('key_bystander')).toBeNull();
  });

  it('revokeKey revokes an active key once, recording when', async () => {
    expect(await repository.revokeKey('key_used', at(20))).toBe(true);
    expect(await repository.revokeKey('key_used', at(30))).toBe(false);
    expect(await repository.revokeKey('key_missing', at(30))).toBe(false);
    expect(await prisma.apiKey.findUniqueOrThrow({ where: { id: 'key_used' } })).toMatchObject({ status: 'revoked', revoked_at: at(20) });
    expect(await prisma.apiKey.findUniqueOrThrow({ where: { id: 'key_bystander' } })).toMatchObject({ status: 'active', revoked_at: null });
  });

  it('findKeyByHash returns the key with its workspace, or null', async () => {
    expect(await repository.findKeyByHash('hash_key_bystander')).toMatchObject({ id: 'key_bystander', workspace: { id: 'wsp_keys', name: 'Keys' } });
    expect(await repository.findKeyByHash('hash_unknown')).toBeNull();
  });
});
