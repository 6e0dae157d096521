/**
 * Broadcast drafts over HTTP: create (and its refusal without a delivery connection), read, list, update only while
 * draft (each change a new content version), delete, schedule and unschedule with their outbox events, scopes and
 * tenancy. Sending is broadcasts-send.e2e-spec.ts.
 */
import { EmailPrisma } from '@email/data-access';
import { byCountry, document, saveConnection, smtpConnection } from './broadcasts-fixtures';
import { emailApi, EmailApiHarness } from './helpers';

const future = (ms = 3_600_000) => new Date(Date.now() + ms).toISOString();

describe('email-api: broadcast drafts', () => {
  let h: EmailApiHarness;
  let prisma: EmailPrisma;
  const connectionId = 'edc_drafts';

  beforeAll(async () => {
    h = await emailApi({ APP_BASE_URL: 'https://app.example.test' });
    prisma = h.app.get(EmailPrisma);
    await saveConnection(h.app, h.workspaceId, smtpConnection(connectionId, 2525));
  });
  afterAll(() => h?.close());

  const create = async (body: object = {}, key?: string) =>
    (
      await h
        .as(key)
        .post('/v1/broadcasts')
        .send({ subject: 'Spring news', body_document: document(), ...body })
        .expect(201)
    ).body.data;
  const row = (id: string) => prisma.broadcast.findUniqueOrThrow({ where: { id } });
  const events = (broadcastId: string) =>
    prisma.outboxEvent.findMany({
      where: { type: 'broadcast.state_changed', payload: { path: ['broadcast_id'], equals: broadcastId } },
      orderBy: { id: 'asc' },
    });

  it('refuses to create while the workspace has no enabled delivery connection, with the setup prerequisite', async () => {
    const ws = await h.newWorkspace('No sender yet');
    const missing = await h.as(ws.api_key).post('/v1/broadcasts').send({ subject: 's', body_document: document() }).expect(409);
    expect(missing.body.error).toEqual({
      type: 'conflict',
      code: 'email_delivery_setup_connection_missing',
      message: expect.any(String),
      prerequisite: {
        resource: 'email_delivery_setup_connection',
        state: 'missing',
        required_scopes: ['email_delivery_connections:write'],
        work_profile: 'email_delivery_setup',
        setup_url: `https://app.example.test/email-delivery-connections?workspace=${ws.workspace_id}`,
      },
      retry: { safe: true, guidance: expect.any(String) },
    });
    await saveConnection(h.app, ws.workspace_id, { ...smtpConnection('edc_off', 2525), enabled: false });
    const disabled = await h.as(ws.api_key).post('/v1/broadcasts').send({ subject: 's', body_document: document() }).expect(409);
    expect(disabled.body.error).toMatchObject({ code: 'email_delivery_setup_connection_missing', prerequisite: { state: 'disabled' } });
    expect(await prisma.broadcast.count({ where: { workspace_id: ws.workspace_id } })).toBe(0);
  });

  it('creates a draft from subject and body_document alone: the only enabled connection, its sender, the rendered body', async () => {
    const created = await create();
    expect(created).toEqual({
      self: `/v1/broadcasts/${created.id}`,
      id: expect.stringMatching(/^brd_/),
      subject: 'Spring news',
      preview_text: null,
      body: expect.stringContaining('Hi friend, your plan is free.'),
      body_document: document(),
      status: 'draft',
      scheduled_at: null,
      completed_at: null,
      connection_id: connectionId,
      from_name: 'Postline News',
      from_email: 'news@postline.test',
      reply_to_email: null,
      audience_definition: null,
      track_opens: true,
      track_clicks: true,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      utm_term: null,
      utm_content: null,
      recipient_count: 0,
      opened_count: 0,
      clicked_count: 0,
      unsubscribed_count: 0,
      bounced_count: 0,
      complained_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(created.body).toContain('href="https://shop.example.com/spring"');
    expect((await h.as().get(`/v1/broadcasts/${created.id}`).expect(200)).body.data).toEqual(created);
  });

  it('takes every writable field, and replays a create sent again with the same Idempotency-Key', async () => {
    const body = {
      subject: 'All fields',
      preview_text: 'Preview',
      body_document: document(),
      connection_id: connectionId,
      reply_to_email: 'reply@postline.test',
      audience_definition: byCountry('DE'),
      track_opens: false,
      track_clicks: false,
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring',
      utm_term: 'shoes',
      utm_content: 'hero',
    };
    const first = await h.as().post('/v1/broadcasts').set('idempotency-key', 'create-all-fields').send(body).expect(201);
    expect(first.body.data).toMatchObject({ ...body, body_document: document() });
    const again = await h.as().post('/v1/broadcasts').set('idempotency-key', 'create-all-fields').send(body).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await prisma.broadcast.count({ where: { subject: 'All fields' } })).toBe(1);
  });

  it('refuses bad drafts with a 400 naming the field', async () => {
    const refused = async (body: object, code: string, field: string) => {
      const response = await h.as().post('/v1/broadcasts').send(body).expect(400);
      expect(response.body.error).toMatchObject({ code, details: { field } });
    };
    const valid = { subject: 'x', body_document: document() };
    await refused({ body_document: document() }, 'validation_failed', 'subject');
    await refused({ subject: 'x' }, 'validation_failed', 'body_document');
    await refused({ ...valid, body_document: { type: 'doc', content: [{ type: 'marquee' }] } }, 'validation_failed', 'body_document.content[0].type');
    await refused({ ...valid, body: '<p>html</p>' }, 'validation_failed', 'body');
    await refused({ ...valid, from_email: 'me@example.com' }, 'validation_failed', 'from_email');
    await refused({ ...valid, connection_id: 'edc_nope' }, 'unknown_email_delivery_connection', 'connection_id');
    await refused({ ...valid, reply_to_email: 'not an address' }, 'validation_failed', 'reply_to_email');
    await refused({ ...valid, track_opens: 'yes' }, 'validation_failed', 'track_opens');
    await refused({ ...valid, track_opens: null }, 'validation_failed', 'track_opens');
    await refused({ ...valid, track_clicks: null }, 'validation_failed', 'track_clicks');
    await refused({ ...valid, audience_definition: { match: 'all' } }, 'validation_failed', 'audience_definition.groups');
    const badCondition = {
      match: 'all',
      groups: [{ id: 'g', match: 'all', conditions: [{ id: 'c', field: 'country', operator: 'greater_than', value: 'DE' }] }],
    };
    const condition = await h
      .as()
      .post('/v1/broadcasts')
      .send({ ...valid, audience_definition: badCondition })
      .expect(400);
    expect(condition.body.error).toMatchObject({ code: 'invalid_audience_condition', condition_id: 'c' });

    await saveConnection(h.app, h.workspaceId, { ...smtpConnection('edc_disabled', 2525), enabled: false });
    await refused({ ...valid, connection_id: 'edc_disabled' }, 'disabled_email_delivery_connection', 'connection_id');
  });

  it('updates a draft (PUT, partial): each change moves content_version on and renders the body again', async () => {
    const created = await create({ audience_definition: byCountry('DE') });
    const before = await row(created.id);
    const updated = await h.as().put(`/v1/broadcasts/${created.id}`).send({ subject: 'Changed', audience_definition: null, utm_source: 'x' }).expect(200);
    expect(updated.body.data).toMatchObject({
      subject: 'Changed',
      audience_definition: null,
      utm_source: 'x',
      body_document: document(),
      connection_id: connectionId,
    });
    expect((await row(created.id)).content_version).toBe(before.content_version + 1);

    const link = 'https://shop.example.com/summer';
    const body = await h
      .as()
      .put(`/v1/broadcasts/${created.id}`)
      .send({ body_document: document(link), connection_id: null })
      .expect(200);
    expect(body.body.data).toMatchObject({ subject: 'Changed', connection_id: null, from_email: null, from_name: null });
    expect(body.body.data.body).toContain(`href="${link}"`);
    expect((await row(created.id)).content_version).toBe(before.content_version + 2);

    const empty = await h.as().put(`/v1/broadcasts/${created.id}`).send({}).expect(400);
    expect(empty.body.error.code).toBe('empty_update');
    await h.as().put(`/v1/broadcasts/${created.id}`).send({ body: 'x' }).expect(400);
    for (const flag of ['track_opens', 'track_clicks']) {
      const refused = await h
        .as()
        .put(`/v1/broadcasts/${created.id}`)
        .send({ [flag]: null })
        .expect(400);
      expect(refused.body.error).toMatchObject({ code: 'validation_failed', details: { field: flag } });
    }
    await h.as().put('/v1/broadcasts/brd_missing').send({ subject: 'x' }).expect(404);
    expect((await row(created.id)).content_version).toBe(before.content_version + 2);
  });

  it('lists summaries newest first, searches subjects, pages with a cursor', async () => {
    const ws = await h.newWorkspace('Lists');
    await saveConnection(h.app, ws.workspace_id, smtpConnection('edc_lists', 2525));
    for (const subject of ['Alpha sale', 'Beta news', 'Gamma SALE']) await create({ subject }, ws.api_key);
    const all = await h.as(ws.api_key).get('/v1/broadcasts').expect(200);
    expect(all.body.data.map((b: { subject: string }) => b.subject)).toEqual(['Gamma SALE', 'Beta news', 'Alpha sale']);
    expect(Object.keys(all.body.data[0]).sort()).toEqual(
      [
        'self',
        'id',
        'subject',
        'preview_text',
        'status',
        'scheduled_at',
        'completed_at',
        'recipient_count',
        'opened_count',
        'clicked_count',
        'unsubscribed_count',
        'bounced_count',
        'complained_count',
        'created_at',
        'updated_at',
      ].sort(),
    );
    const sale = await h.as(ws.api_key).get('/v1/broadcasts?search=sale').expect(200);
    expect(sale.body.data.map((b: { subject: string }) => b.subject)).toEqual(['Gamma SALE', 'Alpha sale']);
    const first = await h.as(ws.api_key).get('/v1/broadcasts?limit=2').expect(200);
    expect(first.body.pagination.has_more).toBe(true);
    const second = await h
      .as(ws.api_key)
      .get(`/v1/broadcasts?limit=2&starting_after=${encodeURIComponent(first.body.pagination.next_cursor)}`)
      .expect(200);
    expect(second.body).toMatchObject({ data: [{ subject: 'Alpha sale' }], pagination: { has_more: false, next_cursor: null } });
    await h.as(ws.api_key).get('/v1/broadcasts?limit=0').expect(400);
    await h.as(ws.api_key).get('/v1/broadcasts?starting_after=forged').expect(400);
  });

  it('schedules (future, explicit offset), reschedules and unschedules, each change an outbox event in its transaction', async () => {
    const created = await create();
    const path = `/v1/broadcasts/${created.id}/schedule`;
    const past = await h
      .as()
      .put(path)
      .send({ scheduled_at: new Date(Date.now() - 60_000).toISOString() })
      .expect(400);
    expect(past.body.error).toMatchObject({ code: 'scheduled_at_not_in_future', details: { field: 'scheduled_at' } });
    for (const scheduled_at of ['2030-01-01T10:00:00', '2030-02-30T10:00:00Z', 'tomorrow', 1893456000]) {
      const bad = await h.as().put(path).send({ scheduled_at }).expect(400);
      expect(bad.body.error.details.field).toBe('scheduled_at');
    }

    const at = '2030-05-01T09:00:00+02:00';
    const scheduled = await h.as().put(path).send({ scheduled_at: at }).expect(200);
    expect(scheduled.body.data).toMatchObject({ status: 'scheduled', scheduled_at: '2030-05-01T07:00:00.000Z' });
    const moved = await h.as().put(path).send({ scheduled_at: '2030-06-01T07:00:00Z' }).expect(200);
    expect(moved.body.data).toMatchObject({ status: 'scheduled', scheduled_at: '2030-06-01T07:00:00.000Z' });

    const edit = await h.as().put(`/v1/broadcasts/${created.id}`).send({ subject: 'x' }).expect(409);
    expect(edit.body.error).toMatchObject({ code: 'broadcast_not_editable', message: expect.stringContaining('unschedule') });

    const draft = await h.as().delete(path).expect(200);
    expect(draft.body.data).toMatchObject({ status: 'draft', scheduled_at: null });
    expect((await h.as().delete(path).expect(409)).body.error.code).toBe('broadcast_not_scheduled');
    await h.as().delete('/v1/broadcasts/brd_missing/schedule').expect(404);
    const senderless = await create({ connection_id: null });
    const unscheduled = await h.as().put(`/v1/broadcasts/${senderless.id}/schedule`).send({ scheduled_at: future() }).expect(409);
    expect(unscheduled.body.error.code).toBe('broadcast_connection_unavailable');
    await h.as().put('/v1/broadcasts/brd_missing/schedule').send({ scheduled_at: future() }).expect(404);

    expect((await events(created.id)).map((event) => event.payload)).toEqual([
      { broadcast_id: created.id, change: 'scheduled', status: 'scheduled', scheduled_at: '2030-05-01T07:00:00.000Z' },
      { broadcast_id: created.id, change: 'scheduled', status: 'scheduled', scheduled_at: '2030-06-01T07:00:00.000Z' },
      { broadcast_id: created.id, change: 'unscheduled', status: 'draft', scheduled_at: null },
    ]);
  });

  it('deletes draft, scheduled and failed broadcasts, never one that started sending', async () => {
    const draft = await create();
    await h.as().delete(`/v1/broadcasts/${draft.id}`).expect(204);
    await h.as().get(`/v1/broadcasts/${draft.id}`).expect(404);
    await h.as().delete(`/v1/broadcasts/${draft.id}`).expect(404);

    const scheduled = await create();
    await h.as().put(`/v1/broadcasts/${scheduled.id}/schedule`).send({ scheduled_at: future() }).expect(200);
    await h.as().delete(`/v1/broadcasts/${scheduled.id}`).expect(204);

    for (const status of ['running', 'completed'] as const) {
      const sent = await create();
      await prisma.broadcast.update({ where: { id: sent.id }, data: { status } });
      expect((await h.as().delete(`/v1/broadcasts/${sent.id}`).expect(409)).body.error.code).toBe('broadcast_not_deletable');
      expect((await h.as().put(`/v1/broadcasts/${sent.id}`).send({ subject: 'x' }).expect(409)).body.error.code).toBe('broadcast_not_editable');
      expect((await h.as().put(`/v1/broadcasts/${sent.id}/schedule`).send({ scheduled_at: future() }).expect(409)).body.error.code).toBe(
        'broadcast_not_schedulable',
      );
    }
    const failed = await create();
    await prisma.broadcast.update({ where: { id: failed.id }, data: { status: 'failed' } });
    await h.as().delete(`/v1/broadcasts/${failed.id}`).expect(204);
  });

  it('needs the contract scopes for each operation', async () => {
    const created = await create();
    const reader = await h.keyWith(['broadcasts:read']);
    const writer = await h.keyWith(['broadcasts:write']);
    await h.as(reader).get(`/v1/broadcasts/${created.id}`).expect(200);
    await h.as(reader).get(`/v1/broadcasts/${created.id}/preflight`).expect(200);
    const denied = await h.as(reader).post('/v1/broadcasts').send({ subject: 'x', body_document: document() }).expect(403);
    expect(denied.body.error).toMatchObject({ code: 'insufficient_scope', missing_scopes: ['broadcasts:write'] });
    await h.as(writer).put(`/v1/broadcasts/${created.id}`).send({ subject: 'by writer' }).expect(200);
    // Scheduling, sending and canceling act on real inboxes: they need live_actions:write too; a test send also reads a subscriber.
    for (const [method, path] of [
      ['put', 'schedule'],
      ['delete', 'schedule'],
      ['post', 'send'],
      ['post', 'cancel'],
      ['post', 'test'],
    ] as const) {
      const response = await h.as(writer).request(method, `/v1/broadcasts/${created.id}/${path}`).send({}).expect(403);
      expect(response.body.error.missing_scopes).toContain('live_actions:write');
    }
    const tester = await h.keyWith(['broadcasts:write', 'live_actions:write']);
    const test = await h.as(tester).post(`/v1/broadcasts/${created.id}/test`).send({ recipient: 'a@example.com', subscriber_id: 'sub_x' }).expect(403);
    expect(test.body.error.missing_scopes).toEqual(['subscribers:read']);
  });

  it("never shows or changes another workspace's broadcasts, nor lets it use this workspace's connection", async () => {
    const mine = await create({ subject: 'Mine only' });
    const other = await h.newWorkspace('Other');
    await saveConnection(h.app, other.workspace_id, smtpConnection('edc_other', 2525));
    const as = h.as(other.api_key);
    for (const [method, path] of [
      ['get', ''],
      ['put', ''],
      ['delete', ''],
      ['get', '/preflight'],
      ['get', '/progress'],
      ['get', '/delivery-errors'],
      ['put', '/schedule'],
      ['delete', '/schedule'],
      ['post', '/send'],
      ['post', '/cancel'],
      ['post', '/test'],
    ] as const) {
      const body =
        path === '/schedule'
          ? { scheduled_at: future() }
          : path === '/test'
            ? { recipient: 'a@example.com', subscriber_id: 'sub_x' }
            : path === ''
              ? { subject: 'x' }
              : {};
      const response = await as.request(method, `/v1/broadcasts/${mine.id}${path}`).send(body);
      expect([method, path, response.status, response.body.error?.code]).toEqual([method, path, 404, 'broadcast_not_found']);
    }
    expect((await as.get('/v1/broadcasts?search=Mine').expect(200)).body.data).toEqual([]);
    const foreign = await as.post('/v1/broadcasts').send({ subject: 'x', body_document: document(), connection_id: connectionId }).expect(400);
    expect(foreign.body.error.code).toBe('unknown_email_delivery_connection');
    expect(await row(mine.id)).toMatchObject({ subject: 'Mine only', status: 'draft' });
  });

  it('never leaves a broadcast scheduled on a connection deleted at the same moment: one of the two waits for the other', async () => {
    for (let round = 0; round < 6; round++) {
      const id = `edc_race_${round}`;
      await saveConnection(h.app, h.workspaceId, smtpConnection(id, 2525));
      const draft = await create({ connection_id: id });
      const [schedule, remove] = await Promise.all([
        h.as().put(`/v1/broadcasts/${draft.id}/schedule`).send({ scheduled_at: future() }),
        h.as().delete(`/v1/email-delivery-connections/${id}`),
      ]);
      const scheduled = (await row(draft.id)).status === 'scheduled';
      const connectionLeft = (await prisma.deliveryConnection.count({ where: { id } })) === 1;
      // Either the schedule won (the delete is refused as in use) or the delete did (the schedule finds no connection).
      expect({ round, schedule: schedule.status, remove: remove.status, scheduled, connectionLeft }).toEqual(
        scheduled
          ? { round, schedule: 200, remove: 409, scheduled: true, connectionLeft: true }
          : { round, schedule: 409, remove: 204, scheduled: false, connectionLeft: false },
      );
    }
  });
});
