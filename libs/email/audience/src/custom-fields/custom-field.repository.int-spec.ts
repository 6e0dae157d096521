import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { PgTransaction } from '../common/sql-transaction';
import { gate, lockWaiters, useEmailDatabase, WORKSPACE_A, WORKSPACE_B } from '../testing/email-database.fixture';
import { CustomFieldRepository } from './custom-field.repository';

const WORKSPACE = trustedWorkspaceId('wsp_fields');

const errorCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'none',
    (error: { code?: string }) => error.code,
  );
const text = (id: string, label: string) => ({ id, label, type: 'Text' as const, options: [] });

describe('CustomFieldRepository (real PostgreSQL)', () => {
  const database = useEmailDatabase(WORKSPACE, WORKSPACE_A, WORKSPACE_B);
  let repository: CustomFieldRepository;
  let remove: (workspace: WorkspaceId, id: string) => Promise<boolean>;

  beforeAll(() => {
    repository = new CustomFieldRepository(database.prisma());
    remove = (workspace, id) => database.prisma().$transaction((tx) => repository.delete(workspace, id, tx));
  });

  const valuesOf = async (id: string) => (await database.prisma().subscriber.findUniqueOrThrow({ where: { id } })).custom_fields;

  describe('labels', () => {
    it('are unique per workspace in any case, on create and on rename', async () => {
      await repository.create(WORKSPACE, text('cf_city', 'City'));
      await repository.create(WORKSPACE, text('cf_town', 'Town'));
      expect(await errorCode(repository.create(WORKSPACE, text('cf_city2', 'CITY')))).toBe('custom_field_label_taken');
      expect(await errorCode(repository.update(WORKSPACE, 'cf_town', { label: 'city' }))).toBe('custom_field_label_taken');
      expect(await errorCode(repository.create(WORKSPACE_B, text('cf_city_b', 'City')))).toBe('none');
      expect(await repository.update(WORKSPACE, 'cf_town', { label: 'Village' })).toMatchObject({ label: 'Village', label_key: 'village' });
    });

    it('let exactly one of several concurrent creates of one label through', async () => {
      const outcomes = await Promise.all([1, 2, 3, 4, 5].map((n) => errorCode(repository.create(WORKSPACE, text(`cf_race${n}`, n % 2 ? 'Plan' : 'PLAN')))));
      expect(outcomes.filter((code) => code === 'none')).toHaveLength(1);
      expect(outcomes.filter((code) => code === 'custom_field_label_taken')).toHaveLength(4);
      expect(await database.prisma().customField.count({ where: { workspace_id: WORKSPACE, label_key: 'plan' } })).toBe(1);
    });
  });

  it('update changes type and options, and fails on a missing id', async () => {
    await repository.create(WORKSPACE, { id: 'cf_size', label: 'Size', type: 'Single_Select', options: ['S', 'M'] });
    expect(await repository.update(WORKSPACE, 'cf_size', { type: 'Multi_Select', options: ['S', 'M', 'L'] })).toMatchObject({
      label: 'Size',
      type: 'Multi_Select',
      options: ['S', 'M', 'L'],
    });
    expect(await repository.update(WORKSPACE, 'cf_missing', { label: 'Gone' })).toBeNull();
  });

  it('list pages newest first with ties by id and searches labels in any case; findMany returns the asked ids', async () => {
    const LIST = trustedWorkspaceId('wsp_field_list');
    const at = new Date('2026-05-01T00:00:00.000Z');
    await database.prisma().workspace.create({ data: { id: LIST, name: 'list' } });
    await database.prisma().customField.createMany({
      data: ['cf_l1', 'cf_l3', 'cf_l2'].map((id) => ({
        id,
        workspace_id: LIST,
        label: `Label ${id}`,
        label_key: `label ${id}`,
        type: 'Text' as const,
        created_at: at,
      })),
    });
    await repository.create(LIST, text('cf_new', 'Newest'));
    expect((await repository.list(LIST, { limit: 10 })).map((field) => field.id)).toEqual(['cf_new', 'cf_l3', 'cf_l2', 'cf_l1']);
    expect((await repository.list(LIST, { limit: 1, after: { created_at: at, id: 'cf_l3' } }, 'LABEL')).map((field) => field.id)).toEqual(['cf_l2', 'cf_l1']);
    expect((await repository.list(LIST, { limit: 10 }, 'newest')).map((field) => field.id)).toEqual(['cf_new']);
    expect((await repository.definitions(LIST, database.prisma(), ['cf_l1', 'cf_new', 'cf_unknown'])).map((field) => field.id).sort()).toEqual([
      'cf_l1',
      'cf_new',
    ]);
  });

  it('definitions name every type as the API does, with the options', async () => {
    await repository.create(WORKSPACE, { id: 'cf_multi_def', label: 'Definition colours', type: 'Multi_Select', options: ['Red', 'Blue'] });
    await repository.create(WORKSPACE, { id: 'cf_drop_def', label: 'Definition size', type: 'Select_Dropdown', options: ['S'] });
    const found = await repository.definitions(WORKSPACE, database.prisma(), ['cf_multi_def', 'cf_drop_def']);
    expect(found.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'cf_drop_def', type: 'Select (Dropdown)', options: ['S'] },
      { id: 'cf_multi_def', type: 'Multi Select', options: ['Red', 'Blue'] },
    ]);
  });

  it('inUse says whether any subscriber of the workspace holds a value for the field', async () => {
    await repository.create(WORKSPACE, text('cf_used', 'Used'));
    expect(await repository.inUse(WORKSPACE, 'cf_used')).toBe(false);
    await database
      .prisma()
      .subscriber.create({ data: { id: 'sub_holder', workspace_id: WORKSPACE, email: 'holder@example.com', custom_fields: { cf_used: 'x' } } });
    expect(await repository.inUse(WORKSPACE, 'cf_used')).toBe(true);
  });

  /** A subscriber write validates its values against definitions it holds until commit; a type change locks the field. */
  describe('type changes racing value writes', () => {
    it('a type change waits for a write that validated against the old type, then refuses', async () => {
      await repository.create(WORKSPACE, text('cf_race_old', 'Race old'));
      await database.prisma().subscriber.create({ data: { id: 'sub_race_old', workspace_id: WORKSPACE, email: 'race-old@example.com' } });
      const validated = gate();
      const write = gate();
      const writer = database.sql().transaction(async (client) => {
        const tx = new PgTransaction(client);
        const [definition] = await repository.definitions(WORKSPACE, tx, ['cf_race_old']);
        validated.release();
        await write.hold;
        await tx.$executeRaw`UPDATE subscribers SET custom_fields = '{"cf_race_old": "words"}' WHERE workspace_id = ${WORKSPACE} AND id = 'sub_race_old'`;
        return definition.type;
      });
      await validated.hold;

      const change = repository.update(WORKSPACE, 'cf_race_old', { type: 'Number' });
      await lockWaiters(database.observer(), 1).finally(write.release);

      expect(await writer).toBe('Text');
      expect(await change).toBe('in_use');
      expect((await repository.find(WORKSPACE, 'cf_race_old'))?.type).toBe('Text');
    });

    it('a write that starts during a type change validates against the new type', async () => {
      await repository.create(WORKSPACE, text('cf_race_new', 'Race new'));
      const changed = gate();
      const commit = gate();
      const change = database.prisma().$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM custom_fields WHERE id = 'cf_race_new' FOR UPDATE`;
        await tx.customField.update({ where: { id: 'cf_race_new' }, data: { type: 'Number' } });
        changed.release();
        await commit.hold;
      });
      await changed.hold;

      const read = database.sql().transaction((client) => repository.definitions(WORKSPACE, new PgTransaction(client), ['cf_race_new']));
      await lockWaiters(database.observer(), 1).finally(commit.release);
      await change;

      expect(await read).toEqual([{ id: 'cf_race_new', type: 'Number', options: [] }]);
    });
  });

  it('delete removes the field and strips its values from every subscriber, once', async () => {
    await repository.create(WORKSPACE, text('cf_gone', 'Gone'));
    await database.prisma().subscriber.createMany({
      data: [
        { id: 'sub_g1', workspace_id: WORKSPACE, email: 'g1@example.com', custom_fields: { cf_gone: 'a', cf_city: 'Berlin' } },
        { id: 'sub_g2', workspace_id: WORKSPACE, email: 'g2@example.com', custom_fields: { cf_gone: 'b' } },
      ],
    });
    expect(await remove(WORKSPACE, 'cf_gone')).toBe(true);
    expect(await repository.find(WORKSPACE, 'cf_gone')).toBeNull();
    expect([await valuesOf('sub_g1'), await valuesOf('sub_g2')]).toEqual([{ cf_city: 'Berlin' }, {}]);
    expect(await remove(WORKSPACE, 'cf_gone')).toBe(false);
  });

  /** A's field is reached only through A: B's id reads nothing and changes nothing, even given A's field id. */
  describe('tenancy', () => {
    beforeAll(async () => {
      await repository.create(WORKSPACE_A, text('cf_a', 'Mine'));
      await database.prisma().subscriber.create({ data: { id: 'sub_a', workspace_id: WORKSPACE_A, email: 'a@example.com', custom_fields: { cf_a: 'kept' } } });
      // A value stored under A's field id in B's subscriber is B's data: B's delete of A's field must not reach A's.
      await database.prisma().subscriber.create({ data: { id: 'sub_b', workspace_id: WORKSPACE_B, email: 'b@example.com', custom_fields: { cf_a: 'stray' } } });
    });

    it("reads nothing of A's through B", async () => {
      expect(await repository.find(WORKSPACE_B, 'cf_a')).toBeNull();
      expect(await repository.definitions(WORKSPACE_B, database.prisma(), ['cf_a'])).toEqual([]);
      expect((await repository.list(WORKSPACE_B, { limit: 10 })).map((field) => field.id)).toEqual(['cf_city_b']);
      expect(await repository.inUse(WORKSPACE_B, 'cf_city_b')).toBe(false);
    });

    it("changes nothing of A's through B", async () => {
      const before = await repository.find(WORKSPACE_A, 'cf_a');
      expect(await repository.update(WORKSPACE_B, 'cf_a', { label: 'Taken over' })).toBeNull();
      expect(await remove(WORKSPACE_B, 'cf_a')).toBe(false);
      expect(await repository.find(WORKSPACE_A, 'cf_a')).toEqual(before);
      expect(await valuesOf('sub_a')).toEqual({ cf_a: 'kept' });
      expect(await repository.inUse(WORKSPACE_A, 'cf_a')).toBe(true);
    });

    it("deleting through A strips A's subscribers only", async () => {
      expect(await remove(WORKSPACE_A, 'cf_a')).toBe(true);
      expect([await valuesOf('sub_a'), await valuesOf('sub_b')]).toEqual([{}, { cf_a: 'stray' }]);
    });
  });
});
