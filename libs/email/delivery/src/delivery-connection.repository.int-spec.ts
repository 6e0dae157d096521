import { EmailPrisma } from '@email/data-access';
import type { AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { DeliveryConnectionRepository } from './delivery-connection.repository';

const WORKSPACE_A = trustedWorkspaceId('wsp_a');
const WORKSPACE_B = trustedWorkspaceId('wsp_b');
const NONE = trustedWorkspaceId('wsp_none');
const TIED = new Date('2026-05-01T00:00:00.000Z');

describe('DeliveryConnectionRepository (real PostgreSQL)', () => {
  let db: TestDatabase;
  let prisma: EmailPrisma;
  let repository: DeliveryConnectionRepository;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    prisma = new EmailPrisma({ emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig);
    repository = new DeliveryConnectionRepository(prisma);
    await prisma.workspace.createMany({ data: [WORKSPACE_A, WORKSPACE_B, NONE].map((id) => ({ id, name: id })) });
    const connection = (id: string, enabled: boolean, created_at = TIED) => ({
      id,
      workspace_id: WORKSPACE_A,
      name: id,
      provider: 'smtp',
      from_email: `${id}@example.com`,
      from_name: id,
      enabled,
      created_at,
    });
    await prisma.deliveryConnection.createMany({
      data: [
        connection('dc_1', true),
        connection('dc_3', true),
        connection('dc_2', true),
        connection('dc_off', false),
        connection('dc_new', true, new Date('2026-06-01T00:00:00Z')),
      ],
    });
    await prisma.deliveryConnection.create({
      data: { id: 'dc_b', workspace_id: WORKSPACE_B, name: 'b', provider: 'smtp', from_email: 'b@example.com', from_name: 'B', enabled: false },
    });
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

  it('lists enabled connections only, newest first with ties by id, from the position on', async () => {
    expect(ids(await repository.listEnabled(WORKSPACE_A, { limit: 10 }))).toEqual(['dc_new', 'dc_3', 'dc_2', 'dc_1']);
    expect(ids(await repository.listEnabled(WORKSPACE_A, { limit: 1 }))).toEqual(['dc_new', 'dc_3']);
    expect(ids(await repository.listEnabled(WORKSPACE_A, { limit: 10, after: { created_at: TIED, id: 'dc_3' } }))).toEqual(['dc_2', 'dc_1']);
  });

  it('finds an enabled connection only', async () => {
    expect(await repository.findEnabled(WORKSPACE_A, 'dc_2')).toMatchObject({ id: 'dc_2', from_email: 'dc_2@example.com' });
    expect(await repository.findEnabled(WORKSPACE_A, 'dc_off')).toBeNull();
  });

  it('reports the distinct enabled values: both, only disabled, none', async () => {
    expect((await repository.enabledValues(WORKSPACE_A)).sort()).toEqual([false, true]);
    expect(await repository.enabledValues(WORKSPACE_B)).toEqual([false]);
    expect(await repository.enabledValues(NONE)).toEqual([]);
  });

  it("reads nothing of A's through B", async () => {
    expect(await repository.listEnabled(WORKSPACE_B, { limit: 10 })).toEqual([]);
    expect(await repository.findEnabled(WORKSPACE_B, 'dc_1')).toBeNull();
    expect(await repository.findEnabled(WORKSPACE_A, 'dc_b')).toBeNull();
  });
});
