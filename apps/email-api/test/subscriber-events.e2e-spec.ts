/**
 * The outbox events, consent records and error details of the subscriber use cases: exactly one event per real
 * change, none for a request that changes nothing, and errors that name the offending field.
 */
import { EmailPrisma } from '@email/data-access';
import { emailApi, EmailApiHarness } from './helpers';

const consent = { lawful_basis: 'consent', collected_at: '2026-01-15T10:00:00+01:00', evidence_reference: 'form-7' };

describe('email-api: subscriber events and error details', () => {
  let h: EmailApiHarness;
  let prisma: EmailPrisma;

  beforeAll(async () => {
    h = await emailApi();
    prisma = h.app.get(EmailPrisma);
    await prisma.sequence.create({ data: { id: 'seq_events', workspace_id: h.workspaceId, name: 'Welcome', status: 'running' } });
  });
  afterAll(() => h?.close());

  const upsert = (body: object) => h.as().post('/v1/subscribers').send(body);
  const create = async (email: string, extra: object = {}) => (await upsert({ email, ...extra }).expect(201)).body.data as { id: string };
  /** The payloads of the events about one subscriber, oldest first, by type. */
  const events = async (id: string) => {
    const rows = await prisma.outboxEvent.findMany({ where: { workspace_id: h.workspaceId }, orderBy: [{ created_at: 'asc' }, { id: 'asc' }] });
    return rows
      .filter((row) => (row.payload as { subscriber?: { id?: string } }).subscriber?.id === id)
      .map((row) => ({ type: row.type, payload: row.payload }));
  };
  const after = async (id: string, act: () => Promise<unknown>) => {
    const before = (await events(id)).length;
    await act();
    return (await events(id)).slice(before);
  };

  it('PATCH records the changed fields once, and nothing when nothing changed', async () => {
    const { id } = await create('patch-events@example.com', { name: 'Ada', country: 'DE' });
    const changed = await after(id, () =>
      h.as().patch(`/v1/subscribers/${id}`).send({ name: 'Ada L', country: 'DE', email: 'Patch-Events2@example.com', subscribed_on: '2025-01-01' }).expect(200),
    );
    expect(changed).toEqual([{ type: 'subscriber.updated', payload: { subscriber: { id }, changed_fields: ['email', 'name', 'subscribed_at'] } }]);
    const same = await after(id, () =>
      h.as().patch(`/v1/subscribers/${id}`).send({ name: 'Ada L', email: 'patch-events2@example.com', country: 'de' }).expect(200),
    );
    expect(same).toEqual([]);
  });

  it('an upsert that only changes the status records status_changed but no subscriber.updated', async () => {
    const { id } = await create('status-only@example.com', { name: 'Bo' });
    const changed = await after(id, () => upsert({ email: 'status-only@example.com', name: 'Bo', status: 'Unsubscribed' }).expect(200));
    expect(changed).toEqual([{ type: 'subscriber.status_changed', payload: { subscriber: { id }, previous_status: 'Active', status: 'Unsubscribed' } }]);
    expect((await prisma.subscriber.findUniqueOrThrow({ where: { id } })).status).toBe('Unsubscribed');
    expect(await after(id, () => upsert({ email: 'status-only@example.com', status: 'Unsubscribed' }).expect(200))).toEqual([]);
  });

  it('an upsert that adds a sequence records it as a changed field', async () => {
    const { id } = await create('enrolled@example.com');
    const changed = await after(id, () => upsert({ email: 'enrolled@example.com', sequence_ids: ['seq_events'] }).expect(200));
    expect(changed).toEqual([{ type: 'subscriber.updated', payload: { subscriber: { id }, changed_fields: ['sequence_ids'] } }]);
    expect(await after(id, () => upsert({ email: 'enrolled@example.com', sequence_ids: ['seq_events'] }).expect(200))).toEqual([]);
  });

  it('the status route records a change once and stores the full consent evidence', async () => {
    const { id } = await create('status-route@example.com');
    expect(await after(id, () => h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Active' }).expect(200))).toEqual([]);
    const blocked = await after(id, () => h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Blocked' }).expect(200));
    expect(blocked).toEqual([{ type: 'subscriber.status_changed', payload: { subscriber: { id }, previous_status: 'Active', status: 'Blocked' } }]);

    const evidence = { ...consent, consent_text_version: 'v3', source_url: 'https://example.com/join', technical_evidence_hash: 'ab'.repeat(32) };
    await h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Active', consent_evidence: evidence }).expect(200);
    await h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Active', consent_evidence: consent }).expect(200);
    const records = await prisma.consentRecord.findMany({ where: { subscriber_id: id }, orderBy: { recorded_at: 'asc' } });
    expect(
      records.map(
        ({ id: recordId, workspace_id, lawful_basis, consent_text_version, collected_at, source_url, evidence_reference, technical_evidence_hash }) => ({
          recordId,
          workspace_id,
          lawful_basis,
          consent_text_version,
          collected_at,
          source_url,
          evidence_reference,
          technical_evidence_hash,
        }),
      ),
    ).toEqual([
      {
        recordId: expect.stringMatching(/^cns_/),
        workspace_id: h.workspaceId,
        lawful_basis: 'consent',
        consent_text_version: 'v3',
        collected_at: new Date('2026-01-15T09:00:00.000Z'),
        source_url: 'https://example.com/join',
        evidence_reference: 'form-7',
        technical_evidence_hash: 'ab'.repeat(32),
      },
      {
        recordId: expect.stringMatching(/^cns_/),
        workspace_id: h.workspaceId,
        lawful_basis: 'consent',
        consent_text_version: null,
        collected_at: new Date('2026-01-15T09:00:00.000Z'),
        source_url: null,
        evidence_reference: 'form-7',
        technical_evidence_hash: null,
      },
    ]);
  });

  it('tag and sequence routes record one event per real change, none for a repeat', async () => {
    const { id } = await create('memberships@example.com');
    const tag = (await h.as().post('/v1/tags').send({ name: 'Events tag' }).expect(201)).body.data as { id: string };
    const updated = (field: string) => ({ type: 'subscriber.updated', payload: { subscriber: { id }, changed_fields: [field] } });
    const all = await after(id, async () => {
      await h.as().put(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200);
      await h.as().put(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200);
      await h.as().delete(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200);
      await h.as().delete(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200);
      await h.as().put(`/v1/subscribers/${id}/sequences/seq_events`).expect(200);
      await h.as().put(`/v1/subscribers/${id}/sequences/seq_events`).expect(200);
      await h.as().delete(`/v1/subscribers/${id}/sequences/seq_events`).expect(200);
      await h.as().delete(`/v1/subscribers/${id}/sequences/seq_events`).expect(200);
    });
    expect(all).toEqual([updated('tags'), updated('tags'), updated('sequence_ids'), updated('sequence_ids')]);
  });

  it('names the field and the resource in its errors', async () => {
    const { id } = await create('errors@example.com');
    await create('errors-taken@example.com');
    const tag = (await h.as().post('/v1/tags').send({ name: 'Errors tag' }).expect(201)).body.data as { id: string };
    const error = async (response: Promise<{ body: { error: unknown } }>) => (await response).body.error;

    expect(await error(upsert({ email: 'errors@example.com', create_only: true }).expect(409))).toEqual({
      type: 'conflict',
      code: 'subscriber_exists',
      message: 'A subscriber with this email already exists.',
      details: { field: 'email' },
    });
    expect(await error(h.as().patch(`/v1/subscribers/${id}`).send({ email: 'errors-taken@example.com' }).expect(409))).toEqual({
      type: 'conflict',
      code: 'subscriber_email_taken',
      message: 'Another subscriber already has this email.',
      details: { field: 'email' },
    });
    expect(await error(upsert({ email: 'x1@example.com', existing_tag_ids: [tag.id, 'tag_nope'] }).expect(400))).toEqual({
      type: 'invalid_request',
      code: 'unknown_tag',
      message: 'Tag "tag_nope" does not exist.',
      details: { field: 'existing_tag_ids[1]' },
    });
    expect(await error(upsert({ email: 'x2@example.com', sequence_ids: ['seq_events', 'seq_nope'] }).expect(400))).toEqual({
      type: 'invalid_request',
      code: 'unknown_sequence',
      message: 'Sequence "seq_nope" does not exist.',
      details: { field: 'sequence_ids[1]' },
    });
    expect(await error(h.as().put(`/v1/subscribers/${id}/tags/tag_nope`).expect(404))).toMatchObject({
      code: 'tag_not_found',
      details: { resource: { type: 'tag', id: 'tag_nope' } },
    });
    expect(await error(h.as().delete(`/v1/subscribers/${id}/tags/tag_nope`).expect(404))).toMatchObject({ code: 'tag_not_found' });
    expect(await error(h.as().delete(`/v1/subscribers/${id}/sequences/seq_nope`).expect(404))).toMatchObject({ code: 'sequence_not_found' });
    expect(await error(h.as().delete('/v1/subscribers/sub_nope').expect(404))).toMatchObject({
      code: 'subscriber_not_found',
      details: { resource: { type: 'subscriber', id: 'sub_nope' } },
    });
    expect(await error(h.as().patch('/v1/subscribers/sub_nope').send({ name: 'x' }).expect(404))).toMatchObject({ code: 'subscriber_not_found' });

    await h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Unsubscribed' }).expect(200);
    expect(await error(h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Active' }).expect(400))).toEqual({
      type: 'invalid_request',
      code: 'consent_evidence_required',
      message: 'Making a Unsubscribed subscriber Active requires consent_evidence.',
      details: { field: 'consent_evidence' },
    });
    const future = { ...consent, collected_at: new Date(Date.now() + 60_000).toISOString() };
    expect(await error(h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Active', consent_evidence: future }).expect(400))).toEqual({
      type: 'invalid_request',
      code: 'consent_collected_in_future',
      message: 'consent_evidence.collected_at is later than server time.',
      details: { field: 'consent_evidence.collected_at' },
    });
  });
});
