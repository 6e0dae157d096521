import { Test, TestingModule } from '@nestjs/testing';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { ConfigModule, loadConfig } from '@shared/config';
import { CoreModule } from '@shared/core';
import { until, WebhookReceiver, WebhookReceiverOptions } from '@shared/testing';
import { WEBHOOK_CLIENT_OPTIONS, WebhookDispatcher } from '@shared/webhooks';
import { FormsDataAccessModule, FormsPrisma } from '@forms/data-access';
import { FormsWebhookDispatchModule } from '@forms/webhooks';
import { Account, formsApi, FormsApiHarness, twoStepDraft } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const headersOf = (received: { headers: Record<string, unknown> }) => ({
  'webhook-id': String(received.headers['webhook-id']),
  'webhook-timestamp': String(received.headers['webhook-timestamp']),
  'webhook-signature': String(received.headers['webhook-signature']),
});

describe('forms-api: workspace webhook endpoints, delivered by the forms dispatcher', () => {
  let api: FormsApiHarness;
  let tls: WebhookReceiver;
  const receivers: WebhookReceiver[] = [];
  const dispatchers: TestingModule[] = [];
  let accounts = 0;

  /** forms-worker's dispatch pipeline on the API's database, with fast retries and the receivers' certificate trusted. */
  async function startDispatcher(webhooks: Partial<ReturnType<typeof loadConfig>['webhooks']> = {}) {
    const base = loadConfig({ NODE_ENV: 'test' });
    const config = {
      formsDatabaseUrl: api.db.url,
      webhooks: { ...base.webhooks, allowLoopback: true, retryUnitMs: 20, pollIntervalMs: 20, timeoutMs: 2000, ...webhooks },
    };
    const module = await Test.createTestingModule({
      imports: [ConfigModule.forRoot({}, config), CoreModule, FormsDataAccessModule, FormsWebhookDispatchModule],
    })
      .overrideProvider(WEBHOOK_CLIENT_OPTIONS)
      .useValue({ ca: tls.ca })
      .compile();
    await module.init();
    module.get(WebhookDispatcher).start();
    dispatchers.push(module);
    return module;
  }

  async function receiver(options: WebhookReceiverOptions = {}) {
    const made = await WebhookReceiver.start(options);
    receivers.push(made);
    return made;
  }

  /** A fresh account (owner of its own workspace) with a published two-step form. */
  async function workspaceWithForm(): Promise<Account & { formId: string; publicId: string }> {
    const account = await api.newAccount(`hooks${++accounts}@example.com`);
    const created = await api.as(account.key).post('/api/v1/forms').send({ draftSchema: twoStepDraft() }).expect(201);
    await api.as(account.key).post(`/api/v1/forms/${created.body.data.id}/publish`).send({}).expect(200);
    return { ...account, formId: created.body.data.id, publicId: created.body.data.public_id };
  }

  const hooks = (account: Account) => `/api/workspaces/${account.workspaceId}/webhooks`;
  const createEndpoint = (account: Account, body: object) => api.as(account.key).post(hooks(account)).send(body);
  /** One endpoint's operations as `caller`, under `workspace`'s path. */
  const endpoint = (caller: Account, id: string, workspace: Account = caller) => {
    const path = `${hooks(workspace)}/${id}`;
    const agent = api.as(caller.key);
    return {
      get: () => agent.get(path),
      patch: (body: object) => agent.patch(path).send(body),
      delete: () => agent.delete(path),
      rotate: () => agent.post(`${path}/rotate-secret`),
    };
  };
  const submitPublicly = (publicId: string, answers: object) =>
    request(api.app.getHttpServer()).post(`/api/public/forms/${publicId}/submissions`).send(answers).expect(201);

  beforeAll(async () => {
    // Production's destination rules for the API (loopback added); the dispatchers started below deliver to loopback only.
    api = await formsApi({ WEBHOOKS_ALLOW_LOOPBACK: 'true', ALLOW_NON_LOOPBACK_HOSTS: 'true' });
    tls = await receiver({ tls: true });
    await startDispatcher();
  });

  afterAll(async () => {
    for (const module of dispatchers) {
      await module.get(WebhookDispatcher).stop();
      await module.close();
    }
    for (const made of receivers) await made.stop();
    await api?.close();
  });

  describe('endpoints', () => {
    it('creates (the secret shown once), lists, gets, updates and deletes', async () => {
      const owner = await workspaceWithForm();
      const created = await createEndpoint(owner, { url: 'https://8.8.8.8/hooks', events: ['form.submission.created'], description: ' CRM ' }).expect(201);
      expect(created.body.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const made = created.body.data;
      expect(made).toMatchObject({
        id: expect.stringMatching(/^whe_/),
        workspace_id: owner.workspaceId,
        url: 'https://8.8.8.8/hooks',
        description: 'CRM',
        status: 'active',
        events: ['form.submission.created'],
        signing_secret_preview: `whsec_…${created.body.signing_secret.slice(-4)}`,
        delivery_attempts: 0,
        last_delivery_status: null,
      });

      const listed = await api.as(owner.key).get(hooks(owner)).expect(200);
      expect(listed.body).toEqual({ data: [made], next_cursor: null });
      expect(JSON.stringify(listed.body)).not.toContain(created.body.signing_secret.slice(6));
      await endpoint(owner, made.id).get().expect(200, { data: made });

      const updated = await endpoint(owner, made.id).patch({ status: 'disabled', description: null }).expect(200);
      expect(updated.body.data).toMatchObject({ status: 'disabled', description: null, url: made.url });
      const empty = await endpoint(owner, made.id).patch({}).expect(400);
      expect(empty.body.error).toMatchObject({ code: 'validation_failed', details: { field: 'body' } });

      await endpoint(owner, made.id).delete().expect(200, { ok: true, id: made.id });
      const gone = await endpoint(owner, made.id).get().expect(404);
      expect(gone.body.error.code).toBe('webhook_endpoint_not_found');
      await endpoint(owner, made.id).delete().expect(404);
    });

    it.each([
      ['not a url', 'url', 'invalid_webhook_url'],
      ['http://example.com/hook', 'url', 'invalid_webhook_url'],
      ['https://10.0.0.1/hook', 'url', 'invalid_webhook_url'],
      ['https://169.254.169.254/latest', 'url', 'invalid_webhook_url'],
      ['https://user:pw@example.com/hook', 'url', 'invalid_webhook_url'],
      ['https://[fd00::1]/hook', 'url', 'invalid_webhook_url'],
    ])('refuses the destination %s with 400 naming %s, writing nothing', async (url, field, code) => {
      const owner = await workspaceWithForm();
      const res = await createEndpoint(owner, { url, events: ['form.submission.created'] }).expect(400);
      expect(res.body.error).toMatchObject({ code, details: { field } });
      expect(await api.app.get(FormsPrisma).webhookEndpoint.count({ where: { workspace_id: owner.workspaceId } })).toBe(0);
    });

    it('refuses unknown event types, no events, unknown properties and a private URL on update, naming the field', async () => {
      const owner = await workspaceWithForm();
      const wrong = await createEndpoint(owner, { url: 'https://8.8.8.8/', events: ['form.submission.created', 'form.deleted'] }).expect(400);
      expect(wrong.body.error).toMatchObject({ code: 'invalid_event_type', details: { field: 'events[1]' } });
      expect(wrong.body.error.message).toContain('"form.deleted"');
      const none = await createEndpoint(owner, { url: 'https://8.8.8.8/', events: [] }).expect(400);
      expect(none.body.error).toMatchObject({ code: 'invalid_event_type', details: { field: 'events' } });
      const extra = await createEndpoint(owner, { url: 'https://8.8.8.8/', events: ['form.submission.created'], secret: 'x' }).expect(400);
      expect(extra.body.error.details.field).toBe('secret');

      const { body } = await createEndpoint(owner, { url: 'https://8.8.8.8/', events: ['form.submission.created'] }).expect(201);
      const moved = await endpoint(owner, body.data.id).patch({ url: 'https://192.168.0.10/' }).expect(400);
      expect(moved.body.error).toMatchObject({ code: 'invalid_webhook_url', details: { field: 'url' } });
      expect((await endpoint(owner, body.data.id).get().expect(200)).body.data.url).toBe('https://8.8.8.8/');
    });

    it('caps a workspace at 20 endpoints, disabled ones included', async () => {
      const owner = await workspaceWithForm();
      for (let i = 0; i < 20; i++) {
        await createEndpoint(owner, { url: `https://8.8.8.8/${i}`, events: ['form.submission.created'], status: i % 2 ? 'disabled' : 'active' }).expect(201);
      }
      const over = await createEndpoint(owner, { url: 'https://8.8.8.8/21', events: ['form.submission.created'] }).expect(409);
      expect(over.body.error).toMatchObject({ code: 'webhook_endpoint_limit_exceeded', limit: 20 });
    });

    it('keeps each workspace to itself: another workspace and its endpoints are 404s, a viewer or narrow key is refused', async () => {
      const owner = await workspaceWithForm();
      const stranger = await workspaceWithForm();
      const { body } = await createEndpoint(stranger, { url: 'https://8.8.8.8/', events: ['form.submission.created'] }).expect(201);

      expect((await api.as(owner.key).get(hooks(stranger)).expect(404)).body.error.code).toBe('workspace_not_found');
      await endpoint(owner, body.data.id, stranger).rotate().expect(404);
      expect((await endpoint(owner, body.data.id).get().expect(404)).body.error.code).toBe('webhook_endpoint_not_found');
      await endpoint(owner, body.data.id).patch({ status: 'disabled' }).expect(404);
      await endpoint(owner, body.data.id).delete().expect(404);
      expect((await api.as(owner.key).get(hooks(owner)).expect(200)).body.data).toEqual([]);
      // NUL cannot be stored and malformed percent-encoding cannot be read: 400s before any query, never a 500.
      const unusable = await Promise.all([
        api.as(owner.key).get(`${hooks(owner)}/%00`),
        api
          .as(owner.key)
          .patch(`${hooks(owner)}/%00`)
          .send({ status: 'active' }),
        api.as(owner.key).post(`${hooks(owner)}/%ED%A0%80/rotate-secret`),
        api.as(owner.key).get('/api/workspaces/%00/webhooks'),
      ]);
      expect(unusable.map((res) => `${res.status} ${res.body.error?.code}`)).toEqual([
        '400 invalid_characters',
        '400 invalid_characters',
        '400 invalid_path',
        '400 invalid_characters',
      ]);

      await api.app.get(FormsPrisma).membership.create({ data: { workspace_id: stranger.workspaceId, owner_id: owner.ownerId, role: 'editor' } });
      const editor = await api.as(owner.key).get(hooks(stranger)).expect(403);
      expect(editor.body.error).toMatchObject({ code: 'insufficient_role', required_roles: ['owner'] });

      const narrow = await api.keyWith(stranger.ownerId, ['forms:read']);
      expect((await api.as(narrow).get(hooks(stranger)).expect(403)).body.error.code).toBe('insufficient_scope');
      await api.as('').get(hooks(stranger)).expect(401);
      expect(await api.app.get(FormsPrisma).webhookEndpoint.count({ where: { workspace_id: stranger.workspaceId, status: 'active' } })).toBe(1);
    });
  });

  describe('delivery', () => {
    it('a public submission reaches the endpoint once, signed so standardwebhooks verifies it, with ids and answers only', async () => {
      const owner = await workspaceWithForm();
      const { body } = await createEndpoint(owner, { url: tls.url(`/${owner.workspaceId}`, 'localhost'), events: ['form.submission.created'] }).expect(201);
      const submitted = await submitPublicly(owner.publicId, { fld_name: 'Ada Lovelace', fld_email: 'ada@example.com' });
      const submission = submitted.body.submission;

      const arrived = await until('delivery', () => tls.received.find((r) => r.path === `/${owner.workspaceId}`));
      const event = new Webhook(body.signing_secret).verify(arrived.body, headersOf(arrived)) as Record<string, unknown>;
      expect(Object.keys(event)).toEqual(['id', 'type', 'created_at', 'workspace_id', 'data']);
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'form.submission.created',
        created_at: submission.createdAt,
        workspace_id: owner.workspaceId,
        data: {
          submission: {
            id: submission.id,
            form_id: owner.formId,
            published_version: 1,
            created_at: submission.createdAt,
            answers: { fld_name: 'Ada Lovelace', fld_email: 'ada@example.com' },
          },
        },
      });
      expect(arrived.headers['webhook-id']).toBe(`msg_${String(event.id).slice(4)}${body.data.id.slice(4)}`);
      expect(arrived.body).not.toMatch(/payment|analytics|label/i);
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(arrived.body, headersOf(arrived))).toThrow();

      await until('recorded', async () => (await endpoint(owner, body.data.id).get()).body.data.delivery_attempts === 1);
      await sleep(200);
      expect(tls.received.filter((r) => r.path === `/${owner.workspaceId}`)).toHaveLength(1);
      const shown = (await endpoint(owner, body.data.id).get().expect(200)).body.data;
      expect(shown).toMatchObject({ last_delivery_status: 'delivered', last_delivery_error: null, last_delivered_at: expect.any(String) });
    });

    it('a duplicate submission writes no second event; a disabled endpoint and another workspace receive nothing', async () => {
      const owner = await workspaceWithForm();
      const other = await workspaceWithForm();
      const sink = await receiver();
      await createEndpoint(owner, { url: sink.url('/owner'), events: ['form.submission.created'] }).expect(201);
      await createEndpoint(owner, { url: sink.url('/disabled'), events: ['form.submission.created'], status: 'disabled' }).expect(201);
      await createEndpoint(other, { url: sink.url('/other'), events: ['form.submission.created'] }).expect(201);
      const answers = { values: { fld_name: 'Ada', fld_email: 'ada@example.com' }, analyticsSessionId: 'ses_dup' };
      await submitPublicly(owner.publicId, answers);
      await request(api.app.getHttpServer()).post(`/api/public/forms/${owner.publicId}/submissions`).send(answers).expect(409);

      await until('delivery', () => sink.received.length >= 1);
      await sleep(300);
      expect(sink.received.map((r) => r.path)).toEqual(['/owner']);
      const events = await api.app.get(FormsPrisma).outboxEvent.findMany({ where: { workspace_id: owner.workspaceId } });
      expect(events).toHaveLength(1);
    });

    it('retries a receiver that fails twice with the same webhook-id, then records the success', async () => {
      const owner = await workspaceWithForm();
      const flaky = await receiver({ answer: (_, index) => ({ status: index < 2 ? 500 : 204 }) });
      const { body } = await createEndpoint(owner, { url: flaky.url(), events: ['form.submission.created'] }).expect(201);
      await submitPublicly(owner.publicId, { fld_name: 'Grace', fld_email: 'grace@example.com' });

      await until('third attempt', () => flaky.received.length >= 3);
      expect(new Set(flaky.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      for (const attempt of flaky.received) expect(() => new Webhook(body.signing_secret).verify(attempt.body, headersOf(attempt))).not.toThrow();
      const shown = await until('recorded', async () => {
        const current = (await endpoint(owner, body.data.id).get()).body.data;
        return current.delivery_attempts === 3 && current;
      });
      expect(shown).toMatchObject({ status: 'active', last_delivery_status: 'delivered', last_delivery_error: null, last_failed_at: expect.any(String) });
      await sleep(200);
      expect(flaky.received).toHaveLength(3);
    });

    it('signs with the rotated secret only, from the next delivery on', async () => {
      const owner = await workspaceWithForm();
      const sink = await receiver();
      const { body } = await createEndpoint(owner, { url: sink.url(), events: ['form.submission.created'] }).expect(201);
      const rotated = await endpoint(owner, body.data.id).rotate().expect(200);
      expect(rotated.body.signing_secret).not.toBe(body.signing_secret);
      expect(rotated.body.data.signing_secret_preview).toBe(`whsec_…${rotated.body.signing_secret.slice(-4)}`);

      await submitPublicly(owner.publicId, { fld_name: 'Edsger', fld_email: 'ed@example.com' });
      const [arrived] = await until('delivery', () => sink.received.length >= 1 && sink.received);
      expect(() => new Webhook(rotated.body.signing_secret).verify(arrived.body, headersOf(arrived))).not.toThrow();
      expect(() => new Webhook(body.signing_secret).verify(arrived.body, headersOf(arrived))).toThrow();
    });

    it('disables an endpoint failing for longer than the allowed stretch, saying why', async () => {
      const owner = await workspaceWithForm();
      const broken = await receiver({ answer: () => ({ status: 503 }) });
      await dispatchers[0].get(WebhookDispatcher).stop();
      const impatient = await startDispatcher({ disableAfterMs: 300 });
      const { body } = await createEndpoint(owner, { url: broken.url(), events: ['form.submission.created'] }).expect(201);
      await submitPublicly(owner.publicId, { fld_name: 'Barbara', fld_email: 'barbara@example.com' });

      const shown = await until('disabled', async () => {
        const current = (await endpoint(owner, body.data.id).get()).body.data;
        return current.status === 'disabled' && current;
      });
      expect(shown.last_delivery_status).toBe('failed');
      expect(shown.last_delivery_error).toMatch(/^Disabled automatically: no delivery has succeeded since .*Z\. Last error: The receiver answered 503\.$/);
      await impatient.get(WebhookDispatcher).stop();
    });
  });
});
