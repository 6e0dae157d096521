import { EmailPrisma } from '@email/data-access';
import { SubscriptionSecrets } from '@email/webhooks';
import { emailApi, EmailApiHarness } from './helpers';

describe('email-api: webhook subscriptions', () => {
  let h: EmailApiHarness;
  beforeAll(async () => {
    // Production's destination rules; the API only checks destinations here, nothing is delivered.
    h = await emailApi({ ALLOW_NON_LOOPBACK_HOSTS: 'true' });
  });
  afterAll(() => h?.close());

  const body = (over: Record<string, unknown> = {}) => ({
    name: `Hook ${Math.random().toString(36).slice(2)}`,
    url: 'https://8.8.8.8/events',
    event_patterns: ['subscriber.created', 'subscriber.updated'],
    ...over,
  });
  const freshWorkspace = async () => h.as((await h.newWorkspace('Hooks')).api_key);

  it('create returns the secret once; get, list, update, rotate, delete', async () => {
    const created = await h
      .as()
      .post('/v1/webhook-subscriptions')
      .send(body({ name: 'CRM Subscriber Updates', status: 'active' }))
      .expect(201);
    const { subscription, signing_secret } = created.body.data;
    expect(Object.keys(created.body.data).sort()).toEqual(['signing_secret', 'subscription']);
    expect(signing_secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    expect(subscription).toEqual({
      self: `/v1/webhook-subscriptions/${subscription.id}`,
      id: expect.stringMatching(/^wsb_/),
      name: 'CRM Subscriber Updates',
      url: 'https://8.8.8.8/events',
      status: 'active',
      event_patterns: ['subscriber.created', 'subscriber.updated'],
      signing_secret_preview: `whsec_…${signing_secret.slice(-4)}`,
      delivery_attempts: 0,
      last_delivery_status: null,
      last_delivery_error: null,
      last_delivered_at: null,
      last_failed_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await h.as().get(`/v1/webhook-subscriptions/${subscription.id}`).expect(200);
    expect(got.body.data).toEqual(subscription);
    expect(JSON.stringify(got.body)).not.toContain(signing_secret);
    const list = await h.as().get('/v1/webhook-subscriptions').expect(200);
    expect(list.body).toEqual({ data: [subscription], pagination: { has_more: false, next_cursor: null } });

    const updated = await h
      .as()
      .put(`/v1/webhook-subscriptions/${subscription.id}`)
      .send({ status: 'disabled', event_patterns: ['*'] })
      .expect(200);
    expect(updated.body.data).toMatchObject({ name: 'CRM Subscriber Updates', status: 'disabled', event_patterns: ['*'] });
    expect((await h.as().put(`/v1/webhook-subscriptions/${subscription.id}`).send({}).expect(400)).body.error.code).toBe('empty_update');

    const stored = async () => (await h.app.get(EmailPrisma).webhookSubscription.findUniqueOrThrow({ where: { id: subscription.id } })).signing_secret;
    const secrets = h.app.get(SubscriptionSecrets, { strict: false });
    expect(secrets.open(subscription.id, await stored())).toBe(signing_secret);
    expect(await stored()).not.toContain(signing_secret.slice(6));
    const rotated = await h.as().post(`/v1/webhook-subscriptions/${subscription.id}/rotate-secret`).expect(200);
    expect(rotated.body.data.signing_secret).not.toBe(signing_secret);
    expect(rotated.body.data.subscription.signing_secret_preview).toBe(`whsec_…${rotated.body.data.signing_secret.slice(-4)}`);
    // What webhook-worker signs with from now on: the new secret only, sealed at rest.
    expect(secrets.open(subscription.id, await stored())).toBe(rotated.body.data.signing_secret);

    const deleted = await h.as().delete(`/v1/webhook-subscriptions/${subscription.id}`).expect(200);
    expect(deleted.body).toEqual({ data: { id: subscription.id, deleted: true } });
    for (const [method, path] of [
      ['get', ''],
      ['put', ''],
      ['delete', ''],
      ['post', '/rotate-secret'],
    ] as const) {
      const res = await h.as().request(method, `/v1/webhook-subscriptions/${subscription.id}${path}`).send({ name: 'x' }).expect(404);
      expect(res.body.error.code).toBe('webhook_subscription_not_found');
    }
  });

  it('keeps workspaces apart', async () => {
    const mine = (await h.as().post('/v1/webhook-subscriptions').send(body()).expect(201)).body.data.subscription;
    const other = await freshWorkspace();
    await other.get(`/v1/webhook-subscriptions/${mine.id}`).expect(404);
    await other.put(`/v1/webhook-subscriptions/${mine.id}`).send({ name: 'Mine now' }).expect(404);
    await other.post(`/v1/webhook-subscriptions/${mine.id}/rotate-secret`).expect(404);
    await other.delete(`/v1/webhook-subscriptions/${mine.id}`).expect(404);
    expect((await other.get('/v1/webhook-subscriptions').expect(200)).body.data).toEqual([]);
  });

  it('allows 20 subscriptions per workspace, disabled ones included, then 409', async () => {
    const api = await freshWorkspace();
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.post('/v1/webhook-subscriptions').send(body({ name: `Hook ${i}`, status: i % 2 ? 'disabled' : 'active' }))),
    );
    expect(made.map((res) => res.status)).toEqual(Array(20).fill(201));
    const refused = await api.post('/v1/webhook-subscriptions').send(body()).expect(409);
    expect(refused.body.error).toMatchObject({ type: 'conflict', code: 'webhook_subscription_limit_exceeded' });
    await api.delete(`/v1/webhook-subscriptions/${made[0].body.data.subscription.id}`).expect(200);
    await api.post('/v1/webhook-subscriptions').send(body()).expect(201);
  });

  it('refuses the 21st even when created concurrently', async () => {
    const api = await freshWorkspace();
    const made = await Promise.all(Array.from({ length: 25 }, (_, i) => api.post('/v1/webhook-subscriptions').send(body({ name: `Race ${i}` }))));
    expect(made.filter((res) => res.status === 201)).toHaveLength(20);
    expect(made.filter((res) => res.status === 409)).toHaveLength(5);
  });

  it('409 on a duplicate name, at create and at update', async () => {
    await h
      .as()
      .post('/v1/webhook-subscriptions')
      .send(body({ name: 'Same' }))
      .expect(201);
    const dup = await h
      .as()
      .post('/v1/webhook-subscriptions')
      .send(body({ name: 'Same' }))
      .expect(409);
    expect(dup.body.error).toMatchObject({ code: 'webhook_subscription_name_taken', details: { field: 'name' } });
    const other = (await h.as().post('/v1/webhook-subscriptions').send(body()).expect(201)).body.data.subscription;
    expect((await h.as().put(`/v1/webhook-subscriptions/${other.id}`).send({ name: 'Same' }).expect(409)).body.error.code).toBe(
      'webhook_subscription_name_taken',
    );
  });

  it('accepts the 15 event names and patterns only, naming the one refused', async () => {
    const all = (await h.as().get('/v1/capabilities').expect(200)).body.data.events.supported_event_patterns as string[];
    expect(all).toHaveLength(15);
    await h
      .as()
      .post('/v1/webhook-subscriptions')
      .send(body({ event_patterns: all }))
      .expect(201);
    for (const [patterns, field] of [
      [['subscriber.created', 'subscriber.deleted'], 'event_patterns[1]'],
      [['subscriber.*.x'], 'event_patterns[0]'],
      [['Subscriber.created'], 'event_patterns[0]'],
      [[], 'event_patterns'],
    ] as const) {
      const res = await h
        .as()
        .post('/v1/webhook-subscriptions')
        .send(body({ event_patterns: patterns }))
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_event_pattern', details: { field } });
      if (patterns.length) expect(res.body.error.message).toContain(`"${patterns[patterns.length - 1]}"`);
    }
    const res = await h
      .as()
      .post('/v1/webhook-subscriptions')
      .send(body({ event_patterns: 'subscriber.created' }))
      .expect(400);
    expect(res.body.error.details.field).toBe('event_patterns');
    const nullStatus = await h
      .as()
      .post('/v1/webhook-subscriptions')
      .send(body({ status: null }))
      .expect(400);
    expect(nullStatus.body.error).toMatchObject({ code: 'validation_failed', details: { field: 'status' } });
  });

  it("needs the read scope of every family subscribed to, and all of them for '*'", async () => {
    const key = await h.keyWith(['webhooks:read', 'webhooks:write', 'live_actions:write', 'subscribers:read']);
    await h
      .as(key)
      .post('/v1/webhook-subscriptions')
      .send(body({ event_patterns: ['subscriber.*'] }))
      .expect(201);
    const broadcast = await h
      .as(key)
      .post('/v1/webhook-subscriptions')
      .send(body({ event_patterns: ['subscriber.created', 'broadcast.state_changed'] }))
      .expect(403);
    expect(broadcast.body.error).toMatchObject({ code: 'insufficient_scope', missing_scopes: ['broadcasts:read'] });
    const everything = await h
      .as(key)
      .post('/v1/webhook-subscriptions')
      .send(body({ event_patterns: ['*'] }))
      .expect(403);
    expect(everything.body.error.missing_scopes).toEqual(['form_submissions:read', 'landing_page_submissions:read', 'broadcasts:read', 'automations:read']);
    const existing = (
      await h
        .as()
        .post('/v1/webhook-subscriptions')
        .send(body({ event_patterns: ['form.submitted'] }))
        .expect(201)
    ).body.data.subscription;
    await h.as(key).put(`/v1/webhook-subscriptions/${existing.id}`).send({ name: 'Renamed' }).expect(403);
    await h
      .as(key)
      .put(`/v1/webhook-subscriptions/${existing.id}`)
      .send({ event_patterns: ['subscriber.updated'] })
      .expect(200);
  });

  it.each([
    'http://hooks.postline.test/events',
    'https://127.0.0.1/events',
    'https://localhost:8443/events',
    'https://10.0.0.1/events',
    'https://172.16.5.4/events',
    'https://192.168.0.10/events',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/events',
    'https://224.0.0.1/events',
    'https://0.0.0.0/events',
    'https://192.0.2.1/events',
    'https://[::1]/events',
    'https://[fd00::1]/events',
    'https://[fe80::1]/events',
    'https://[::ffff:10.0.0.1]/events',
    'https://user:secret@hooks.postline.test/events',
    'not a url',
  ])('refuses %s as a destination, at create and at update', async (url) => {
    const res = await h.as().post('/v1/webhook-subscriptions').send(body({ url })).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_webhook_url', details: { field: 'url' } });
    expect(JSON.stringify(res.body)).not.toContain('secret@');
    const existing = (await h.as().post('/v1/webhook-subscriptions').send(body()).expect(201)).body.data.subscription;
    expect((await h.as().put(`/v1/webhook-subscriptions/${existing.id}`).send({ url }).expect(400)).body.error.code).toBe('invalid_webhook_url');
    await h.as().delete(`/v1/webhook-subscriptions/${existing.id}`).expect(200);
  });
});
