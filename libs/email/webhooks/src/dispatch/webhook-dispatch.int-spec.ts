import { Test, TestingModule } from '@nestjs/testing';
import { Webhook } from 'standardwebhooks';
import { ConfigModule, loadConfig } from '@shared/config';
import { CoreModule } from '@shared/core';
import { EmailDataAccessModule } from '@email/data-access';
import { until, WebhookReceiver, WebhookReceiverOptions, useTestDatabase } from '@shared/testing';
import { newSigningSecret, WEBHOOK_CLIENT_OPTIONS, WebhookClientOptions, WebhookDispatcher } from '@shared/webhooks';
import { SubscriptionSecrets } from '../subscriptions/subscription-secrets';
import { EmailWebhookStore } from './email-webhook-store';
import { WebhookDispatchModule } from './webhook-dispatch.module';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook dispatch: outbox fan-out, signed delivery, retries, auto-disable', () => {
  const db = useTestDatabase('email');
  let module: TestingModule;
  let secrets: SubscriptionSecrets;
  const receivers: WebhookReceiver[] = [];
  let counter = 0;

  afterEach(async () => {
    await module?.get(WebhookDispatcher).stop();
    await module?.close();
    for (const receiver of receivers.splice(0)) await receiver.stop();
  });

  /** A fresh workspace and a dispatcher started on it with fast settings (the HTTPS receivers' certificate trusted). */
  async function start(
    webhooks: Partial<ReturnType<typeof loadConfig>['webhooks']> = {},
    ca?: string,
    resolve?: WebhookClientOptions['resolve'],
    allowNonLoopbackHosts = false,
  ) {
    const base = loadConfig({ NODE_ENV: 'test' });
    const config = {
      emailDatabaseUrl: db.url,
      allowNonLoopbackHosts,
      webhooks: { ...base.webhooks, allowLoopback: true, retryUnitMs: 20, pollIntervalMs: 20, timeoutMs: 2000, ...webhooks },
    };
    module = await Test.createTestingModule({ imports: [ConfigModule.forRoot({}, config), CoreModule, EmailDataAccessModule, WebhookDispatchModule] })
      .overrideProvider(WEBHOOK_CLIENT_OPTIONS)
      .useValue({ ca, resolve })
      .compile();
    await module.init();
    secrets = module.get(SubscriptionSecrets);
    const workspace = `wsp_hooks${++counter}`;
    await db.client.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ($1, 'Hooks', now())`, [workspace]);
    module.get(WebhookDispatcher).start();
    return workspace;
  }

  async function receiver(options: WebhookReceiverOptions = {}) {
    const made = await WebhookReceiver.start(options);
    receivers.push(made);
    return made;
  }

  async function subscribe(workspace: string, url: string, patterns: string[], status = 'active') {
    const id = `wsb_${workspace}_${++counter}`;
    const secret = newSigningSecret();
    await db.client.query(
      `INSERT INTO webhook_subscriptions (id, workspace_id, name, url, status, event_patterns, signing_secret, signing_secret_preview, updated_at)
       VALUES ($1, $2, $1, $3, $4, $5, $6, 'whsec_…', now())`,
      [id, workspace, url, status, patterns, secrets.seal(id, secret)],
    );
    return { id, secret };
  }

  async function emit(workspace: string, type: string, count = 1): Promise<string[]> {
    const ids = Array.from({ length: count }, () => `evt_${workspace}_${++counter}`);
    for (const id of ids) {
      await db.client.query(`INSERT INTO outbox_events (id, workspace_id, type, payload) VALUES ($1, $2, $3, $4)`, [
        id,
        workspace,
        type,
        { subscriber: { id: `sub_${id}` } },
      ]);
    }
    return ids;
  }

  const subscription = async (id: string) => (await db.client.query(`SELECT * FROM webhook_subscriptions WHERE id = $1`, [id])).rows[0];
  const headersOf = (request: { headers: Record<string, unknown> }) => ({
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });

  it('delivers each event to every matching active subscription over HTTPS, signed so standardwebhooks verifies it', async () => {
    const https = await receiver({ tls: true });
    const workspace = await start({}, https.ca);
    const all = await subscribe(workspace, https.url('/all', 'localhost'), ['*']);
    const created = await subscribe(workspace, https.url('/created'), ['subscriber.created']);
    await subscribe(workspace, https.url('/forms'), ['form.*']);
    await subscribe(workspace, https.url('/disabled'), ['*'], 'disabled');
    const [createdEvent] = await emit(workspace, 'subscriber.created');
    const [updatedEvent] = await emit(workspace, 'subscriber.updated');

    await until('three deliveries', () => https.received.length >= 3);
    await sleep(200);
    expect(https.received.map((r) => r.path).sort()).toEqual(['/all', '/all', '/created']);
    for (const request of https.received) {
      const secret = request.path === '/all' ? all.secret : created.secret;
      const body = new Webhook(secret).verify(request.body, headersOf(request)) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'workspace_id', 'data']);
      expect(body).toMatchObject({ workspace_id: workspace, data: { subscriber: { id: `sub_${body.id}` } } });
      expect(request.body).not.toContain('@');
      expect(request.headers['webhook-id']).toBe(`msg_${String(body.id).slice(4)}${(request.path === '/all' ? all.id : created.id).slice(4)}`);
    }
    expect(https.received.find((r) => r.path === '/created')!.body).toContain(createdEvent);
    expect(
      https.received
        .filter((r) => r.path === '/all')
        .map((r) => JSON.parse(r.body).id)
        .sort(),
    ).toEqual([createdEvent, updatedEvent].sort());
    await until('recorded', async () => (await subscription(all.id)).delivery_attempts === 2);
    expect(await subscription(all.id)).toMatchObject({ last_delivery_status: 'delivered', last_delivery_error: null, last_failed_at: null });
    expect((await subscription(all.id)).last_delivered_at).toBeInstanceOf(Date);
  });

  it('retries a receiver that fails twice with the same webhook-id, then records the success', async () => {
    const flaky = await receiver({ answer: (_, index) => ({ status: index < 2 ? 500 : 204 }) });
    const workspace = await start();
    const { id, secret } = await subscribe(workspace, flaky.url(), ['subscriber.*']);
    await emit(workspace, 'subscriber.status_changed');
    await until('third attempt', () => flaky.received.length >= 3);
    expect(new Set(flaky.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const request of flaky.received) expect(() => new Webhook(secret).verify(request.body, headersOf(request))).not.toThrow();
    await until('recorded', async () => (await subscription(id)).delivery_attempts === 3);
    const row = await subscription(id);
    expect(row).toMatchObject({ status: 'active', last_delivery_status: 'delivered', last_delivery_error: null, failing_since: null });
    expect(row.last_failed_at).toBeInstanceOf(Date);
    const delivery = (await db.client.query(`SELECT state, attempts, last_status FROM webhook_deliveries WHERE subscription_id = $1`, [id])).rows;
    expect(delivery).toEqual([{ state: 'delivered', attempts: 3, last_status: 204 }]);
    expect(flaky.received).toHaveLength(3);
  });

  it('disables a subscription failing for longer than the allowed stretch, saying why', async () => {
    const broken = await receiver({ answer: () => ({ status: 503 }) });
    const workspace = await start({ disableAfterMs: 300 });
    const { id } = await subscribe(workspace, broken.url(), ['*']);
    await emit(workspace, 'broadcast.state_changed');
    const row = await until('disabled', async () => {
      const current = await subscription(id);
      return current.status === 'disabled' && current;
    });
    expect(row.last_delivery_status).toBe('failed');
    expect(row.last_delivery_error).toMatch(/^Disabled automatically: no delivery has succeeded since .*Z\. Last error: The receiver answered 503\.$/);
    const attempts = broken.received.length;
    await emit(workspace, 'broadcast.state_changed');
    await sleep(300);
    expect(broken.received).toHaveLength(attempts);
  });

  it('signs with the rotated secret only, from the next attempt on', async () => {
    const sink = await receiver();
    const workspace = await start();
    const { id, secret: old } = await subscribe(workspace, sink.url(), ['*']);
    await emit(workspace, 'automation.entered');
    await until('first', () => sink.received.length === 1);
    const rotated = newSigningSecret();
    await db.client.query(`UPDATE webhook_subscriptions SET signing_secret = $2 WHERE id = $1`, [id, secrets.seal(id, rotated)]);
    await emit(workspace, 'automation.completed');
    await until('second', () => sink.received.length === 2);
    const [before, after] = sink.received;
    expect(() => new Webhook(old).verify(before.body, headersOf(before))).not.toThrow();
    expect(() => new Webhook(rotated).verify(after.body, headersOf(after))).not.toThrow();
    expect(() => new Webhook(old).verify(after.body, headersOf(after))).toThrow();
  });

  it('keeps a slow receiver from delaying the others', async () => {
    const slow = await receiver({ answer: () => ({ status: 204, delayMs: 60_000 }) });
    const fast = await receiver();
    const workspace = await start({ timeoutMs: 1500, concurrencyPerSubscription: 2 });
    await subscribe(workspace, slow.url(), ['*']);
    await subscribe(workspace, fast.url(), ['*']);
    await emit(workspace, 'form.submitted', 20);
    await until('all 20 at the fast receiver', () => fast.received.length === 20);
    // The slow one holds two attempts at a time for 1.5 s each: it is still far from done.
    expect(slow.received.length).toBeLessThan(20);
  });

  it('checks the destination again at delivery time: a name resolving to loopback is refused without a connection', async () => {
    const https = await receiver({ tls: true });
    // Production's rules: public names allowed, loopback not.
    const workspace = await start({ allowLoopback: false }, https.ca, async () => ['127.0.0.1'], true);
    const { id } = await subscribe(workspace, https.url('/inside', 'hooks.postline.test'), ['*']);
    await emit(workspace, 'subscriber.created');
    const row = await until('failed', async () => {
      const current = await subscription(id);
      return current.last_delivery_status === 'failed' && current;
    });
    expect(row.last_delivery_error).toContain('127.0.0.1, a loopback address');
    expect(https.received).toHaveLength(0);
  });

  it('outside production delivers nothing to a public destination, and does not even look its name up', async () => {
    const lookups: string[] = [];
    const workspace = await start({}, undefined, async (host) => (lookups.push(host), ['93.184.216.34']));
    const { id } = await subscribe(workspace, 'https://hooks.example.com/events', ['*']);
    await emit(workspace, 'subscriber.created');
    const row = await until('failed', async () => {
      const current = await subscription(id);
      return current.last_delivery_status === 'failed' && current;
    });
    expect(row.last_delivery_error).toContain('only to loopback addresses');
    expect(lookups).toEqual([]);
  });

  it('prunes published events past the retention period once none of their deliveries is pending', async () => {
    const sink = await receiver({ answer: () => ({ status: 500 }) });
    const workspace = await start({ retryUnitMs: 3_600_000 });
    await subscribe(workspace, sink.url(), ['*']);
    const [pending] = await emit(workspace, 'subscriber.created');
    const [quiet] = await emit(workspace, 'landing_page.submitted');
    await until(
      'dispatched',
      async () => (await db.client.query(`SELECT 1 FROM outbox_events WHERE id = ANY($1) AND dispatched_at IS NOT NULL`, [[pending, quiet]])).rowCount === 2,
    );
    await until('attempted', () => sink.received.length === 2);
    await db.client.query(`UPDATE webhook_deliveries SET state = 'failed' WHERE event_id = $1`, [quiet]);
    await db.client.query(`UPDATE outbox_events SET dispatched_at = now() - interval '2 hours' WHERE id = ANY($1)`, [[pending, quiet]]);
    expect(await module.get(EmailWebhookStore).prune(1)).toBe(1);
    const left = (await db.client.query(`SELECT id FROM outbox_events WHERE id = ANY($1)`, [[pending, quiet]])).rows.map((r) => r.id);
    expect(left).toEqual([pending]);
    expect((await db.client.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1`, [quiet])).rows[0].n).toBe(0);
  });
});
