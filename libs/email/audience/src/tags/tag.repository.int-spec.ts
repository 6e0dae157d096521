import { Prisma } from '@email/data-access';
import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { gate, lockWaiters, rowLockFree, useEmailDatabase, WORKSPACE_A, WORKSPACE_B } from '../testing/email-database.fixture';
import { tagCountChange } from './tag-counts';
import { TagRepository } from './tag.repository';

/** The time the repositories are given as now. */
const NOW = new Date('2026-06-01T00:00:00.000Z');

const WORKSPACE = trustedWorkspaceId('wsp_tags');

let lastId = 0;
const newId = () => `tag_n${++lastId}`;
const errorCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'none',
    (error: { code?: string }) => error.code,
  );

describe('TagRepository (real PostgreSQL)', () => {
  const database = useEmailDatabase(WORKSPACE, WORKSPACE_A, WORKSPACE_B);
  let repository: TagRepository;

  beforeAll(() => {
    repository = new TagRepository(database.prisma());
  });

  const transaction = <T>(work: (tx: Prisma.TransactionClient) => Promise<T>) => database.prisma().$transaction(work);
  const findOrCreate = (workspace: WorkspaceId, names: string[]) => transaction((tx) => repository.findOrCreateByNames(workspace, tx, names, newId, NOW));
  const tagsNamed = (workspace: WorkspaceId, ...keys: string[]) =>
    database.prisma().tag.findMany({ where: { workspace_id: workspace, name_key: { in: keys } }, orderBy: { name_key: 'asc' } });

  describe('findOrCreateByNames', () => {
    it('creates the missing names, finds the others in any case, and answers in name-key order', async () => {
      const [vip] = await findOrCreate(WORKSPACE, ['VIP']);
      const ids = await findOrCreate(WORKSPACE, ['  Zeta ', 'vip', 'zeta', 'gdpr: EMAIL marketing']);
      const stored = await tagsNamed(WORKSPACE, 'gdpr: email marketing', 'vip', 'zeta');
      expect(ids).toEqual(stored.map((tag) => tag.id));
      expect(ids[1]).toBe(vip);
      expect(stored.map(({ name, name_key, gdpr_consent_purpose, subscriber_count }) => ({ name, name_key, gdpr_consent_purpose, subscriber_count }))).toEqual([
        { name: 'gdpr: EMAIL marketing', name_key: 'gdpr: email marketing', gdpr_consent_purpose: 'email_marketing', subscriber_count: 0 },
        { name: 'VIP', name_key: 'vip', gdpr_consent_purpose: null, subscriber_count: 0 },
        { name: 'Zeta', name_key: 'zeta', gdpr_consent_purpose: null, subscriber_count: 0 },
      ]);
    });

    it('gives concurrent callers naming the same new tags, in any order and case, one tag per name', async () => {
      const inserted = gate();
      const commit = gate();
      const first = transaction(async (tx) => {
        const ids = await repository.findOrCreateByNames(WORKSPACE, tx, ['Alpha', 'Beta'], newId, NOW);
        inserted.release();
        await commit.hold;
        return ids;
      });
      await inserted.hold;
      const requests = [['beta', 'ALPHA', 'Gamma'], ['gamma', 'alpha'], ['Beta'], ['Delta', 'beta', 'alpha'], ['alpha', 'delta', 'gamma']];
      const others = requests.map((names) => findOrCreate(WORKSPACE, names));
      await lockWaiters(database.observer(), others.length);
      commit.release();
      const [firstIds, ...otherIds] = await Promise.all([first, ...others]);

      const stored = new Map((await tagsNamed(WORKSPACE, 'alpha', 'beta', 'gamma', 'delta')).map((tag) => [tag.name_key, tag.id]));
      expect([...stored.keys()].sort()).toEqual(['alpha', 'beta', 'delta', 'gamma']);
      expect(firstIds).toEqual([stored.get('alpha'), stored.get('beta')]);
      requests.forEach((names, n) => {
        const keys = [...new Set(names.map((name) => name.toLowerCase()))].sort();
        expect(otherIds[n]).toEqual(keys.map((key) => stored.get(key)));
      });
    });

    it('creates the tag itself when the concurrent creator it waited for rolls back', async () => {
      const inserted = gate();
      const rollback = gate();
      const failed = transaction(async (tx) => {
        await repository.findOrCreateByNames(WORKSPACE, tx, ['Omega'], newId, NOW);
        inserted.release();
        await rollback.hold;
        throw new Error('the first creator gives up');
      });
      await inserted.hold;
      const waiting = findOrCreate(WORKSPACE, ['OMEGA']);
      await lockWaiters(database.observer(), 1);
      rollback.release();
      await expect(failed).rejects.toThrow('gives up');
      const [id] = await waiting;
      expect(await tagsNamed(WORKSPACE, 'omega')).toEqual([expect.objectContaining({ id, name: 'OMEGA' })]);
    });
  });

  describe('existing', () => {
    it("returns the workspace's ids among those asked and key-share locks them until commit", async () => {
      const [kept] = await findOrCreate(WORKSPACE, ['Kept']);
      await transaction(async (tx) => {
        expect([...(await repository.existing(WORKSPACE, tx, [kept, 'tag_unknown']))]).toEqual([kept]);
        expect(await rowLockFree(database.observer(), 'tags', kept)).toBe(false);
      });
      expect(await rowLockFree(database.observer(), 'tags', kept)).toBe(true);
      expect(await transaction((tx) => repository.existing(WORKSPACE, tx, []))).toEqual(new Set());
    });
  });

  describe('create, update, list, delete', () => {
    const LIST = trustedWorkspaceId('wsp_tag_list');

    beforeAll(async () => {
      await database.prisma().workspace.create({ data: { id: LIST, name: 'list' } });
    });

    it('create trims the name, keys it in lower case and derives the GDPR purpose; the key is unique per workspace', async () => {
      const tag = await repository.create(LIST, { id: 'tag_ads', name: ' GDPR: Ads Personalization ', description: 'Ads' });
      expect(tag).toMatchObject({ name: 'GDPR: Ads Personalization', name_key: 'gdpr: ads personalization', gdpr_consent_purpose: 'ads_personalization' });
      expect(await errorCode(repository.create(LIST, { id: 'tag_ads2', name: 'gdpr: ads PERSONALIZATION', description: null }))).toBe('tag_name_taken');
      expect(await errorCode(repository.create(WORKSPACE, { id: 'tag_ads3', name: 'GDPR: Ads Personalization', description: null }))).toBe('none');
    });

    it('update re-keys a renamed tag and re-derives its purpose; a taken name or a missing id fails', async () => {
      await repository.create(LIST, { id: 'tag_plain', name: 'Plain', description: null });
      expect(await repository.update(LIST, 'tag_ads', { name: 'Ads ', description: null })).toMatchObject({
        name: 'Ads',
        name_key: 'ads',
        gdpr_consent_purpose: null,
        description: null,
      });
      expect(await repository.update(LIST, 'tag_ads', { description: 'only the description' })).toMatchObject({
        name: 'Ads',
        description: 'only the description',
      });
      expect(await errorCode(repository.update(LIST, 'tag_plain', { name: 'ADS' }))).toBe('tag_name_taken');
      expect(await repository.update(LIST, 'tag_missing', { name: 'Gone' })).toBeNull();
    });

    it('list pages newest first with ties by id, and searches names in any case', async () => {
      const at = new Date('2026-05-01T00:00:00.000Z');
      await database.prisma().tag.createMany({
        data: ['tag_t1', 'tag_t3', 'tag_t2'].map((id) => ({ id, workspace_id: LIST, name: `Tied ${id}`, name_key: `tied ${id}`, created_at: at })),
      });
      const firstPage = await repository.list(LIST, { limit: 2 }, 'TIED');
      expect(firstPage.map((tag) => tag.id)).toEqual(['tag_t3', 'tag_t2', 'tag_t1']);
      const rest = await repository.list(LIST, { limit: 2, after: { created_at: at, id: 'tag_t3' } }, 'tied');
      expect(rest.map((tag) => tag.id)).toEqual(['tag_t2', 'tag_t1']);
      expect((await repository.list(LIST, { limit: 10 })).map((tag) => tag.id)).toEqual(['tag_plain', 'tag_ads', 'tag_t3', 'tag_t2', 'tag_t1']);
    });

    it('delete removes the tag and its memberships once', async () => {
      const prisma = database.prisma();
      await prisma.subscriber.create({ data: { id: 'sub_tagged', workspace_id: LIST, email: 'tagged@example.com' } });
      await prisma.subscriberTag.create({ data: { workspace_id: LIST, subscriber_id: 'sub_tagged', tag_id: 'tag_plain' } });
      expect(await repository.delete(LIST, 'tag_plain')).toBe(true);
      expect(await repository.delete(LIST, 'tag_plain')).toBe(false);
      expect(await prisma.subscriberTag.count({ where: { subscriber_id: 'sub_tagged' } })).toBe(0);
    });
  });

  /** A's tag is reached only through A: B's id reads nothing and changes nothing, even given A's tag id. */
  describe('exact subscriber counts (the tag row plus its count shards)', () => {
    const COUNTED = trustedWorkspaceId('wsp_counted');
    const change = (workspace: WorkspaceId, ids: string[], delta: 1 | -1, shard: number) =>
      transaction((tx) => tx.$executeRaw`${tagCountChange(workspace, ids, delta, shard)}`);
    const shardRows = (tagId: string) => database.prisma().tagCountShard.findMany({ where: { tag_id: tagId }, orderBy: { shard: 'asc' } });

    it('find, list and update answer the base plus every shard; changes add to their shard', async () => {
      await database.prisma().workspace.create({ data: { id: COUNTED, name: COUNTED } });
      await repository.create(COUNTED, { id: 'tag_counted', name: 'Counted', description: null });
      await database.prisma().tag.update({ where: { id: 'tag_counted' }, data: { subscriber_count: 10 } });
      expect(await change(COUNTED, ['tag_counted'], 1, 3)).toBe(1);
      await change(COUNTED, ['tag_counted'], 1, 3);
      await change(COUNTED, ['tag_counted'], 1, 5);
      await change(COUNTED, ['tag_counted'], -1, 7);
      expect((await shardRows('tag_counted')).map(({ shard, delta }) => [shard, delta])).toEqual([
        [3, 2],
        [5, 1],
        [7, -1],
      ]);
      expect((await repository.find(COUNTED, 'tag_counted'))?.subscriber_count).toBe(12);
      expect((await repository.list(COUNTED, { limit: 10 })).map((tag) => tag.subscriber_count)).toEqual([12]);
      expect((await repository.update(COUNTED, 'tag_counted', { description: 'x' }))?.subscriber_count).toBe(12);
    });

    it("a change naming another workspace's tag or a deleted tag writes nothing; deleting a tag deletes its shards", async () => {
      expect(await change(WORKSPACE_B, ['tag_counted'], 1, 1)).toBe(0);
      expect(await repository.delete(COUNTED, 'tag_counted')).toBe(true);
      expect(await shardRows('tag_counted')).toEqual([]);
      expect(await change(COUNTED, ['tag_counted'], 1, 1)).toBe(0);
      expect(await shardRows('tag_counted')).toEqual([]);
    });
  });

  describe('tenancy', () => {
    beforeAll(async () => {
      await repository.create(WORKSPACE_A, { id: 'tag_a', name: 'Shared name', description: 'A' });
    });

    it("reads nothing of A's through B", async () => {
      expect(await repository.find(WORKSPACE_B, 'tag_a')).toBeNull();
      expect(await repository.list(WORKSPACE_B, { limit: 10 })).toEqual([]);
      expect(await transaction((tx) => repository.existing(WORKSPACE_B, tx, ['tag_a']))).toEqual(new Set());
    });

    it("changes nothing of A's through B, and B's names are B's own", async () => {
      const before = await repository.find(WORKSPACE_A, 'tag_a');
      expect(await repository.update(WORKSPACE_B, 'tag_a', { name: 'Taken over', description: 'B' })).toBeNull();
      expect(await repository.delete(WORKSPACE_B, 'tag_a')).toBe(false);
      const [own] = await findOrCreate(WORKSPACE_B, ['shared NAME']);
      expect(own).not.toBe('tag_a');
      expect(await repository.find(WORKSPACE_A, 'tag_a')).toEqual(before);
      expect(await repository.find(WORKSPACE_B, own)).toMatchObject({ workspace_id: WORKSPACE_B, name: 'shared NAME' });
    });

    it('the same update and delete through A do change it', async () => {
      expect(await repository.update(WORKSPACE_A, 'tag_a', { description: 'changed' })).toMatchObject({ description: 'changed' });
      expect(await repository.delete(WORKSPACE_A, 'tag_a')).toBe(true);
    });
  });
});
