import { EmailPrisma } from '@email/data-access';
import type { AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { SubscriberRepository } from './subscriber.repository';

/** The time the repositories are given as now. */
const NOW = new Date('2026-06-01T00:00:00.000Z');

const MINE = trustedWorkspaceId('ws_mine');
const OTHER = trustedWorkspaceId('ws_other');

/** Every repository method is scoped by the workspace id it is given: another workspace's id changes nothing. */
describe('SubscriberRepository tenancy', () => {
  let db: TestDatabase;
  let prisma: EmailPrisma;
  let repository: SubscriberRepository;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    prisma = new EmailPrisma({ emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig);
    repository = new SubscriberRepository(prisma);
    await prisma.workspace.createMany({ data: [{ id: 'ws_mine', name: 'Mine' }, { id: 'ws_other', name: 'Other' }] });
    await prisma.subscriber.create({ data: { id: 'sub_1', workspace_id: 'ws_mine', email: 'one@example.com', updated_at: new Date('2026-01-01T00:00:00Z') } });
    await prisma.tag.create({ data: { id: 'tag_1', workspace_id: 'ws_mine', name: 'One', name_key: 'one', subscriber_count: 1 } });
    await prisma.subscriberTag.create({ data: { workspace_id: 'ws_mine', subscriber_id: 'sub_1', tag_id: 'tag_1' } });
    await prisma.sequence.create({ data: { id: 'seq_1', workspace_id: 'ws_mine', name: 'Welcome' } });
    await prisma.sequenceEnrollment.create({ data: { workspace_id: 'ws_mine', subscriber_id: 'sub_1', sequence_id: 'seq_1', state: 'active' } });
    await prisma.tag.create({ data: { id: 'tag_2', workspace_id: 'ws_mine', name: 'Two', name_key: 'two' } });
    await prisma.sequence.create({ data: { id: 'seq_2', workspace_id: 'ws_mine', name: 'Later' } });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const snapshot = async () => ({
    subscriber: await prisma.subscriber.findUnique({ where: { id: 'sub_1' } }),
    tag: await prisma.tag.findUnique({ where: { id: 'tag_1' }, select: { subscriber_count: true } }),
    memberships: await prisma.subscriberTag.count({ where: { subscriber_id: 'sub_1' } }),
    enrollment: await prisma.sequenceEnrollment.findFirst({ where: { subscriber_id: 'sub_1', sequence_id: 'seq_1' }, select: { state: true } }),
    enrollments: await prisma.sequenceEnrollment.count({ where: { subscriber_id: 'sub_1' } }),
  });

  it('changes nothing when called with another workspace id', async () => {
    const before = await snapshot();
    await repository.transaction(async (tx) => {
      expect(await repository.lock(OTHER, tx, 'sub_1')).toBeUndefined();
      await repository.touch(OTHER, tx, 'sub_1', NOW);
      expect(await repository.removeTag(OTHER, tx, 'sub_1', 'tag_1')).toBe(false);
      expect(await repository.unenroll(OTHER, tx, 'sub_1', 'seq_1', NOW)).toBe(false);
      await repository.bumpTagCounts(OTHER, tx, ['tag_1'], -1);
      expect(await repository.addTags(OTHER, tx, 'sub_1', ['tag_2'])).toEqual([]);
      expect(await repository.enroll(OTHER, tx, 'sub_1', ['seq_2'], NOW)).toBe(0);
    });
    expect(await repository.view(OTHER, 'sub_1')).toBeUndefined();
    expect(await repository.delete(OTHER, 'sub_1')).toBe(false);
    expect(await snapshot()).toEqual(before);
  });

  it('does change them with the right workspace id', async () => {
    await repository.transaction(async (tx) => {
      await repository.touch(MINE, tx, 'sub_1', NOW);
      expect(await repository.removeTag(MINE, tx, 'sub_1', 'tag_1')).toBe(true);
      expect(await repository.unenroll(MINE, tx, 'sub_1', 'seq_1', NOW)).toBe(true);
      await repository.bumpTagCounts(MINE, tx, ['tag_1'], -1);
    });
    const after = await snapshot();
    expect(after.subscriber!.updated_at.getTime()).toBeGreaterThan(new Date('2026-01-01T00:00:00Z').getTime());
    expect(after).toMatchObject({ tag: { subscriber_count: 0 }, memberships: 0, enrollment: { state: 'removed' } });
  });
});
