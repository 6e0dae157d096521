/**
 * At least once under failure, on the built webhook-worker: a worker SIGKILLed while it fans events out and delivers
 * them, then two workers started in its place. Every (event, subscription) pair reaches the HTTPS receiver, each with
 * one webhook-id however often it arrived, and every request verifies with the standardwebhooks package.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '@shared/config';
import { SecretBox } from '@shared/secrets';
import { WebhookReceiver } from '@shared/testing';
import { newSigningSecret } from '@shared/webhooks';
import { SubscriptionSecrets } from '@email/webhooks';
import { builtAppsEnvironment, BuiltAppsEnvironment, BuiltDeployable, requireBuilt, startBuiltDeployable } from '../../../tools/smoke/built-deployable';

const EVENTS = 1500;
const SUBSCRIPTIONS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook-worker: SIGKILL mid-fan-out, then two workers', () => {
  let environment: BuiltAppsEnvironment;
  let receiver: WebhookReceiver;
  let sql: Client;
  const workers: BuiltDeployable[] = [];
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    requireBuilt(['webhook-worker']);
    environment = await builtAppsEnvironment();
    receiver = await WebhookReceiver.start({ tls: true });
    const caFile = path.join(tmpdir(), `webhook-receiver-ca-${process.pid}.pem`);
    writeFileSync(caFile, receiver.ca!);
    Object.assign(environment.env, {
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
      WEBHOOKS_BATCH_SIZE: '5',
      WEBHOOKS_POLL_INTERVAL_MS: '50',
      WEBHOOKS_TIMEOUT_MS: '1000',
      WEBHOOKS_CONCURRENCY_PER_SUBSCRIPTION: '4',
      NODE_EXTRA_CA_CERTS: caFile,
    });
    sql = new Client({ connectionString: environment.env.EMAIL_DATABASE_URL });
    await sql.connect();
    await sql.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ('wsp_kill', 'Kill', now())`);
    const sealer = new SubscriptionSecrets(new SecretBox(loadConfig(environment.env).encryptionKey));
    for (let n = 1; n <= SUBSCRIPTIONS; n++) {
      const id = `wsb_kill${n}`;
      const secret = newSigningSecret();
      secrets.set(`/hook/${id}`, secret);
      await sql.query(
        `INSERT INTO webhook_subscriptions (id, workspace_id, name, url, event_patterns, signing_secret, signing_secret_preview, updated_at)
         VALUES ($1, 'wsp_kill', $1, $2, $3, $4, 'whsec_…', now())`,
        [id, receiver.url(`/hook/${id}`, 'localhost'), n === 1 ? ['*'] : ['subscriber.*'], sealer.seal(id, secret)],
      );
    }
    await sql.query(
      `INSERT INTO outbox_events (id, workspace_id, type, payload, created_at)
       SELECT 'evt_kill' || lpad(n::text, 6, '0'), 'wsp_kill', 'subscriber.created', jsonb_build_object('subscriber', jsonb_build_object('id', 'sub_' || n)),
              now() + n * interval '1 microsecond'
       FROM generate_series(1, $1) AS n`,
      [EVENTS],
    );
  });

  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    await sql?.end();
    await receiver?.stop();
    await environment?.drop();
  });

  const start = async () => {
    const worker = await startBuiltDeployable('webhook-worker', environment.env);
    workers.push(worker);
    return worker;
  };
  const pairs = () => new Set(receiver.received.map((r) => `${r.path} ${JSON.parse(r.body).id}`));

  it('delivers every pair at least once, duplicates only with the same webhook-id', async () => {
    const first = await start();
    for (let deadline = Date.now() + 60_000; receiver.received.length < 30; await sleep(5)) {
      if (Date.now() > deadline) throw new Error(`no deliveries:\n${first.output()}`);
    }
    first.child.kill('SIGKILL');
    const beforeRestart = pairs().size;
    await Promise.all([start(), start()]);

    const expected = EVENTS * SUBSCRIPTIONS;
    for (let deadline = Date.now() + 120_000; pairs().size < expected; await sleep(100)) {
      if (Date.now() > deadline) throw new Error(`${pairs().size} of ${expected} pairs delivered:\n${workers.map((w) => w.output()).join('\n')}`);
    }
    expect(beforeRestart).toBeLessThan(expected);

    const idsByPair = new Map<string, Set<string>>();
    for (const request of receiver.received) {
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      const body = new Webhook(secrets.get(request.path)!).verify(request.body, headers) as { id: string };
      const pair = `${request.path} ${body.id}`;
      idsByPair.set(pair, (idsByPair.get(pair) ?? new Set()).add(headers['webhook-id']));
    }
    expect(idsByPair.size).toBe(expected);
    expect([...idsByPair.values()].filter((ids) => ids.size !== 1)).toEqual([]);
    const states = async () => (await sql.query(`SELECT state, count(*)::int AS n FROM webhook_deliveries GROUP BY state`)).rows;
    for (let deadline = Date.now() + 30_000; JSON.stringify(await states()) !== JSON.stringify([{ state: 'delivered', n: expected }]); await sleep(100)) {
      if (Date.now() > deadline) expect(await states()).toEqual([{ state: 'delivered', n: expected }]);
    }
  }, 240_000);
});
