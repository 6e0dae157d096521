import { CustomFieldType, EmailPrisma, EmailSql, EnrollmentState, Prisma, SubscriberStatus } from '@email/data-access';
import type { AppConfig } from '@shared/config';
import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import type { AudienceCondition, AudienceDefinition } from './audience-definition';
import { AudienceRepository } from './audience.repository';

// Every expected set below is worked out here, in TypeScript over the seeded records, never by the compiler.

const A = trustedWorkspaceId('wsp_audience_a');
const B = trustedWorkspaceId('wsp_audience_b');
const TODAY = '2026-06-15';

interface Seeded {
  id: string;
  status: SubscriberStatus;
  country: string | null;
  tags: string[];
  enrolments: Record<string, EnrollmentState>;
  fields: Record<string, unknown>;
  forms: string[];
  /** Latest human open, machine open, unsubscribe and magic-link click, as ISO times (null: none). */
  opened: string | null;
  machineOpened: string | null;
  unsubscribed: string | null;
  magicLink: string | null;
}

/** A small deterministic generator, so the data is varied but the same on every run. */
function random(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
}

const FIELD_TYPES = { text: 'Text', number: 'Number', date: 'Date', single: 'Single_Select', multi: 'Multi_Select', check: 'Checkbox' } as const;
type FieldName = keyof typeof FIELD_TYPES;
const fieldId = (workspace: WorkspaceId, name: FieldName) => `cf_${workspace}_${name}`;
const tagId = (workspace: WorkspaceId, n: number) => `tag_${workspace}_${n}`;
const sequenceId = (workspace: WorkspaceId, n: number) => `seq_${workspace}_${n}`;

const STATUSES = Object.values(SubscriberStatus);
const COUNTRIES = ['DE', 'AT', 'CH', 'FR', 'GB', 'NO', 'US', 'MX', 'BR', 'JP', 'AU', 'SE', null];
const MISSING = undefined;
const VALUES: Record<FieldName, readonly unknown[]> = {
  text: ['Alpha', 'alphabet soup', 'Beta', 'GAMMA', MISSING],
  number: [-2, 0, 3, 3.5, 10, MISSING],
  date: ['2026-06-15', '2026-06-10', '2026-05-16', '2026-05-15', '2025-01-01', '2026-07-01', MISSING],
  single: ['Red', 'Green', 'Blue', MISSING],
  multi: [['Red'], ['Green', 'Blue'], ['Red', 'Blue'], [], MISSING],
  check: [true, false, MISSING],
};
const ENROLMENT_STATES: Array<EnrollmentState | undefined> = ['active', 'completed', 'removed', undefined];
// Around TODAY (2026-06-15): the edges of a 30-day window (from 2026-05-16T00:00Z) on both sides, and far away.
const MOMENTS = ['2026-06-15T08:00:00.000Z', '2026-05-16T00:00:00.000Z', '2026-05-15T23:59:59.999Z', '2026-01-02T10:00:00.000Z', null];
const formId = (workspace: WorkspaceId, n: number) => `frm_${workspace}_${n}`;

function seedRecords(workspace: WorkspaceId, count: number, seed: number): Seeded[] {
  const pick = random(seed);
  return Array.from({ length: count }, (_, i) => {
    const fields: Record<string, unknown> = {};
    for (const name of Object.keys(FIELD_TYPES) as FieldName[]) {
      const value = pick(VALUES[name]);
      if (value !== MISSING) fields[fieldId(workspace, name)] = value;
    }
    const enrolments: Record<string, EnrollmentState> = {};
    for (const n of [1, 2]) {
      const state = pick(ENROLMENT_STATES);
      if (state) enrolments[sequenceId(workspace, n)] = state;
    }
    return {
      id: `sub_${workspace}_${String(i).padStart(3, '0')}`,
      status: pick(STATUSES),
      country: pick(COUNTRIES),
      tags: [1, 2, 3].filter(() => pick([true, false])).map((n) => tagId(workspace, n)),
      enrolments,
      fields,
      forms: [1, 2].filter(() => pick([true, false, false])).map((n) => formId(workspace, n)),
      opened: pick(MOMENTS),
      machineOpened: pick(MOMENTS),
      unsubscribed: pick(MOMENTS),
      magicLink: pick(MOMENTS),
    };
  });
}

async function store(prisma: EmailPrisma, workspace: WorkspaceId, records: Seeded[]) {
  await prisma.workspace.create({ data: { id: workspace, name: workspace } });
  await prisma.tag.createMany({ data: [1, 2, 3].map((n) => ({ id: tagId(workspace, n), workspace_id: workspace, name: `T${n}`, name_key: `t${n}` })) });
  await prisma.sequence.createMany({ data: [1, 2].map((n) => ({ id: sequenceId(workspace, n), workspace_id: workspace, name: `S${n}` })) });
  await prisma.customField.createMany({
    data: (Object.entries(FIELD_TYPES) as Array<[FieldName, CustomFieldType]>).map(([name, type]) => ({
      id: fieldId(workspace, name),
      workspace_id: workspace,
      label: name,
      label_key: name,
      type,
      options: ['Red', 'Green', 'Blue'],
    })),
  });
  await prisma.subscriber.createMany({
    data: records.map((r) => ({
      id: r.id,
      workspace_id: workspace,
      email: `${r.id}@example.com`,
      status: r.status,
      country: r.country,
      custom_fields: r.fields as Prisma.InputJsonObject,
    })),
  });
  await prisma.subscriberTag.createMany({ data: records.flatMap((r) => r.tags.map((tag_id) => ({ workspace_id: workspace, subscriber_id: r.id, tag_id }))) });
  await prisma.sequenceEnrollment.createMany({
    data: records.flatMap((r) =>
      Object.entries(r.enrolments).map(([sequence_id, state]) => ({ workspace_id: workspace, subscriber_id: r.id, sequence_id, state })),
    ),
  });
  await prisma.formSubscription.createMany({
    data: records.flatMap((r) => r.forms.map((form_id) => ({ workspace_id: workspace, subscriber_id: r.id, form_id }))),
  });
  const at = (iso: string | null) => (iso === null ? null : new Date(iso));
  await prisma.subscriberEngagement.createMany({
    data: records
      .filter((r) => r.opened || r.machineOpened || r.unsubscribed || r.magicLink)
      .map((r) => ({
        workspace_id: workspace,
        subscriber_id: r.id,
        last_opened_at: at(r.opened),
        last_machine_opened_at: at(r.machineOpened),
        last_unsubscribed_at: at(r.unsubscribed),
        last_magic_link_clicked_at: at(r.magicLink),
        windows_as_of: new Date(`${TODAY}T00:00:00Z`),
      })),
  });
}

type Case = [string, Omit<AudienceCondition, 'id'>, (record: Seeded) => boolean];

const field = (record: Seeded, name: FieldName) => record.fields[fieldId(A, name)];
const custom = (name: FieldName, operator: AudienceCondition['operator'], value?: AudienceCondition['value']): Omit<AudienceCondition, 'id'> => ({
  field: 'custom_field',
  operator,
  customFieldId: fieldId(A, name),
  ...(value === undefined ? {} : { value }),
});
const not =
  (predicate: (record: Seeded) => boolean) =>
  (record: Seeded): boolean =>
    !predicate(record);
const blank = (value: unknown) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : undefined);
const asNumber = (value: unknown) => (typeof value === 'number' ? value : undefined);
const asDay = (value: unknown) => (typeof value === 'string' ? value : undefined);
const inState = (sequence: string, states: EnrollmentState[]) => (record: Seeded) => states.includes(record.enrolments[sequence]);
const ALL_STATES: EnrollmentState[] = ['active', 'completed', 'removed'];
const SEQ1 = sequenceId(A, 1);
const countryIn = (codes: string[]) => (record: Seeded) => record.country !== null && codes.includes(record.country);
const hasTag = (ids: string[]) => (record: Seeded) => record.tags.some((tag) => ids.includes(tag));

// Region membership of the seeded countries, written out by hand.
const REGION_MEMBERS: Record<string, string[]> = {
  EU: ['DE', 'AT', 'FR', 'SE'],
  EEA: ['DE', 'AT', 'FR', 'SE', 'NO'],
  Europe: ['DE', 'AT', 'CH', 'FR', 'GB', 'NO', 'SE'],
  'North America': ['US', 'MX'],
  'Latin America': ['MX', 'BR'],
  APAC: ['JP', 'AU'],
  DACH: ['DE', 'AT', 'CH'],
  Nordics: ['NO', 'SE'],
};

const CASES: Case[] = [
  ['status is', { field: 'subscriber_status', operator: 'is', value: ['Active', 'Bounced'] }, (r) => ['Active', 'Bounced'].includes(r.status)],
  ['status is_not', { field: 'subscriber_status', operator: 'is_not', value: 'Active' }, (r) => r.status !== 'Active'],
  ['country is', { field: 'country', operator: 'is', value: ['de', 'US'] }, countryIn(['DE', 'US'])],
  ['country is_not (no country included)', { field: 'country', operator: 'is_not', value: ['DE', 'US'] }, not(countryIn(['DE', 'US']))],
  ['country is_empty', { field: 'country', operator: 'is_empty' }, (r) => r.country === null],
  ['country is_not_empty', { field: 'country', operator: 'is_not_empty' }, (r) => r.country !== null],
  ...Object.entries(REGION_MEMBERS).map(([region, codes]): Case => [
    `in_region ${region}`,
    { field: 'country', operator: 'in_region', value: region },
    countryIn(codes),
  ]),
  ['not_in_region Europe', { field: 'country', operator: 'not_in_region', value: ['Europe'] }, not(countryIn(REGION_MEMBERS.Europe))],
  [
    'in_region of two regions',
    { field: 'country', operator: 'in_region', value: ['APAC', 'dach'] },
    countryIn([...REGION_MEMBERS.APAC, ...REGION_MEMBERS.DACH]),
  ],
  ['tag has_any_of', { field: 'tag', operator: 'has_any_of', value: [tagId(A, 1), tagId(A, 3)] }, hasTag([tagId(A, 1), tagId(A, 3)])],
  ['tag has_none_of', { field: 'tag', operator: 'has_none_of', value: tagId(A, 2) }, not(hasTag([tagId(A, 2)]))],
  ['sequence is_active_in_any_of', { field: 'sequence', operator: 'is_active_in_any_of', value: [SEQ1] }, inState(SEQ1, ['active'])],
  ['sequence is_not_active_in_any_of', { field: 'sequence', operator: 'is_not_active_in_any_of', value: [SEQ1] }, not(inState(SEQ1, ['active']))],
  ['sequence has_completed_any_of', { field: 'sequence', operator: 'has_completed_any_of', value: [SEQ1] }, inState(SEQ1, ['completed'])],
  ['sequence has_not_completed_any_of', { field: 'sequence', operator: 'has_not_completed_any_of', value: [SEQ1] }, not(inState(SEQ1, ['completed']))],
  ['sequence has_ever_been_in_any_of', { field: 'sequence', operator: 'has_ever_been_in_any_of', value: [SEQ1] }, inState(SEQ1, ALL_STATES)],
  ['sequence has_never_been_in_any_of', { field: 'sequence', operator: 'has_never_been_in_any_of', value: [SEQ1] }, not(inState(SEQ1, ALL_STATES))],
  [
    'sequence active in either of two',
    { field: 'sequence', operator: 'is_active_in_any_of', value: [SEQ1, sequenceId(A, 2)] },
    (r) => inState(SEQ1, ['active'])(r) || inState(sequenceId(A, 2), ['active'])(r),
  ],
  ['text is (ignoring case)', custom('text', 'is', 'alpha'), (r) => lower(field(r, 'text')) === 'alpha'],
  ['text is_not', custom('text', 'is_not', 'ALPHA'), (r) => lower(field(r, 'text')) !== 'alpha'],
  ['text contains', custom('text', 'contains', 'ALPH'), (r) => lower(field(r, 'text'))?.includes('alph') === true],
  ['text does_not_contain', custom('text', 'does_not_contain', 'a'), (r) => lower(field(r, 'text'))?.includes('a') !== true],
  ['text contains a LIKE wildcard literally', custom('text', 'contains', '%'), () => false],
  ['text is_empty', custom('text', 'is_empty'), (r) => blank(field(r, 'text'))],
  ['text is_not_empty', custom('text', 'is_not_empty'), (r) => !blank(field(r, 'text'))],
  ['number is', custom('number', 'is', 3), (r) => asNumber(field(r, 'number')) === 3],
  ['number is_not', custom('number', 'is_not', 3), (r) => asNumber(field(r, 'number')) !== 3],
  ['number greater_than', custom('number', 'greater_than', 3), (r) => (asNumber(field(r, 'number')) ?? -Infinity) > 3],
  ['number less_than', custom('number', 'less_than', 0.5), (r) => (asNumber(field(r, 'number')) ?? Infinity) < 0.5],
  ['number is_empty', custom('number', 'is_empty'), (r) => blank(field(r, 'number'))],
  ['date on', custom('date', 'on', '2026-05-15'), (r) => field(r, 'date') === '2026-05-15'],
  ['date before', custom('date', 'before', '2026-05-16'), (r) => (asDay(field(r, 'date')) ?? '9999') < '2026-05-16'],
  ['date after', custom('date', 'after', '2026-06-10'), (r) => (asDay(field(r, 'date')) ?? '0000') > '2026-06-10'],
  // 30 days back from 2026-06-15 is 2026-05-16, included; the future date is not "in the last days".
  ['date in_last_days', custom('date', 'in_last_days', 30), (r) => ['2026-06-15', '2026-06-10', '2026-05-16'].includes(field(r, 'date') as string)],
  ['date is_not_empty', custom('date', 'is_not_empty'), (r) => !blank(field(r, 'date'))],
  ['single select is', custom('single', 'is', 'Red'), (r) => field(r, 'single') === 'Red'],
  ['single select has_any_of', custom('single', 'has_any_of', ['Red', 'Blue']), (r) => ['Red', 'Blue'].includes(field(r, 'single') as string)],
  ['single select has_none_of', custom('single', 'has_none_of', ['Red', 'Blue']), (r) => !['Red', 'Blue'].includes(field(r, 'single') as string)],
  ['single select is_not', custom('single', 'is_not', 'Green'), (r) => field(r, 'single') !== 'Green'],
  ['single select is_empty', custom('single', 'is_empty'), (r) => blank(field(r, 'single'))],
  ['multi select has_any_of', custom('multi', 'has_any_of', ['Blue']), (r) => ((field(r, 'multi') as string[] | undefined) ?? []).includes('Blue')],
  [
    'multi select has_none_of',
    custom('multi', 'has_none_of', ['Red', 'Green']),
    (r) => !((field(r, 'multi') as string[] | undefined) ?? []).some((o) => ['Red', 'Green'].includes(o)),
  ],
  ['multi select is_empty (missing or no option)', custom('multi', 'is_empty'), (r) => blank(field(r, 'multi'))],
  ['multi select is_not_empty', custom('multi', 'is_not_empty'), (r) => !blank(field(r, 'multi'))],
  ['checkbox is true', custom('check', 'is', true), (r) => field(r, 'check') === true],
  ['checkbox is false (never answered included)', custom('check', 'is', false), (r) => field(r, 'check') !== true],
  ['form has_any_of', { field: 'form', operator: 'has_any_of', value: [formId(A, 1)] }, (r) => r.forms.includes(formId(A, 1))],
  ['form is', { field: 'form', operator: 'is', value: formId(A, 2) }, (r) => r.forms.includes(formId(A, 2))],
  ['form has_none_of', { field: 'form', operator: 'has_none_of', value: [formId(A, 1), formId(A, 2)] }, (r) => r.forms.length === 0],
  ['form is_not', { field: 'form', operator: 'is_not', value: [formId(A, 2)] }, (r) => !r.forms.includes(formId(A, 2))],
  ...ENGAGEMENT_CASES('email_opened', (r) => r.opened),
  ...ENGAGEMENT_CASES('email_unsubscribed', (r) => r.unsubscribed),
  ...ENGAGEMENT_CASES('magic_link_clicked', (r) => r.magicLink),
];

/** The four engagement operators over one latest-time of the seeded records; machine opens never count as opens. */
function ENGAGEMENT_CASES(name: 'email_opened' | 'email_unsubscribed' | 'magic_link_clicked', latest: (r: Seeded) => string | null): Case[] {
  return [
    [`${name} is true`, { field: name, operator: 'is', value: true }, (r) => latest(r) !== null],
    [`${name} is false`, { field: name, operator: 'is', value: false }, (r) => latest(r) === null],
    [`${name} in_last_days 30 (from 2026-05-16T00:00Z)`, { field: name, operator: 'in_last_days', value: 30 }, (r) => (latest(r) ?? '') >= '2026-05-16'],
    [`${name} after 2026-05-15`, { field: name, operator: 'after', value: '2026-05-15' }, (r) => (latest(r) ?? '') >= '2026-05-16'],
    [`${name} before 2026-05-16`, { field: name, operator: 'before', value: '2026-05-16' }, (r) => latest(r) !== null && latest(r)! < '2026-05-16'],
  ];
}

const definitionOf = (condition: Omit<AudienceCondition, 'id'>): AudienceDefinition => ({
  match: 'all',
  groups: [{ id: 'g', match: 'all', conditions: [{ id: 'c', ...condition }] }],
});

describe('AudienceRepository (real PostgreSQL)', () => {
  let db: TestDatabase;
  let prisma: EmailPrisma;
  let sql: EmailSql;
  let repository: AudienceRepository;
  const countOf = async (workspace: WorkspaceId, definition: AudienceDefinition) => repository.count(await repository.compile(workspace, definition));
  const recordsA = seedRecords(A, 90, 7);
  // B's records carry A's custom field ids as keys too, so only the workspace condition keeps them out.
  const recordsB = seedRecords(B, 40, 11).map((r) => ({ ...r, fields: Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k.replace(B, A), v])) }));

  beforeAll(async () => {
    db = await createTestDatabase('email');
    prisma = new EmailPrisma({ emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig);
    await store(prisma, A, recordsA);
    await store(prisma, B, recordsB);
    sql = new EmailSql({ emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig);
    repository = new AudienceRepository(prisma, sql, { now: () => new Date(`${TODAY}T23:59:00Z`) });
  });
  afterAll(async () => {
    await sql?.onModuleDestroy();
    await prisma?.$disconnect();
    await db?.drop();
  });

  /** Every matching id, read page by page as a send would. */
  async function pageThrough(workspace: WorkspaceId, definition: AudienceDefinition, limit = 7): Promise<string[]> {
    const audience = await repository.compile(workspace, definition);
    const ids: string[] = [];
    for (let page = await repository.page(audience, null, limit); page.length; page = await repository.page(audience, ids.at(-1)!, limit)) {
      ids.push(...page);
    }
    return ids;
  }

  async function expectSelection(definition: AudienceDefinition, matches: (record: Seeded) => boolean) {
    const expected = recordsA.filter(matches);
    const ids = await pageThrough(A, definition);
    expect(ids).toEqual(expected.map((r) => r.id).sort());
    expect(await countOf(A, definition)).toEqual({ total: ids.length, confirmed: expected.filter((r) => r.status === 'Active').length });
  }

  it('seeds data where every case below selects some subscribers and leaves out others', () => {
    for (const [name, , matches] of CASES.filter(([name]) => !name.includes('wildcard'))) {
      const selected = recordsA.filter(matches).length;
      expect({ name, someButNotAll: selected > 0 && selected < recordsA.length }).toEqual({ name, someButNotAll: true });
    }
  });

  it.each(CASES)('%s: pages exactly the expected ids and counts the same', async (_, condition, matches) => {
    await expectSelection(definitionOf(condition), matches);
  });

  it('combines groups with all/any and conditions inside each group with all/any', async () => {
    const definition: AudienceDefinition = {
      match: 'any',
      groups: [
        {
          id: 'tagged-europeans',
          match: 'all',
          conditions: [
            { id: 't', field: 'tag', operator: 'has_any_of', value: [tagId(A, 1)] },
            { id: 'r', field: 'country', operator: 'in_region', value: 'Europe' },
          ],
        },
        {
          id: 'bounced-or-big',
          match: 'any',
          conditions: [
            { id: 's', field: 'subscriber_status', operator: 'is', value: ['Bounced'] },
            { id: 'n', ...custom('number', 'greater_than', 5) },
          ],
        },
      ],
    };
    await expectSelection(
      definition,
      (r) => (hasTag([tagId(A, 1)])(r) && countryIn(REGION_MEMBERS.Europe)(r)) || r.status === 'Bounced' || (asNumber(field(r, 'number')) ?? 0) > 5,
    );
    await expectSelection(
      { ...definition, match: 'all' },
      (r) => hasTag([tagId(A, 1)])(r) && countryIn(REGION_MEMBERS.Europe)(r) && (r.status === 'Bounced' || (asNumber(field(r, 'number')) ?? 0) > 5),
    );
  });

  it('selects the whole workspace, and only it, for a definition without groups', async () => {
    await expectSelection({ match: 'any', groups: [] }, () => true);
  });

  it('pages by any limit to the same ids the count counts', async () => {
    const definition = definitionOf({ field: 'subscriber_status', operator: 'is_not', value: 'Blocked' });
    const { total } = await countOf(A, definition);
    for (const limit of [1, 4, 1000]) expect(await pageThrough(A, definition, limit)).toHaveLength(total);
  });

  describe('nested segments', () => {
    const segmentOf = (...ids: string[]): Omit<AudienceCondition, 'id'> => ({ field: 'segment', operator: 'has_any_of', value: ids });
    const europeans = definitionOf({ field: 'country', operator: 'in_region', value: 'Europe' });
    const taggedEuropeans: AudienceDefinition = {
      match: 'all',
      groups: [
        {
          id: 'g',
          match: 'all',
          conditions: [
            { id: 'in-eu', ...segmentOf('seg_europe') },
            { id: 't', field: 'tag', operator: 'has_any_of', value: [tagId(A, 1)] },
          ],
        },
      ],
    };
    const saveSegment = (workspace: WorkspaceId, id: string, definition: AudienceDefinition) =>
      prisma.segment.create({ data: { id, workspace_id: workspace, name: id, name_key: id, definition: definition as unknown as Prisma.InputJsonObject } });

    beforeAll(async () => {
      await saveSegment(A, 'seg_europe', europeans);
      await saveSegment(A, 'seg_tagged_europeans', taggedEuropeans);
      // A chain seg_chain_1 → … → seg_chain_6, each referencing the next; the last one is a plain rule.
      for (let level = 1; level <= 6; level++) {
        await saveSegment(A, `seg_chain_${level}`, level === 6 ? europeans : definitionOf(segmentOf(`seg_chain_${level + 1}`)));
      }
      // Stored directly, as a race between two updates could leave them: two segments referencing each other.
      await saveSegment(A, 'seg_loop_1', definitionOf(segmentOf('seg_loop_2')));
      await saveSegment(A, 'seg_loop_2', definitionOf(segmentOf('seg_loop_1')));
      await saveSegment(B, 'seg_b_everyone', { match: 'all', groups: [] });
    });

    it('selects through a segment exactly as through its own rules, and their complement with has_none_of', async () => {
      await expectSelection(definitionOf(segmentOf('seg_europe')), countryIn(REGION_MEMBERS.Europe));
      await expectSelection(definitionOf({ field: 'segment', operator: 'is_not', value: 'seg_europe' }), not(countryIn(REGION_MEMBERS.Europe)));
      await expectSelection(definitionOf(segmentOf('seg_tagged_europeans')), (r) => countryIn(REGION_MEMBERS.Europe)(r) && hasTag([tagId(A, 1)])(r));
    });

    it('follows five levels of nesting and refuses a sixth, naming the condition', async () => {
      await expectSelection(definitionOf(segmentOf('seg_chain_2')), countryIn(REGION_MEMBERS.Europe));
      await expect(countOf(A, definitionOf(segmentOf('seg_chain_1')))).rejects.toMatchObject({
        code: 'segment_nesting_too_deep',
        extra: { condition_id: 'c' },
      });
    });

    it('refuses a reference that leads back to itself, stored or through the segment being edited', async () => {
      await expect(countOf(A, definitionOf(segmentOf('seg_loop_1')))).rejects.toMatchObject({ code: 'segment_reference_cycle', extra: { condition_id: 'c' } });
      const editingEurope = repository.compile(A, definitionOf(segmentOf('seg_tagged_europeans')), 'seg_europe');
      await expect(editingEurope).rejects.toMatchObject({ code: 'segment_reference_cycle', extra: { condition_id: 'c' } });
      await expect(repository.compile(A, definitionOf(segmentOf('seg_europe')), 'seg_europe')).rejects.toMatchObject({ code: 'segment_reference_cycle' });
    });

    it("refuses another workspace's segment id rather than reading its rules", async () => {
      await expect(countOf(A, definitionOf(segmentOf('seg_b_everyone')))).rejects.toMatchObject({
        code: 'invalid_audience_condition',
        extra: { condition_id: 'c' },
      });
    });
  });

  describe('tenancy', () => {
    it('never reaches the other workspace through its tag or sequence ids', async () => {
      for (const condition of [
        { field: 'tag', operator: 'has_any_of', value: [tagId(B, 1), tagId(B, 2), tagId(B, 3)] },
        { field: 'sequence', operator: 'has_ever_been_in_any_of', value: [sequenceId(B, 1), sequenceId(B, 2)] },
      ] satisfies Array<Omit<AudienceCondition, 'id'>>) {
        expect(await pageThrough(A, definitionOf(condition))).toEqual([]);
        expect(await countOf(A, definitionOf(condition))).toEqual({ total: 0, confirmed: 0 });
      }
    });

    it('answers a negative condition on foreign ids with its own whole workspace only', async () => {
      const ids = await pageThrough(A, definitionOf({ field: 'tag', operator: 'has_none_of', value: [tagId(B, 1)] }));
      expect(ids).toEqual(recordsA.map((r) => r.id).sort());
    });

    it("refuses the other workspace's custom field id as a condition error naming the condition", async () => {
      const definition = definitionOf({ field: 'custom_field', operator: 'is_not_empty', customFieldId: fieldId(B, 'text') });
      await expect(countOf(A, definition)).rejects.toMatchObject({ code: 'invalid_audience_condition', extra: { condition_id: 'c' } });
    });

    it("never selects B's rows, though they carry A's custom field ids as keys", async () => {
      const definition = definitionOf(custom('text', 'is_not_empty'));
      const fromA = await pageThrough(A, definition);
      expect(fromA.every((id) => id.startsWith(`sub_${A}_`))).toBe(true);
      expect(fromA).toHaveLength(recordsA.filter((r) => !blank(field(r, 'text'))).length);
    });

    it("does not count rows linked to the other workspace's tags by a foreign membership row", async () => {
      await prisma.subscriberTag.create({ data: { workspace_id: B, subscriber_id: recordsB[0].id, tag_id: tagId(A, 1) } });
      await expectSelection(definitionOf({ field: 'tag', operator: 'has_any_of', value: [tagId(A, 1)] }), hasTag([tagId(A, 1)]));
    });
  });
});
