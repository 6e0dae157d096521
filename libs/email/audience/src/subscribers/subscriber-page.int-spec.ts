import type { SequenceOperator } from '@email/audience-engine';
import type { SubscriberStatus } from '@email/data-access';
import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import type { KeysetPage } from '@shared/pagination';
import { useEmailDatabase } from '../testing/email-database.fixture';
import type { SubscriberDto } from './subscriber.dto';
import { SubscriberRepository } from './subscriber.repository';
import { SubscriberFilter } from './subscriber.store';

const PAGED = trustedWorkspaceId('wsp_paged');
const FILTERED = trustedWorkspaceId('wsp_filtered');

/** Twelve subscribers in four groups created at the same instant, ids deliberately not in insertion order. */
const PAGED_ROWS = [0, 1, 2, 3].flatMap((group) =>
  ['b', 'c', 'a'].map((letter) => ({ id: `sub_${letter}${group}`, created_at: new Date(Date.UTC(2026, 0, 1 + group, 12, 0, 0, 123)) })),
);
/** The order the list promises: newest first, ties broken by id, descending. */
const NEWEST_FIRST = [...PAGED_ROWS].sort((x, y) => y.created_at.getTime() - x.created_at.getTime() || (x.id < y.id ? 1 : -1)).map((row) => row.id);

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

describe('SubscriberRepository.page (real PostgreSQL)', () => {
  const database = useEmailDatabase(PAGED, FILTERED);
  let repository: SubscriberRepository;

  beforeAll(async () => {
    const prisma = database.prisma();
    repository = new SubscriberRepository(prisma, database.sql());
    await prisma.subscriber.createMany({
      data: PAGED_ROWS.map((row) => ({ ...row, workspace_id: PAGED, email: `${row.id}@example.com`, updated_at: row.created_at })),
    });
    await seedFiltered();
  });

  const ids = (data: string) => (JSON.parse(data) as SubscriberDto[]).map((subscriber) => subscriber.id);

  /** Follows the pages the way the service does: the last kept row of a page is the next page's position. */
  async function allPages(workspaceId: WorkspaceId, limit: number, filter: SubscriberFilter = {}): Promise<string[][]> {
    const pages: string[][] = [];
    let page: KeysetPage = { limit };
    for (;;) {
      const result = await repository.page(workspaceId, filter, page);
      pages.push(ids(result.data));
      if (result.fetched <= limit) return pages;
      page = { limit, after: { created_at: new Date(result.last_created_at!), id: result.last_id! } };
    }
  }

  describe('keyset pagination', () => {
    it('walks every row once, newest first with ties by id, whatever the page size', async () => {
      for (const limit of [1, 2, 3, 5, 11]) {
        const pages = await allPages(PAGED, limit);
        expect(pages.flat()).toEqual(NEWEST_FIRST);
        expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
      }
    });

    it('starts right after the position: the row at it is left out, its tie with a lower id is not', async () => {
      const position = PAGED_ROWS.find((row) => row.id === 'sub_b2')!;
      const result = await repository.page(PAGED, {}, { limit: 4, after: { created_at: position.created_at, id: position.id } });
      expect(ids(result.data)).toEqual(['sub_a2', 'sub_c1', 'sub_b1', 'sub_a1']);
    });

    it('reports one extra match when more follow, and the last kept row as the next position', async () => {
      const result = await repository.page(PAGED, {}, { limit: 4 });
      expect(result).toMatchObject({ fetched: 5, last_id: NEWEST_FIRST[3], last_created_at: '2026-01-03T12:00:00.123Z' });
    });

    it('reports no more on a page that is exactly full, and no position on a short page', async () => {
      expect(await repository.page(PAGED, {}, { limit: 12 })).toMatchObject({ fetched: 12, last_id: NEWEST_FIRST[11] });
      const short = await repository.page(PAGED, {}, { limit: 13 });
      expect(short).toMatchObject({ fetched: 12, last_id: null, last_created_at: null });
      expect(ids(short.data)).toEqual(NEWEST_FIRST);
    });

    it('answers an empty page past the oldest row', async () => {
      const oldest = PAGED_ROWS.find((row) => row.id === NEWEST_FIRST[11])!;
      expect(await repository.page(PAGED, {}, { limit: 5, after: { created_at: oldest.created_at, id: oldest.id } })).toEqual({
        data: '[]',
        fetched: 0,
        last_created_at: null,
        last_id: null,
      });
    });
    // Last in this block: it changes the PAGED rows.
    it('holds its place while rows come and go: page 2 neither repeats nor skips after a create and a delete', async () => {
      const first = await repository.page(PAGED, {}, { limit: 4 });
      await database.prisma().subscriber.create({ data: { id: 'sub_z9', workspace_id: PAGED, email: 'z9@example.com' } });
      await database.prisma().subscriber.delete({ where: { id: NEWEST_FIRST[0] } });
      const second = await repository.page(PAGED, {}, { limit: 4, after: { created_at: new Date(first.last_created_at!), id: first.last_id! } });
      expect(ids(second.data)).toEqual(NEWEST_FIRST.slice(4, 8));
    });
  });

  describe('filters (in the FILTERED workspace)', () => {
    const matching = async (filter: SubscriberFilter) => (await allPages(FILTERED, 100, filter)).flat().sort();

    it('email matches the whole address only', async () => {
      expect(await matching({ email: 'ann@example.com' })).toEqual(['sub_ann']);
      expect(await matching({ email: 'ann@example' })).toEqual([]);
    });

    it('status matches that status only', async () => {
      expect(await matching({ status: 'Bounced' })).toEqual(['sub_bob']);
      expect(await matching({ status: 'Active' })).toEqual(['sub_ann', 'sub_cid', 'sub_dee', 'sub_eve', 'sub_pct', 'sub_und']);
    });

    it('search matches email or name in any case, with %, _ and \\ taken literally', async () => {
      expect(await matching({ search: 'ANN' })).toEqual(['sub_ann']);
      expect(await matching({ search: 'builder' })).toEqual(['sub_bob']);
      expect(await matching({ search: '%' })).toEqual(['sub_pct']);
      expect(await matching({ search: '_' })).toEqual(['sub_und']);
      expect(await matching({ search: '\\' })).toEqual(['sub_und']);
      expect(await matching({ search: 'nobody' })).toEqual([]);
    });

    it('coldBefore keeps subscribers who joined before the cutoff and have not opened since', async () => {
      // ann: never opened; bob: opened before; cid: opened after; dee: joined at the cutoff; eve: joined after.
      expect(await matching({ coldBefore: day('2026-03-01') })).toEqual(['sub_ann', 'sub_bob', 'sub_pct', 'sub_und']);
    });

    it('tags: has_any_of (the default) and has_none_of', async () => {
      expect(await matching({ tagIds: ['tag_red', 'tag_blue'] })).toEqual(['sub_ann', 'sub_bob']);
      expect(await matching({ tagIds: ['tag_blue'], tagOperator: 'has_any_of' })).toEqual(['sub_bob']);
      expect(await matching({ tagIds: ['tag_red'], tagOperator: 'has_none_of' })).toEqual(['sub_bob', 'sub_cid', 'sub_dee', 'sub_eve', 'sub_pct', 'sub_und']);
    });

    it.each<[SequenceOperator, string[]]>([
      ['is_active_in_any_of', ['sub_ann']],
      ['is_not_active_in_any_of', ['sub_bob', 'sub_cid', 'sub_dee', 'sub_eve', 'sub_pct', 'sub_und']],
      ['has_completed_any_of', ['sub_bob']],
      ['has_not_completed_any_of', ['sub_ann', 'sub_cid', 'sub_dee', 'sub_eve', 'sub_pct', 'sub_und']],
      ['has_ever_been_in_any_of', ['sub_ann', 'sub_bob', 'sub_cid']],
      ['has_never_been_in_any_of', ['sub_dee', 'sub_eve', 'sub_pct', 'sub_und']],
    ])('sequences: %s', async (operator, expected) => {
      expect(await matching({ sequenceIds: ['seq_one', 'seq_two'], sequenceOperator: operator })).toEqual(expected);
    });

    it('sequences: no operator means is_active_in_any_of', async () => {
      expect(await matching({ sequenceIds: ['seq_one', 'seq_two'] })).toEqual(['sub_ann']);
    });

    it('combines filters with AND and pages the result like the full list', async () => {
      const filter: SubscriberFilter = { status: 'Active', tagIds: ['tag_red'], tagOperator: 'has_none_of', search: 'example.com' };
      const pages = await allPages(FILTERED, 2, filter);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect(pages.flat().sort()).toEqual(['sub_cid', 'sub_dee', 'sub_eve', 'sub_pct', 'sub_und']);
    });

    it('ignores empty tag and sequence lists', async () => {
      expect(await matching({ tagIds: [], tagOperator: 'has_none_of', sequenceIds: [], sequenceOperator: 'has_ever_been_in_any_of' })).toHaveLength(7);
    });
  });

  it('serves each subscriber as the API document: tags by name, active sequences by enrolment, ISO instants', async () => {
    const [ann] = JSON.parse((await repository.page(FILTERED, { email: 'ann@example.com' }, { limit: 1 })).data) as SubscriberDto[];
    expect(ann).toEqual({
      self: '/v1/subscribers/sub_ann',
      id: 'sub_ann',
      email: 'ann@example.com',
      name: 'Ann',
      status: 'Active',
      country: 'DE',
      subscribed_at: '2026-01-15T00:00:00.000Z',
      last_opened_at: null,
      tags: [
        { id: 'tag_green', name: 'Green' },
        { id: 'tag_red', name: 'Red' },
      ],
      sequence_ids: ['seq_two', 'seq_one'],
      custom_fields: { cf_1: 'x' },
      created_at: '2026-02-01T08:00:00.000Z',
      updated_at: '2026-02-02T08:00:00.000Z',
    });
    expect(await repository.view(FILTERED, 'sub_ann')).toEqual(ann);
  });

  async function seedFiltered(): Promise<void> {
    const prisma = database.prisma();
    const person = (id: string, email: string, name: string, subscribed: string, opened: string | null, status: SubscriberStatus = 'Active') => ({
      id,
      workspace_id: FILTERED,
      email,
      name,
      status,
      subscribed_at: day(subscribed),
      last_opened_at: opened ? day(opened) : null,
    });
    await prisma.subscriber.createMany({
      data: [
        person('sub_bob', 'bob@example.com', 'Bob the Builder', '2026-01-10', '2026-02-01', 'Bounced'),
        person('sub_cid', 'cid@example.com', 'Cid', '2026-01-10', '2026-03-02'),
        person('sub_dee', 'dee@example.com', 'Dee', '2026-03-01', null),
        person('sub_eve', 'eve@example.com', 'Eve', '2026-04-01', null),
        person('sub_pct', 'pct@example.com', '100% sure', '2026-01-10', null),
        person('sub_und', 'und@example.com', 'under_score \\ slash', '2026-01-10', null),
      ],
    });
    await prisma.subscriber.create({
      data: {
        ...person('sub_ann', 'ann@example.com', 'Ann', '2026-01-15', null),
        country: 'DE',
        custom_fields: { cf_1: 'x' },
        created_at: new Date('2026-02-01T08:00:00Z'),
        updated_at: new Date('2026-02-02T08:00:00Z'),
      },
    });
    await prisma.tag.createMany({
      data: ['Red', 'Green', 'Blue'].map((name) => ({ id: `tag_${name.toLowerCase()}`, workspace_id: FILTERED, name, name_key: name.toLowerCase() })),
    });
    await prisma.subscriberTag.createMany({
      data: [
        ['sub_ann', 'tag_red'],
        ['sub_ann', 'tag_green'],
        ['sub_bob', 'tag_blue'],
      ].map(([subscriber_id, tag_id]) => ({ workspace_id: FILTERED, subscriber_id, tag_id })),
    });
    await prisma.sequence.createMany({ data: ['seq_one', 'seq_two', 'seq_three'].map((id) => ({ id, workspace_id: FILTERED, name: id })) });
    const enrolment = (subscriber_id: string, sequence_id: string, state: 'active' | 'completed' | 'removed', enrolled: string) => ({
      workspace_id: FILTERED,
      subscriber_id,
      sequence_id,
      state,
      enrolled_at: day(enrolled),
    });
    await prisma.sequenceEnrollment.createMany({
      data: [
        enrolment('sub_ann', 'seq_one', 'active', '2026-02-10'),
        enrolment('sub_ann', 'seq_two', 'active', '2026-02-05'),
        enrolment('sub_bob', 'seq_one', 'completed', '2026-02-01'),
        enrolment('sub_cid', 'seq_two', 'removed', '2026-02-01'),
        enrolment('sub_dee', 'seq_three', 'active', '2026-02-01'),
      ],
    });
  }
});
