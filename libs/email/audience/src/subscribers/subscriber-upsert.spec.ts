import { trustedWorkspaceId } from '@shared/core';
import { ConsentEvidenceDto } from '../common/consent.dto';
import { FixedClock, InMemoryAudience, inMemorySubscriberService } from '../testing/in-memory-audience.fixture';
import type { SubscriberStatusName, SubscriberUpsertRequestDto } from './subscriber.dto';
import { SubscriberService } from './subscriber.service';

const WORKSPACE = trustedWorkspaceId('wsp_upsert');
const OTHER = trustedWorkspaceId('wsp_other');
const NOW = new Date('2026-06-01T12:00:00.000Z');
const SEEDED_AT = '2026-01-01T00:00:00.000Z';

const evidence: ConsentEvidenceDto = { lawful_basis: 'consent', collected_at: '2026-06-01T11:59:00+00:00', evidence_reference: 'signup-form-7' };

/** What a refused upsert was refused with, as the error envelope would show it. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the upsert to be refused');
    },
    (error: { status?: number; code?: string; details?: { field?: string } }) => ({ status: error.status, code: error.code, field: error.details?.field }),
  );

describe('SubscriberService.upsert (in-memory repositories)', () => {
  let audience: InMemoryAudience;
  let service: SubscriberService;

  beforeEach(() => {
    audience = new InMemoryAudience();
    service = inMemorySubscriberService(audience, new FixedClock(NOW));
    audience.addTag(WORKSPACE, 'tag_red', 'Red');
    audience.addTag(WORKSPACE, 'tag_blue', 'Blue');
    audience.addTag(OTHER, 'tag_foreign', 'Foreign');
    audience.addSequence(WORKSPACE, 'seq_welcome');
    audience.addSequence(OTHER, 'seq_foreign');
    audience.addCustomField(WORKSPACE, { id: 'cf_plan', type: 'Single_Select', options: ['free', 'pro'] });
    audience.addCustomField(WORKSPACE, { id: 'cf_age', type: 'Number', options: [] });
  });

  const upsert = (input: Partial<SubscriberUpsertRequestDto>) => service.upsert(WORKSPACE, { email: 'ann@example.com', ...input });
  const events = () => audience.state.events.map(({ type, payload }) => ({ type, payload }));
  const counters = () => Object.fromEntries([...audience.state.tags].map(([id, tag]) => [id, tag.subscriber_count]));
  const existing = (status: SubscriberStatusName = 'Active', extra: object = {}) =>
    audience.addSubscriber(WORKSPACE, { id: 'sub_ann', email: 'ann@example.com', name: 'Ann', status, ...extra }, ['tag_red'], ['seq_welcome']);

  describe('a new email', () => {
    it('creates an Active subscriber with defaults, the address in its stored form, and one created event', async () => {
      const { created, subscriber } = await upsert({ email: '  Ann@EXAMPLE.com ' });
      expect(created).toBe(true);
      expect(subscriber).toMatchObject({
        id: 'sub_1',
        email: 'ann@example.com',
        name: '',
        status: 'Active',
        country: null,
        subscribed_at: NOW.toISOString(),
        tags: [],
        sequence_ids: [],
        custom_fields: {},
      });
      expect(events()).toEqual([{ type: 'subscriber.created', payload: { subscriber: { id: 'sub_1' }, status: 'Active' } }]);
      expect(audience.state.consents).toEqual([]);
    });

    it('takes the profile, status, tags (existing and new, once each), sequences and custom fields given', async () => {
      const { subscriber } = await upsert({
        name: '  Ann Lee ',
        country: 'Germany',
        subscribed_on: '2026-02-03',
        status: 'Unconfirmed',
        existing_tag_ids: ['tag_red'],
        new_tags: ['red', 'VIP', 'vip'],
        sequence_ids: ['seq_welcome'],
        custom_fields: { cf_plan: 'pro', cf_age: '42' },
      });
      const vip = [...audience.state.tags].find(([, tag]) => tag.name === 'VIP')![0];
      expect(subscriber).toMatchObject({
        name: 'Ann Lee',
        country: 'DE',
        subscribed_at: '2026-02-03T00:00:00.000Z',
        status: 'Unconfirmed',
        tags: [
          { id: 'tag_red', name: 'Red' },
          { id: vip, name: 'VIP' },
        ],
        sequence_ids: ['seq_welcome'],
        custom_fields: { cf_plan: 'pro', cf_age: 42 },
      });
      expect(counters()).toMatchObject({ tag_red: 1, tag_blue: 0, [vip]: 1 });
      expect(events()).toEqual([{ type: 'subscriber.created', payload: { subscriber: { id: subscriber.id }, status: 'Unconfirmed' } }]);
    });

    it('needs no consent evidence to start Active, and stores evidence that is sent', async () => {
      await upsert({ status: 'Active', consent_evidence: { ...evidence, source_url: 'https://example.com/signup' } });
      expect(audience.state.consents).toEqual([
        {
          id: expect.stringMatching(/^cns_/),
          workspace_id: WORKSPACE,
          subscriber_id: expect.stringMatching(/^sub_/),
          lawful_basis: 'consent',
          consent_text_version: null,
          collected_at: new Date('2026-06-01T11:59:00Z'),
          source_url: 'https://example.com/signup',
          evidence_reference: 'signup-form-7',
          technical_evidence_hash: null,
          recorded_at: NOW,
        },
      ]);
    });

    it('moves the tag counters last, just before the document is read (the repository sends both in one statement)', async () => {
      await upsert({ existing_tag_ids: ['tag_red'] });
      expect(audience.calls.slice(-2)).toEqual(['bumpTagCounts', 'view']);
    });
  });

  describe('an existing email', () => {
    it('answers the stored subscriber unchanged, with no event, when nothing differs', async () => {
      existing('Active', { custom_fields: { cf_plan: 'pro' } });
      const { created, subscriber } = await upsert({
        email: 'ANN@example.com',
        name: 'Ann',
        status: 'Active',
        existing_tag_ids: ['tag_red'],
        sequence_ids: ['seq_welcome'],
        custom_fields: { cf_plan: 'pro' },
      });
      expect(created).toBe(false);
      expect(subscriber).toMatchObject({ id: 'sub_ann', name: 'Ann', updated_at: SEEDED_AT });
      expect(events()).toEqual([]);
      expect(counters()).toMatchObject({ tag_red: 1 });
      expect(audience.calls).not.toContain('update');
      expect(audience.calls).not.toContain('touch');
    });

    it('leaves saved values alone for blank, null and all-space fields', async () => {
      existing('Active', { country: 'FR' });
      const { subscriber } = await upsert({ name: '   ', country: null, subscribed_on: '', custom_fields: { cf_plan: '' }, status: null });
      expect(subscriber).toMatchObject({ name: 'Ann', country: 'FR', status: 'Active', subscribed_at: SEEDED_AT, custom_fields: {} });
      expect(events()).toEqual([]);
    });

    it('writes only the fields that differ, merges custom fields, and names them in one updated event', async () => {
      existing('Active', { country: 'DE', custom_fields: { cf_plan: 'free', cf_age: 30 } });
      const { subscriber } = await upsert({ name: 'Ann B', country: 'deu', custom_fields: { cf_plan: 'pro' }, subscribed_on: '2026-01-01' });
      expect(subscriber).toMatchObject({ name: 'Ann B', country: 'DE', custom_fields: { cf_plan: 'pro', cf_age: 30 }, updated_at: NOW.toISOString() });
      expect(events()).toEqual([{ type: 'subscriber.updated', payload: { subscriber: { id: 'sub_ann' }, changed_fields: ['name', 'custom_fields'] } }]);
    });

    it('adds only new memberships: counters move for those, and the update names tags and sequences', async () => {
      existing();
      audience.addSequence(WORKSPACE, 'seq_later');
      const { subscriber } = await upsert({ existing_tag_ids: ['tag_red', 'tag_blue'], sequence_ids: ['seq_welcome', 'seq_later'] });
      expect(subscriber).toMatchObject({
        tags: [{ id: 'tag_blue' }, { id: 'tag_red' }],
        sequence_ids: ['seq_welcome', 'seq_later'],
        updated_at: NOW.toISOString(),
      });
      expect(counters()).toMatchObject({ tag_red: 1, tag_blue: 1 });
      expect(events()).toEqual([{ type: 'subscriber.updated', payload: { subscriber: { id: 'sub_ann' }, changed_fields: ['tags', 'sequence_ids'] } }]);
      expect(audience.calls).toContain('touch');
    });

    it('refuses with 409 subscriber_exists under create_only, leaving new tags uncreated', async () => {
      existing();
      expect(await refusal(upsert({ create_only: true, name: 'Changed', new_tags: ['Fresh'] }))).toEqual({
        status: 409,
        code: 'subscriber_exists',
        field: 'email',
      });
      expect([...audience.state.tags.values()].map((tag) => tag.name)).not.toContain('Fresh');
      expect(audience.state.subscribers.get('sub_ann')!.name).toBe('Ann');
    });
  });

  describe('status transitions', () => {
    it('records a status change in its own event, apart from the other fields', async () => {
      existing('Active');
      await upsert({ status: 'Unsubscribed', name: 'Ann C' });
      expect(events()).toEqual([
        { type: 'subscriber.updated', payload: { subscriber: { id: 'sub_ann' }, changed_fields: ['name'] } },
        { type: 'subscriber.status_changed', payload: { subscriber: { id: 'sub_ann' }, previous_status: 'Active', status: 'Unsubscribed' } },
      ]);
    });

    it.each(['Unsubscribed', 'Unconfirmed', 'Bounced', 'Complained', 'Blocked'] as const)(
      'refuses to make a %s subscriber Active without consent evidence, and changes nothing',
      async (previous) => {
        existing(previous);
        expect(await refusal(upsert({ status: 'Active', name: 'New name', new_tags: ['Fresh'] }))).toEqual({
          status: 400,
          code: 'consent_evidence_required',
          field: 'consent_evidence',
        });
        expect(audience.state.subscribers.get('sub_ann')).toMatchObject({ status: previous, name: 'Ann' });
        expect(audience.state.tags.size).toBe(3);
        expect(events()).toEqual([]);
      },
    );

    it('makes a non-Active subscriber Active with consent evidence, recording both', async () => {
      existing('Unsubscribed');
      const { subscriber } = await upsert({ status: 'Active', consent_evidence: evidence });
      expect(subscriber.status).toBe('Active');
      expect(audience.state.consents).toEqual([expect.objectContaining({ subscriber_id: 'sub_ann', evidence_reference: 'signup-form-7' })]);
      expect(events()).toEqual([
        { type: 'subscriber.status_changed', payload: { subscriber: { id: 'sub_ann' }, previous_status: 'Unsubscribed', status: 'Active' } },
      ]);
    });

    it('needs no evidence when the status stays or moves away from Active, or when the request names no status', async () => {
      existing('Bounced');
      expect((await upsert({ status: 'Unsubscribed' })).subscriber.status).toBe('Unsubscribed');
      expect((await upsert({ name: 'Still unsubscribed' })).subscriber.status).toBe('Unsubscribed');
      audience.state.subscribers.get('sub_ann')!.status = 'Active';
      expect((await upsert({ status: 'Active' })).subscriber.status).toBe('Active');
    });
  });

  describe('refusals (nothing is written)', () => {
    const nothingWritten = () => {
      expect(audience.state.subscribers.size).toBe(0);
      expect(events()).toEqual([]);
      expect(audience.state.tags.size).toBe(3);
    };

    it.each<[string, Partial<SubscriberUpsertRequestDto>, { status: number; code: string; field: string }]>([
      [
        'an unknown existing tag',
        { existing_tag_ids: ['tag_red', 'tag_missing'], new_tags: ['Fresh'] },
        { status: 400, code: 'unknown_tag', field: 'existing_tag_ids[1]' },
      ],
      ["another workspace's tag", { existing_tag_ids: ['tag_foreign'] }, { status: 400, code: 'unknown_tag', field: 'existing_tag_ids[0]' }],
      [
        'an unknown sequence',
        { sequence_ids: ['seq_welcome', 'seq_foreign'], new_tags: ['Fresh'] },
        { status: 400, code: 'unknown_sequence', field: 'sequence_ids[1]' },
      ],
      ['an unknown custom field', { custom_fields: { cf_missing: 'x' } }, { status: 400, code: 'unknown_custom_field', field: 'custom_fields.cf_missing' }],
      [
        'an invalid custom field value',
        { custom_fields: { cf_plan: 'gold' } },
        { status: 400, code: 'invalid_custom_field_value', field: 'custom_fields.cf_plan' },
      ],
      ['an unknown country', { country: 'Atlantis' }, { status: 400, code: 'invalid_country', field: 'country' }],
      ['a date that is not a calendar day', { subscribed_on: '2026-02-30' }, { status: 400, code: 'invalid_date', field: 'subscribed_on' }],
      ['an email domain IDNA rejects', { email: 'ann@exa mple..com' }, { status: 400, code: 'invalid_email', field: 'email' }],
      [
        'consent collected after server time',
        { consent_evidence: { ...evidence, collected_at: '2026-06-01T12:00:00.001Z' } },
        { status: 400, code: 'consent_collected_in_future', field: 'consent_evidence.collected_at' },
      ],
    ])('refuses %s', async (_, input, expected) => {
      expect(await refusal(upsert(input))).toEqual(expected);
      nothingWritten();
    });

    it('accepts consent collected at the very instant of the request', async () => {
      await upsert({ consent_evidence: { ...evidence, collected_at: NOW.toISOString() } });
      expect(audience.state.consents).toHaveLength(1);
    });
  });

  it('takes a branded workspace only: a plain string does not compile, although it would run (tsc checks this file)', async () => {
    const rawId: string = WORKSPACE;
    // @ts-expect-error An id from a path or a body is a plain string; only a workspace context (or a test) brands one.
    expect((await service.upsert(rawId, { email: 'ann@example.com' })).created).toBe(true);
  });

  it("acts in the request's workspace only: the same email elsewhere is another subscriber", async () => {
    audience.addSubscriber(OTHER, { id: 'sub_elsewhere', email: 'ann@example.com', name: 'Elsewhere', status: 'Blocked' });
    const { created, subscriber } = await upsert({ status: 'Active', name: 'Here' });
    expect([created, subscriber.id, subscriber.name]).toEqual([true, 'sub_1', 'Here']);
    expect(audience.state.subscribers.get('sub_elsewhere')).toMatchObject({ name: 'Elsewhere', status: 'Blocked' });
  });
});
