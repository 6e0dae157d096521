/**
 * Sending broadcasts over HTTP: test sends through a real SMTP sink, the preflight with every blocking code and its
 * proof (stale → 409; expired, foreign or garbled → checked again and sent), the send (202, run, outbox event,
 * preparation job), progress, delivery errors and cancel with its four codes. No send worker runs here: where a test needs a run to have moved on, it
 * writes the run as the worker would.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { freePort, SmtpSink } from '@shared/testing';
import { EmailQueues } from '@email/contracts';
import { EmailPrisma } from '@email/data-access';
import { WorkspaceService } from '@email/workspace';
import { audienceHash, BroadcastRecipients, BroadcastRepository, ConnectionLimiter, RunPhase, SendProofs } from '@email/broadcasts';
import {
  FAKE_MAILGUN_CREDENTIALS,
  FakeAmazonSes,
  FakeMailgun,
  fakeProviderSettings,
  readMime,
  startFakeProvider,
} from '../../../libs/email/delivery/src/testing/provider-fakes.fixture';
import { byCountry, document, largeDocument, saveConnection, SINK_PASSWORD, SINK_USER, smtpConnection } from './broadcasts-fixtures';
import { emailApi, EmailApiHarness } from './helpers';

const PREFLIGHT_FIELDS = [
  'workspace_id',
  'broadcast_id',
  'subject',
  'recipient_estimate',
  'connection',
  'provider_production_status',
  'remaining_daily_quota',
  'sending_quota',
  'safe_send_rate',
  'estimated_duration_seconds',
  'sender_authentication_status',
  'event_webhook_health',
  'blocking_issues',
  'checked_at',
  'send_proof',
  'send_proof_expires_at',
];
const PROGRESS_FIELDS = [
  'run_id',
  'phase',
  'selected',
  'materialized',
  'sent',
  'accepted',
  'skipped',
  'retrying',
  'permanent_failed',
  'unknown',
  'canceled',
  'percent_complete',
  'effective_rate',
  'provider_limited_rate',
  'provider',
  'estimated_completion',
  'estimated_completion_basis',
  'last_progress_at',
  'pause_reason',
  'next_retry_at',
  'next_retry_action',
  'pause_message',
  'terminal',
];

describe('email-api: sending broadcasts', () => {
  const sink = new SmtpSink({ user: SINK_USER, pass: SINK_PASSWORD });
  let ses: FakeAmazonSes;
  let mailgun: FakeMailgun;
  let h: EmailApiHarness;
  let prisma: EmailPrisma;
  let planFieldId: string;
  let ana: string;
  const SINK = 'edc_sink';
  // Active subscribers: 3 in DE (Ana among them), 1 in FR; plus one unsubscribed in DE, never counted.
  const ACTIVE = 4;

  beforeAll(async () => {
    await sink.start();
    ses = await startFakeProvider('amazon-ses');
    mailgun = await startFakeProvider('mailgun');
    h = await emailApi({
      PUBLIC_BASE_URL: 'https://mail.postline.test',
      DELIVERY_PROVIDER_TIMEOUT_MS: '3000',
      DELIVERY_BASE_URL_AMAZON_SES: ses.baseUrl,
      DELIVERY_BASE_URL_MAILGUN: mailgun.baseUrl,
    });
    prisma = h.app.get(EmailPrisma);
    await saveConnection(h.app, h.workspaceId, smtpConnection(SINK, sink.port));
    planFieldId = (await h.as().post('/v1/custom-fields').send({ label: 'Plan', type: 'Text' }).expect(201)).body.data.id;
    const subscribe = async (email: string, body: object = {}) =>
      (
        await h
          .as()
          .post('/v1/subscribers')
          .send({ email, country: 'DE', ...body })
          .expect(201)
      ).body.data.id as string;
    ana = await subscribe('ana@example.com', { name: 'Ana', custom_fields: { [planFieldId]: 'pro' } });
    await subscribe('ben@example.com');
    await subscribe('cem@example.com');
    await subscribe('fay@example.com', { country: 'FR' });
    const gone = await subscribe('gone@example.com');
    await h.as().put(`/v1/subscribers/${gone}/status`).send({ status: 'Unsubscribed' }).expect(200);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await sink.stop();
    await ses?.stop();
    await mailgun?.stop();
  });

  beforeEach(() => {
    sink.behaviour = {};
    ses.reset();
    mailgun.reset();
  });

  const create = async (body: object = {}) =>
    (
      await h
        .as()
        .post('/v1/broadcasts')
        .send({ subject: 'Spring news for [Subscriber_Name, fallback="you"]', body_document: document(), connection_id: SINK, ...body })
        .expect(201)
    ).body.data as { id: string; status: string };
  const preflight = async (id: string) => (await h.as().get(`/v1/broadcasts/${id}/preflight`).expect(200)).body.data;
  const send = (id: string, body?: object, key?: string) => {
    const test = h.as().post(`/v1/broadcasts/${id}/send`);
    if (key) test.set('idempotency-key', key);
    return body ? test.send(body) : test;
  };
  const latestRun = (broadcastId: string) => prisma.broadcastRun.findFirstOrThrow({ where: { broadcast_id: broadcastId }, orderBy: { created_at: 'desc' } });
  const setPhase = (runId: string, phase: RunPhase, more: object = {}) => prisma.broadcastRun.update({ where: { id: runId }, data: { phase, ...more } });
  const sentBroadcast = async () => {
    const created = await create();
    const started = (await send(created.id).expect(202)).body.data;
    return { id: created.id, runId: started.run_id as string };
  };
  /** One delivery of the run in `state` (pending: still to be tried). */
  const delivery = async (runId: string, state = 'pending') => {
    const subscriber = await prisma.subscriber.findFirstOrThrow({ where: { workspace_id: h.workspaceId } });
    await prisma.broadcastDelivery.create({ data: { run_id: runId, workspace_id: h.workspaceId, subscriber_id: subscriber.id, state } });
  };
  const connection = async (id: string, provider: 'amazon-ses' | 'mailgun') => {
    const settings = fakeProviderSettings(provider);
    return saveConnection(h.app, h.workspaceId, { id, provider, config: settings.config as Record<string, string>, secrets: settings.secrets });
  };

  describe('test sends', () => {
    it("sends one real email built with the subscriber's data, marked as a test, to any inbox", async () => {
      const created = await create({ reply_to_email: 'reply@postline.test' });
      const before = sink.received.length;
      const result = await h.as().post(`/v1/broadcasts/${created.id}/test`).send({ recipient: 'qa@inbox.test', subscriber_id: ana }).expect(200);
      expect(result.body).toEqual({ data: { status: 'completed', subscriber_id: ana } });
      expect(sink.received.length).toBe(before + 1);
      const received = sink.received[sink.received.length - 1];
      expect(received.to).toEqual(['qa@inbox.test']);
      const mail = readMime(received.raw);
      expect(mail.headers.Subject).toBe('[Test] Spring news for Ana');
      expect(mail.headers['X-Postline-Test']).toBe('broadcast');
      expect(mail.headers['Reply-To']).toBe('reply@postline.test');
      expect(mail.headers['List-Unsubscribe']).toMatch(/^<https:\/\/mail\.postline\.test\/u\/u1\.[^>]+>$/);
      expect(mail.text).toContain('Hi Ana, your plan is pro.');
      expect(mail.html).toContain('href="https://shop.example.com/spring"');
      expect(mail.html).not.toContain('/o/t1.');
    });

    it('replays a repeated Idempotency-Key without sending again, and refuses a sixth send in the window', async () => {
      const created = await create();
      const path = `/v1/broadcasts/${created.id}/test`;
      const body = { recipient: 'qa@inbox.test', subscriber_id: ana };
      const before = sink.received.length;
      await h.as().post(path).set('idempotency-key', 'test-once').send(body).expect(200);
      const replay = await h.as().post(path).set('idempotency-key', 'test-once').send(body).expect(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      for (let i = 0; i < 4; i++) await h.as().post(path).send(body).expect(200);
      expect(sink.received.length).toBe(before + 5);
      const limited = await h.as().post(path).send(body).expect(429);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expect(sink.received.length).toBe(before + 5);
    });

    it('refuses an unknown subscriber, a bad recipient, a broadcast without connection, and says what the provider refused', async () => {
      const created = await create();
      const path = `/v1/broadcasts/${created.id}/test`;
      const unknown = await h.as().post(path).send({ recipient: 'qa@inbox.test', subscriber_id: 'sub_missing' }).expect(400);
      expect(unknown.body.error).toMatchObject({ code: 'unknown_subscriber', details: { field: 'subscriber_id' } });
      const bad = await h.as().post(path).send({ recipient: 'not-an-address', subscriber_id: ana }).expect(400);
      expect(bad.body.error.details.field).toBe('recipient');
      sink.behaviour = { reject: { stage: 'rcpt', code: 550, text: '5.1.1 No such user' } };
      const refused = await h.as().post(path).send({ recipient: 'nobody@inbox.test', subscriber_id: ana }).expect(400);
      expect(refused.body.error).toMatchObject({ code: 'delivery_test_refused', details: { reason: '5.1.1' } });

      const none = await create({ connection_id: null });
      const unavailable = await h.as().post(`/v1/broadcasts/${none.id}/test`).send({ recipient: 'qa@inbox.test', subscriber_id: ana }).expect(409);
      expect(unavailable.body.error.code).toBe('broadcast_connection_unavailable');
    });
  });

  describe('preflight', () => {
    it('reports every field, the exact count of Active recipients, and a send proof when nothing blocks', async () => {
      const created = await create();
      const report = await preflight(created.id);
      expect(Object.keys(report).sort()).toEqual([...PREFLIGHT_FIELDS].sort());
      expect(report).toMatchObject({
        workspace_id: h.workspaceId,
        broadcast_id: created.id,
        subject: 'Spring news for [Subscriber_Name, fallback="you"]',
        recipient_estimate: ACTIVE,
        connection: { id: SINK, name: `custom-smtp ${SINK}`, provider: 'custom-smtp' },
        provider_production_status: 'production',
        remaining_daily_quota: null,
        sending_quota: null,
        // custom-smtp's default rate: 4 recipients take a second.
        safe_send_rate: 50,
        estimated_duration_seconds: 1,
        sender_authentication_status: 'unknown',
        event_webhook_health: 'unknown',
        blocking_issues: [],
        send_proof: expect.stringMatching(/^bp1\./),
      });
      const ttl = Date.parse(report.send_proof_expires_at) - Date.parse(report.checked_at);
      expect(ttl).toBeGreaterThan(9 * 60_000);
      expect(ttl).toBeLessThanOrEqual(10 * 60_000);
      expect((await preflight((await create({ audience_definition: byCountry('DE') })).id)).recipient_estimate).toBe(3);
      await h.as().get('/v1/broadcasts/brd_missing/preflight').expect(404);
    });

    it("reports today's share of the connection's daily quota, and a duration that waits for the next UTC day", async () => {
      await saveConnection(h.app, h.workspaceId, smtpConnection('edc_quota', sink.port));
      const limits = { send_rate_per_second: 2, daily_quota: 3 };
      await h.as().put('/v1/email-delivery-connections/edc_quota/send-limits').send(limits).expect(200);
      // One message already sent through it today, as the send worker's limiter counts it.
      expect(await h.app.get(ConnectionLimiter).take('edc_quota', { ratePerSecond: 2, connections: 1, dailyQuota: 3 }, 1)).toEqual({ granted: 1 });

      const report = await preflight((await create({ connection_id: 'edc_quota' })).id);
      expect(report).toMatchObject({ remaining_daily_quota: 2, sending_quota: { remaining: 2, limit: 3, period: 'day' }, safe_send_rate: 2 });
      // 4 recipients: 2 today, the other 2 after midnight UTC at 2 a second.
      const untilMidnight = (new Date(report.checked_at).setUTCHours(24, 0, 0, 0) - Date.parse(report.checked_at)) / 1000;
      expect(report.estimated_duration_seconds).toBe(Math.ceil(untilMidnight + 1));
    });

    it('finds every blocking issue; a send without a proof runs the same checks and is refused with the first one', async () => {
      const closedPort = await freePort();
      await saveConnection(h.app, h.workspaceId, smtpConnection('edc_closed', closedPort));
      await saveConnection(h.app, h.workspaceId, smtpConnection('edc_wrong_password', sink.port, 'not-the-password'));
      await saveConnection(h.app, h.workspaceId, { ...smtpConnection('edc_foreign_seal', sink.port), sealedFor: 'edc_elsewhere' });
      await saveConnection(h.app, h.workspaceId, smtpConnection('edc_to_disable', sink.port));
      await connection('edc_ses', 'amazon-ses');
      await connection('edc_mailgun', 'mailgun');
      const field = (await h.as().post('/v1/custom-fields').send({ label: 'Tier', type: 'Text' }).expect(201)).body.data;
      const onTier = {
        match: 'all',
        groups: [{ id: 'g', match: 'all', conditions: [{ id: 'c', field: 'custom_field', customFieldId: field.id, operator: 'is_not_empty' }] }],
      };

      const running = await sentBroadcast();
      const disabled = await create({ connection_id: 'edc_to_disable' });
      await prisma.deliveryConnection.update({ where: { id: 'edc_to_disable' }, data: { enabled: false } });
      const audienceInvalid = await create({ audience_definition: onTier });
      // The API refuses to delete a field a draft targets (409 custom_field_in_use); a row removed behind its back is what
      // the check exists for.
      await h.as().delete(`/v1/custom-fields/${field.id}`).expect(409);
      await prisma.customField.delete({ where: { id: field.id } });
      const expectations: Array<[{ id: string }, string, RegExp]> = [
        [running, 'broadcast_not_sendable', /is running/],
        [await create({ connection_id: null }), 'broadcast_connection_unavailable', /no email delivery connection/],
        [disabled, 'broadcast_connection_unavailable', /is disabled/],
        [await create({ connection_id: 'edc_foreign_seal' }), 'broadcast_provider_quota_unavailable', /cannot be opened/],
        [await create({ connection_id: 'edc_closed' }), 'broadcast_connection_unhealthy', /could not be reached/],
        [await create({ connection_id: 'edc_wrong_password' }), 'broadcast_connection_unhealthy', /refused the connection/],
        [await create({ connection_id: 'edc_ses' }), 'broadcast_provider_production_access_required', /paused/i],
        [await create({ connection_id: 'edc_mailgun' }), 'broadcast_sender_unverified', new RegExp(FAKE_MAILGUN_CREDENTIALS.domain)],
        [audienceInvalid, 'broadcast_audience_invalid', /no longer compiles/],
        [await create({ audience_definition: byCountry('JP') }), 'broadcast_no_recipients', /No Active subscriber/],
        [
          await create({ body_document: document('javascript:alert(1)') }),
          'broadcast_content_invalid',
          /body_document\.content\[1\]\.content\[1\]\.marks\[0\]\.attrs\.href/,
        ],
        [await create({ body_document: document('https://exa mple.com/x') }), 'broadcast_content_invalid', /not a well-formed URL/],
      ];
      ses.sendingEnabled = false;
      mailgun.domainState = 'unverified';
      for (const [broadcast, code, message] of expectations) {
        const report = await preflight(broadcast.id);
        expect([code, report.blocking_issues]).toEqual([code, [{ code, message: expect.stringMatching(message), resolution: expect.any(String) }]]);
        expect(report.send_proof).toBeNull();
        expect(report.send_proof_expires_at).toBeNull();
        const refused = await send(broadcast.id).expect(409);
        expect(refused.body.error).toMatchObject({ code, blocking_issues: report.blocking_issues.map(() => expect.objectContaining({ code })) });
      }
      const statuses = await preflight(expectations[6][0].id);
      expect(statuses).toMatchObject({ provider_production_status: 'restricted', connection: { provider: 'amazon-ses' } });
      expect((await preflight(expectations[7][0].id)).sender_authentication_status).toBe('unverified');
      mailgun.domainState = 'active';
      expect(await preflight(expectations[7][0].id)).toMatchObject({ sender_authentication_status: 'verified', blocking_issues: [] });
      expect(await prisma.broadcastRun.count({ where: { broadcast_id: { in: expectations.slice(1).map(([b]) => b.id) } } })).toBe(0);
    });

    it('warns in a header, without blocking, when the HTML passes the size Gmail clips at or the footer has no postal address', async () => {
      const large = await create({ body_document: largeDocument() });
      const response = await h.as().get(`/v1/broadcasts/${large.id}/preflight`).expect(200);
      expect(response.headers['x-preflight-warnings']).toBe('message_may_be_clipped, postal_address_missing');
      expect(response.body.data.blocking_issues).toEqual([]);
      await h.app.get(WorkspaceService).updateProfile(trustedWorkspaceId(h.workspaceId), { address: '1 Harbour Road', city: 'Bristol' });
      const small = await h
        .as()
        .get(`/v1/broadcasts/${(await create()).id}/preflight`)
        .expect(200);
      expect(small.headers['x-preflight-warnings']).toBeUndefined();
      expect((await h.as().get(`/v1/broadcasts/${large.id}/preflight`).expect(200)).headers['x-preflight-warnings']).toBe('message_may_be_clipped');
    });

    it('says the event webhook is healthy once the provider reported feedback recently', async () => {
      const created = await create();
      await prisma.deliveryFeedbackReceipt.create({
        data: { connection_id: SINK, provider_event_id: 'evt-1', workspace_id: h.workspaceId, received_at: new Date() },
      });
      expect((await preflight(created.id)).event_webhook_health).toBe('healthy');
    });
  });

  describe('send', () => {
    it('starts a run (202): the broadcast runs, the outbox has the event, the preparation job is queued', async () => {
      const created = await create();
      const report = await preflight(created.id);
      const response = await send(created.id, { preflight_proof: report.send_proof }, 'send-once').expect(202);
      const { status, run_id, resource } = response.body.data;
      expect(status).toBe('running');
      expect(resource).toMatchObject({ id: created.id, status: 'running', recipient_count: ACTIVE, scheduled_at: null });
      expect(await latestRun(created.id)).toMatchObject({ id: run_id, phase: 'preparing', selected: ACTIVE, connection_id: SINK });
      const queue = h.app.get<Queue>(getQueueToken(EmailQueues.broadcastPrepare));
      expect((await queue.getJob(run_id))?.data).toEqual({ workspaceId: h.workspaceId, broadcastId: created.id, runId: run_id });
      const events = await prisma.outboxEvent.findMany({ where: { type: 'broadcast.state_changed', payload: { path: ['broadcast_id'], equals: created.id } } });
      expect(events.map((event) => event.payload)).toEqual([
        { broadcast_id: created.id, change: 'send_started', status: 'running', scheduled_at: null, run_id, phase: 'preparing' },
      ]);

      // The same key replays the answer; a new request is refused: it is no longer sendable.
      const replay = await send(created.id, { preflight_proof: report.send_proof }, 'send-once').expect(202);
      expect(replay.body.data.run_id).toBe(run_id);
      expect((await send(created.id).expect(409)).body.error.code).toBe('broadcast_not_sendable');
      expect(await prisma.broadcastRun.count({ where: { broadcast_id: created.id } })).toBe(1);
    });

    it('counts the same recipients in the preflight, the run and its materialisation', async () => {
      const created = await create({ audience_definition: byCountry('DE') });
      const estimate = (await preflight(created.id)).recipient_estimate;
      const { run_id } = (await send(created.id).expect(202)).body.data;
      const recipients = h.app.get(BroadcastRecipients, { strict: false });
      const audience = await recipients.compile(trustedWorkspaceId(h.workspaceId), byCountry('DE') as never);
      const written = await recipients.materialize(run_id, audience, null, 1000);
      expect([estimate, (await latestRun(created.id)).selected, written.inserted]).toEqual([3, 3, 3]);
    });

    it('sends a scheduled broadcast now, clearing its schedule (a null proof is no proof)', async () => {
      const created = await create();
      await h
        .as()
        .put(`/v1/broadcasts/${created.id}/schedule`)
        .send({ scheduled_at: new Date(Date.now() + 86_400_000).toISOString() })
        .expect(200);
      const { resource } = (await send(created.id, { preflight_proof: null }).expect(202)).body.data;
      expect(resource).toMatchObject({ status: 'running', scheduled_at: null });
    });

    it('refuses a proof from before a change (409: run the preflight again); the new proof sends', async () => {
      for (const change of [{ subject: 'Changed' }, { audience_definition: byCountry('DE') }, { connection_id: null }]) {
        const created = await create();
        const { send_proof } = await preflight(created.id);
        await h.as().put(`/v1/broadcasts/${created.id}`).send(change).expect(200);
        const stale = await send(created.id, { preflight_proof: send_proof }).expect(409);
        expect(stale.body.error).toMatchObject({ code: 'broadcast_changed_since_preflight', message: expect.stringContaining('preflight again') });
        expect(await prisma.broadcastRun.count({ where: { broadcast_id: created.id } })).toBe(0);
        if ('connection_id' in change) continue;
        const fresh = await preflight(created.id);
        await send(created.id, { preflight_proof: fresh.send_proof }).expect(202);
      }
    });

    it('sends on an expired proof after running the checks itself, and on a proof whose audience only grew', async () => {
      const created = await create();
      const secret = h.app.get<AppConfig>(APP_CONFIG).cursorSecret;
      const row = await prisma.broadcast.findUniqueOrThrow({ where: { id: created.id } });
      const claims = {
        workspaceId: h.workspaceId,
        broadcastId: created.id,
        contentVersion: row.content_version,
        audienceHash: audienceHash(null),
        connectionId: SINK,
      };
      const expired = new SendProofs(secret, -60_000).issue({ ...claims, recipients: 1 }, new Date()).proof;
      await send(created.id, { preflight_proof: expired }).expect(202);
      // The checks ran: the run starts from the exact count, not the proof's.
      expect((await latestRun(created.id)).selected).toBe(ACTIVE);

      const grown = await create();
      const { send_proof } = await preflight(grown.id);
      const late = (await h.as().post('/v1/subscribers').send({ email: 'late@example.com' }).expect(201)).body.data.id;
      await send(grown.id, { preflight_proof: send_proof }).expect(202);
      expect((await latestRun(grown.id)).selected).toBe(ACTIVE);
      await h.as().delete(`/v1/subscribers/${late}`).expect(204);
    });

    it("treats a proof that is not this broadcast's (another broadcast's or workspace's, or not ours) as none: the checks run, the run starts", async () => {
      const secret = h.app.get<AppConfig>(APP_CONFIG).cursorSecret;
      const other = await create();
      const { send_proof } = await preflight(other.id);
      const foreignWorkspace = (id: string) =>
        new SendProofs(secret).issue(
          { workspaceId: 'wsp_other', broadcastId: id, contentVersion: 1, audienceHash: audienceHash(null), connectionId: SINK, recipients: 1 },
          new Date(),
        ).proof;
      for (const proof of [send_proof, foreignWorkspace, 'bp1.forged.proof', '', send_proof.slice(0, -2)]) {
        const created = await create();
        const response = await send(created.id, { preflight_proof: typeof proof === 'string' ? proof : proof(created.id) }).expect(202);
        // The checks ran: the run starts from the exact count, not the foreign proof's.
        expect(await latestRun(created.id)).toMatchObject({ id: response.body.data.run_id, selected: ACTIVE });
      }
      // Since the checks run, another broadcast's passing proof does not let a blocked one through.
      const nobody = await create({ audience_definition: byCountry('JP') });
      const blocked = await send(nobody.id, { preflight_proof: send_proof }).expect(409);
      expect(blocked.body.error.code).toBe('broadcast_no_recipients');
      // The body is validated like any other: a proof that is not a string is refused before anything is read.
      const created = await create();
      const notString = await send(created.id, { preflight_proof: 42 }).expect(400);
      expect(notString.body.error).toMatchObject({ code: 'validation_failed', details: { field: 'preflight_proof' } });
      expect(await prisma.broadcastRun.count({ where: { broadcast_id: { in: [created.id, nobody.id] } } })).toBe(0);
      await send('brd_missing').expect(404);
    });
  });

  describe('progress and delivery errors', () => {
    it('has no send to show before one starts', async () => {
      const created = await create();
      const missing = await h.as().get(`/v1/broadcasts/${created.id}/progress`).expect(404);
      expect(missing.body.error.code).toBe('broadcast_send_not_found');
      expect((await h.as().get(`/v1/broadcasts/${created.id}/delivery-errors`).expect(200)).body.data).toEqual({ items: [], next_cursor: null });
    });

    it('reports every progress field from the run: counts, percent, rate, estimate and its basis, pause, terminal', async () => {
      const { id, runId } = await sentBroadcast();
      const progress = async () => (await h.as().get(`/v1/broadcasts/${id}/progress`).expect(200)).body.data;
      const first = await progress();
      expect(Object.keys(first).sort()).toEqual([...PROGRESS_FIELDS].sort());
      expect(first).toMatchObject({
        run_id: runId,
        phase: 'preparing',
        selected: ACTIVE,
        sent: 0,
        percent_complete: 0,
        effective_rate: 0,
        provider: 'custom-smtp',
        provider_limited_rate: 50,
        terminal: false,
        estimated_completion: null,
      });

      const now = Date.now();
      const counts = { materialized: 10, selected: 10, accepted: 4, permanent_failed: 1, unknown: 1, skipped: 1, retrying: 1 };
      await setPhase(runId, 'sending', { ...counts, sending_started_at: new Date(now - 10_000), last_progress_at: new Date(now) });
      const sending = await progress();
      expect(sending).toMatchObject({
        phase: 'sending',
        sent: 6,
        accepted: 4,
        skipped: 1,
        retrying: 1,
        percent_complete: 70,
        effective_rate: 0.6,
        estimated_completion_basis: 'current-rate',
        terminal: false,
      });
      // 3 left at 0.6 per second: about 5 seconds from now.
      expect(Date.parse(sending.estimated_completion) - Date.now()).toBeGreaterThan(3_000);
      expect(Date.parse(sending.estimated_completion) - Date.now()).toBeLessThan(6_000);

      const resumeAt = new Date(now + 3_600_000);
      await setPhase(runId, 'paused', {
        pause_reason: 'provider_throttled',
        pause_message: 'The provider asked to slow down.',
        next_retry_at: resumeAt,
        next_retry_action: 'resume',
      });
      const paused = await progress();
      expect(paused).toMatchObject({
        phase: 'paused',
        pause_reason: 'provider_throttled',
        next_retry_at: resumeAt.toISOString(),
        next_retry_action: 'resume',
        estimated_completion_basis: 'provider-quota',
      });
      expect(Date.parse(paused.estimated_completion)).toBeGreaterThan(resumeAt.getTime());

      await setPhase(runId, 'sent_with_errors', { finished_at: new Date() });
      expect(await progress()).toMatchObject({
        phase: 'sent_with_errors',
        terminal: true,
        percent_complete: 100,
        estimated_completion: null,
        estimated_completion_basis: null,
      });
    });

    it('lists failed and unknown deliveries of the send by id, paging with the integer cursor', async () => {
      const { id, runId } = await sentBroadcast();
      const subscribers = await prisma.subscriber.findMany({ where: { workspace_id: h.workspaceId }, orderBy: { id: 'asc' }, take: 4 });
      const states = ['failed', 'accepted', 'unknown', 'failed'];
      await prisma.broadcastDelivery.createMany({
        data: subscribers.map((s, i) => ({
          run_id: runId,
          workspace_id: h.workspaceId,
          subscriber_id: s.id,
          state: states[i],
          attempt_count: 1,
          error_code: states[i] === 'failed' ? '5.1.1' : null,
        })),
      });
      const rows = await prisma.broadcastDelivery.findMany({ where: { run_id: runId, state: { in: ['failed', 'unknown'] } }, orderBy: { id: 'asc' } });
      const path = `/v1/broadcasts/${id}/delivery-errors`;
      const first = (await h.as().get(`${path}?limit=2`).expect(200)).body.data;
      expect(first).toEqual({
        items: [
          {
            id: Number(rows[0].id),
            subscriber_id: rows[0].subscriber_id,
            outcome: 'failed',
            attempt_count: 1,
            error_code: '5.1.1',
            updated_at: expect.any(String),
          },
          {
            id: Number(rows[1].id),
            subscriber_id: rows[1].subscriber_id,
            outcome: 'unknown',
            attempt_count: 1,
            error_code: null,
            updated_at: expect.any(String),
          },
        ],
        next_cursor: Number(rows[1].id),
      });
      const second = (await h.as().get(`${path}?limit=2&cursor=${first.next_cursor}`).expect(200)).body.data;
      expect(second).toEqual({ items: [expect.objectContaining({ id: Number(rows[2].id), outcome: 'failed' })], next_cursor: null });
      for (const query of ['cursor=abc', 'cursor=-1', 'limit=0', 'limit=101']) {
        const bad = await h.as().get(`${path}?${query}`).expect(400);
        expect(bad.body.error.details.field).toBe(query.split('=')[0]);
      }
    });
  });

  describe('cancel', () => {
    const cancel = (id: string, key?: string) => {
      const test = h.as().post(`/v1/broadcasts/${id}/cancel`);
      return key ? test.set('idempotency-key', key) : test;
    };

    it('moves a preparing or sending run to canceling (changed), once; canceling and canceled answer unchanged', async () => {
      const { id, runId } = await sentBroadcast();
      const first = await cancel(id, 'cancel-1').expect(202);
      expect(first.body.data).toEqual({
        status: 'canceling',
        run_id: runId,
        changed: true,
        recovery_pending: false,
        message: expect.stringContaining('cannot be recalled'),
      });
      expect((await latestRun(id)).phase).toBe('canceling');
      expect((await cancel(id, 'cancel-1').expect(202)).headers['idempotent-replayed']).toBe('true');
      expect((await cancel(id).expect(202)).body.data).toMatchObject({ status: 'canceling', changed: false });
      await setPhase(runId, 'canceled');
      expect((await cancel(id).expect(202)).body.data).toMatchObject({ status: 'canceled', changed: false, recovery_pending: false });
      const events = await prisma.outboxEvent.findMany({
        where: { type: 'broadcast.state_changed', payload: { path: ['change'], equals: 'cancel_requested' } },
      });
      expect(events.map((event) => event.payload)).toEqual([
        { broadcast_id: id, change: 'cancel_requested', status: 'running', scheduled_at: null, run_id: runId, phase: 'canceling' },
      ]);

      const sending = await sentBroadcast();
      await delivery(sending.runId);
      await setPhase(sending.runId, 'sending');
      expect((await cancel(sending.id).expect(202)).body.data).toMatchObject({ status: 'canceling', changed: true });
    });

    it('saves the cancel of a paused run for recovery (recovery_pending)', async () => {
      const { id, runId } = await sentBroadcast();
      await delivery(runId, 'retrying');
      await setPhase(runId, 'paused', { next_retry_at: new Date(Date.now() + 3_600_000) });
      expect((await cancel(id).expect(202)).body.data).toMatchObject({ status: 'canceling', changed: true, recovery_pending: true });
    });

    it('answers the four cancel error codes', async () => {
      const never = await create();
      expect((await cancel(never.id).expect(404)).body.error.code).toBe('broadcast_send_not_found');
      await cancel('brd_missing').expect(404);

      for (const phase of ['sent', 'sent_with_errors', 'failed'] as const) {
        const { id, runId } = await sentBroadcast();
        await setPhase(runId, phase);
        expect((await cancel(id).expect(409)).body.error.code).toBe('broadcast_cancel_already_finished');
      }

      // Sending, with every delivery already handed off: only outcomes are left to record.
      const finishing = await sentBroadcast();
      await delivery(finishing.runId, 'sending');
      await setPhase(finishing.runId, 'sending');
      expect((await cancel(finishing.id).expect(409)).body.error.code).toBe('broadcast_cancel_finalization_started');

      // The send worker pauses the run between the cancel's read and its write: the cancel does not overwrite that.
      const raced = await sentBroadcast();
      const repository = h.app.get(BroadcastRepository, { strict: false });
      const spy = jest.spyOn(repository, 'hasUntriedDeliveries').mockImplementationOnce(async () => {
        await setPhase(raced.runId, 'paused');
        return true;
      });
      await setPhase(raced.runId, 'sending');
      expect((await cancel(raced.id).expect(409)).body.error.code).toBe('broadcast_cancel_concurrent_update');
      spy.mockRestore();
      expect((await latestRun(raced.id)).phase).toBe('paused');
    });
  });
});
