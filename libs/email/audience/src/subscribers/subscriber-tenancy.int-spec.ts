import type { WorkspaceId } from '@shared/core';
import { useEmailDatabase, WORKSPACE_A, WORKSPACE_B } from '../testing/email-database.fixture';
import { withExactCount } from '../tags/tag-counts';
import { SubscriberRepository } from './subscriber.repository';

/** The time the repositories are given as now. */
const NOW = new Date('2026-06-01T00:00:00.000Z');

const LONG_AGO = new Date('2026-01-01T00:00:00.000Z');
const consent = (id: string) => ({ id, lawful_basis: 'consent', collected_at: LONG_AGO, evidence_reference: 'ref' });

/** A's rows are reached only through A: B's id reads nothing and changes nothing, even given A's row ids. */
describe('SubscriberRepository tenancy (real PostgreSQL)', () => {
  const database = useEmailDatabase(WORKSPACE_A, WORKSPACE_B);
  let repository: SubscriberRepository;

  beforeAll(async () => {
    const prisma = database.prisma();
    repository = new SubscriberRepository(prisma, database.sql());
    for (const [workspace, suffix] of [
      [WORKSPACE_A, 'a'],
      [WORKSPACE_B, 'b'],
    ] as const) {
      await prisma.subscriber.create({
        data: { id: `sub_${suffix}1`, workspace_id: workspace, email: 'same@example.com', name: 'Kept', updated_at: LONG_AGO },
      });
      await prisma.tag.createMany({ data: [1, 2].map((n) => ({ id: `tag_${suffix}${n}`, workspace_id: workspace, name: `T${n}`, name_key: `t${n}` })) });
      await prisma.sequence.createMany({ data: [1, 2].map((n) => ({ id: `seq_${suffix}${n}`, workspace_id: workspace, name: `S${n}` })) });
    }
    await prisma.subscriberTag.create({ data: { workspace_id: WORKSPACE_A, subscriber_id: 'sub_a1', tag_id: 'tag_a1' } });
    await prisma.tag.update({ where: { id: 'tag_a1' }, data: { subscriber_count: 1 } });
    await prisma.sequenceEnrollment.create({ data: { workspace_id: WORKSPACE_A, subscriber_id: 'sub_a1', sequence_id: 'seq_a1', state: 'active' } });
  });

  /** A's subscriber as A reads it, plus what the document leaves out. */
  async function stateOfA() {
    const prisma = database.prisma();
    return {
      document: await repository.view(WORKSPACE_A, 'sub_a1'),
      enrollments: await prisma.sequenceEnrollment.findMany({
        where: { subscriber_id: 'sub_a1' },
        select: { sequence_id: true, state: true },
        orderBy: { sequence_id: 'asc' },
      }),
      counters: (await prisma.tag.findMany({ where: { workspace_id: WORKSPACE_A }, include: { count_shards: true }, orderBy: { id: 'asc' } }))
        .map(withExactCount)
        .map(({ id, subscriber_count }) => ({ id, subscriber_count })),
      consents: await prisma.consentRecord.count({ where: { subscriber_id: 'sub_a1' } }),
    };
  }

  /** Every write of the repository aimed at A's subscriber, tags and sequences, through the given workspace. */
  async function writeToA(workspace: WorkspaceId) {
    const update = await repository
      .transaction((tx) => repository.update(workspace, tx, 'sub_a1', { name: 'Changed' }, NOW))
      .then(
        () => 'updated',
        () => 'refused',
      );
    const results = await repository.transaction(async (tx) => ({
      touched: await repository.touch(workspace, tx, 'sub_a1', NOW),
      added: await repository.addTags(workspace, tx, 'sub_a1', ['tag_a2']),
      removed: await repository.removeTag(workspace, tx, 'sub_a1', 'tag_a1'),
      enrolled: await repository.enroll(workspace, tx, 'sub_a1', ['seq_a2'], NOW),
      unenrolled: await repository.unenroll(workspace, tx, 'sub_a1', 'seq_a1', NOW),
      bumped: await repository.bumpTagCounts(workspace, tx, ['tag_a1'], -1),
      consent: await repository.recordConsent(workspace, tx, 'sub_a1', consent(`cns_${workspace}`), NOW).then(
        () => 'recorded',
        () => 'refused',
      ),
    }));
    return { update, ...results };
  }

  it('takes a branded WorkspaceId only: a plain string does not compile, although it would run (tsc checks this file)', async () => {
    const rawId: string = WORKSPACE_A;
    // @ts-expect-error An id from a path or a body is a plain string; only a workspace context (or a test) brands one.
    expect(await repository.view(rawId, 'sub_a1')).toMatchObject({ id: 'sub_a1' });
    await repository.transaction(async (tx) => {
      // @ts-expect-error The same holds for the writes that take the transaction second.
      expect(await repository.lock(rawId, tx, 'sub_a1')).toMatchObject({ id: 'sub_a1' });
    });
  });

  it("reads nothing of A's through B", async () => {
    expect(JSON.parse((await repository.page(WORKSPACE_B, {}, { limit: 10 })).data)).toEqual([expect.objectContaining({ id: 'sub_b1' })]);
    expect((await repository.page(WORKSPACE_B, { tagIds: ['tag_a1'] }, { limit: 10 })).fetched).toBe(0);
    expect((await repository.page(WORKSPACE_B, { sequenceIds: ['seq_a1'] }, { limit: 10 })).fetched).toBe(0);
    expect(await repository.view(WORKSPACE_B, 'sub_a1')).toBeUndefined();
    await repository.transaction(async (tx) => {
      expect(await repository.lock(WORKSPACE_B, tx, 'sub_a1')).toBeUndefined();
      expect([...(await repository.existingSequences(WORKSPACE_B, tx, ['seq_a1', 'seq_b1']))]).toEqual(['seq_b1']);
    });
  });

  it("changes nothing of A's through B: update, touch, tags, counters, enrolments, consent, delete", async () => {
    const before = await stateOfA();
    expect(await writeToA(WORKSPACE_B)).toEqual({
      update: 'refused',
      touched: undefined,
      added: [],
      removed: false,
      enrolled: 0,
      unenrolled: false,
      bumped: undefined,
      consent: expect.any(String),
    });
    expect(await repository.delete(WORKSPACE_B, 'sub_a1')).toBe(false);
    expect(await stateOfA()).toEqual(before);
  });

  it("does not join B's subscriber to A's tags or sequences", async () => {
    await repository.transaction(async (tx) => {
      expect(await repository.addTags(WORKSPACE_B, tx, 'sub_b1', ['tag_a2'])).toEqual([]);
      expect(await repository.enroll(WORKSPACE_B, tx, 'sub_b1', ['seq_a2'], NOW)).toBe(0);
    });
    expect(await repository.view(WORKSPACE_B, 'sub_b1')).toMatchObject({ tags: [], sequence_ids: [] });
  });

  it("insertOrLock through B with A's email finds B's own subscriber and leaves A's alone", async () => {
    const before = await stateOfA();
    const row = { id: 'sub_b2', email: 'same@example.com', name: 'New', status: 'Active' as const, country: null, subscribed_at: LONG_AGO, custom_fields: {} };
    const existing = await repository.transaction((tx) => repository.insertOrLock(WORKSPACE_B, tx, row, NOW));
    expect(existing).toMatchObject({ id: 'sub_b1', created: false });
    expect(await stateOfA()).toEqual(before);
  });

  it('the same writes through A do change it (the calls above aimed at real rows)', async () => {
    const before = await stateOfA();
    expect(await writeToA(WORKSPACE_A)).toMatchObject({
      update: 'updated',
      added: ['tag_a2'],
      removed: true,
      enrolled: 1,
      unenrolled: true,
      consent: 'recorded',
    });
    const after = await stateOfA();
    expect(after.document).toMatchObject({ name: 'Changed', tags: [{ id: 'tag_a2' }], sequence_ids: ['seq_a2'] });
    expect(after.document!.updated_at).not.toBe(before.document!.updated_at);
    expect(after.enrollments).toEqual([
      { sequence_id: 'seq_a1', state: 'removed' },
      { sequence_id: 'seq_a2', state: 'active' },
    ]);
    expect(after.counters).toEqual([
      { id: 'tag_a1', subscriber_count: 0 },
      { id: 'tag_a2', subscriber_count: 0 },
    ]);
    expect(after.consents).toBe(before.consents + 1);
    expect(await repository.delete(WORKSPACE_A, 'sub_a1')).toBe(true);
  });
});
