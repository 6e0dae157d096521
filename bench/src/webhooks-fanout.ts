import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SecretBox } from '@shared/secrets';
import { freePort, WebhookReceiver } from '@shared/testing';
import { newSigningSecret, WebhookSigner } from '@shared/webhooks';
import { SubscriptionSecrets } from '@email/webhooks';
import { Benchmark, emit, intOption, log, parseOptions, round } from './cli';
import { openBenchDatabase, redactUrl, withClient } from './databases';
import { appEntry, RunningApp, startApp } from './server';

const DATABASE = 'pl_bench_webhooks';
const SUBSCRIPTIONS = 3;
const GOAL_PER_S = 1000;
const GOAL_P99_MS = 1000;
const SLOW_ANSWER_MS = 5000;

const USAGE = `webhooks-fanout [--events 10000] [--rate 350] [--database-url URL]
  Subscriber events fanned out by the built webhook-worker to ${SUBSCRIPTIONS} subscriptions on a local HTTPS receiver.
  burst:  --events committed at once, deliveries/s until the last arrives, against a bare loop posting the same
          signed requests over the same keep-alive HTTPS connections (48 at once) in the same run.
  steady: --events committed in small transactions at --rate events/s; commit-to-delivery p50/p99.
  slow:   the steady phase again with one receiver answering in ${SLOW_ANSWER_MS / 1000} s; p99 of the other two.
  Goals: at least ${GOAL_PER_S} deliveries/s, p99 at most ${GOAL_P99_MS} ms.`;

interface Arrival {
  path: string;
  at: number;
  createdAt: number;
}

/** The receiver, with the arrival time of each request (the receiver keeps bodies; arrival times are ours). */
class TimedReceiver {
  readonly arrivals: Arrival[] = [];
  slowPath: string | undefined;
  receiver!: WebhookReceiver;

  async start(): Promise<this> {
    this.receiver = await WebhookReceiver.start({
      tls: true,
      answer: (request) => {
        this.arrivals.push({ path: request.path, at: Date.now(), createdAt: Date.parse((JSON.parse(request.body) as { created_at: string }).created_at) });
        return { status: 204, ...(request.path === this.slowPath ? { delayMs: SLOW_ANSWER_MS } : {}) };
      },
    });
    return this;
  }
}

async function setUp(url: string, receiver: TimedReceiver, encryptionKey: string): Promise<string> {
  const workspaceId = `wsp_benchhooks_${Date.now().toString(36)}`;
  const sealer = new SubscriptionSecrets(new SecretBox(encryptionKey));
  await withClient(url, async (client) => {
    await client.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ($1, 'Webhooks bench', now())`, [workspaceId]);
    for (let n = 1; n <= SUBSCRIPTIONS; n++) {
      const id = `wsb_${workspaceId.slice(4)}_${n}`;
      await client.query(
        `INSERT INTO webhook_subscriptions (id, workspace_id, name, url, event_patterns, signing_secret, signing_secret_preview, updated_at)
         VALUES ($1, $2, $1, $3, ARRAY['subscriber.*'], $4, 'whsec_…', now())`,
        [id, workspaceId, receiver.receiver.url(`/hook/${n}`, 'localhost'), sealer.seal(id, newSigningSecret())],
      );
    }
  });
  return workspaceId;
}

let eventCounter = 0;
async function insertEvents(url: string, workspaceId: string, count: number, rate?: number): Promise<void> {
  await withClient(url, async (client) => {
    const chunk = rate ? Math.max(1, Math.round(rate / 20)) : count;
    const started = performance.now();
    for (let done = 0; done < count; done += chunk) {
      const n = Math.min(chunk, count - done);
      const first = eventCounter;
      eventCounter += n;
      // created_at is the commit's clock time, so arrival − created_at is commit-to-delivery.
      await client.query(
        `INSERT INTO outbox_events (id, workspace_id, type, payload, created_at)
         SELECT 'evt_bh' || $3 || lpad(i::text, 9, '0'), $1, 'subscriber.updated', jsonb_build_object('subscriber', jsonb_build_object('id', 'sub_' || i)), clock_timestamp()
         FROM generate_series($2::int + 1, $2::int + $4::int) AS i`,
        [workspaceId, first, workspaceId.slice(-6), n],
      );
      if (rate) {
        const due = started + ((done + n) / rate) * 1000;
        if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      }
    }
  });
}

async function waitFor(receiver: TimedReceiver, count: number, ms = 600_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (receiver.arrivals.length < count) {
    if (Date.now() > deadline) throw new Error(`${receiver.arrivals.length} of ${count} deliveries arrived`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** The same signed requests posted straight to the receiver, 48 at once over keep-alive connections. */
async function bareLoop(receiver: TimedReceiver, count: number): Promise<number> {
  const agent = new https.Agent({ keepAlive: true, ca: receiver.receiver.ca });
  const signer = new WebhookSigner(newSigningSecret());
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const body = JSON.stringify({
        id: `evt_bare${i}`,
        type: 'subscriber.updated',
        created_at: new Date().toISOString(),
        workspace_id: 'wsp_bare',
        data: { subscriber: { id: `sub_${i}` } },
      });
      const headers = signer.headers(`msg_bare${i}`, new Date(), body);
      await new Promise<void>((resolve, reject) => {
        const request = https.request(
          {
            host: '127.0.0.1',
            port: receiver.receiver.port,
            servername: 'localhost',
            path: `/bare/${i % SUBSCRIPTIONS}`,
            method: 'POST',
            agent,
            headers: { ...headers, 'content-type': 'application/json', host: `localhost:${receiver.receiver.port}` },
          },
          (response) => {
            response.resume();
            response.on('end', resolve);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: 48 }, worker));
  agent.destroy();
  return count / ((performance.now() - started) / 1000);
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, { events: { type: 'string' }, rate: { type: 'string' }, 'database-url': { type: 'string' } });
  const events = intOption(o.events, 'events', 10_000, 1, 1_000_000);
  const rate = intOption(o.rate, 'rate', 350, 1, 100_000);
  const deliveries = events * SUBSCRIPTIONS;
  const database = await openBenchDatabase('webhooks-fanout', { name: DATABASE, givenUrl: o['database-url'] });
  const receiver = await new TimedReceiver().start();
  const caFile = path.join(tmpdir(), `pl-bench-webhooks-ca-${process.pid}.pem`);
  writeFileSync(caFile, receiver.receiver.ca!);
  const encryptionKey = randomBytes(24).toString('base64url');
  const port = await freePort();
  let worker: RunningApp | undefined;
  try {
    const workspaceId = await setUp(database.url, receiver, encryptionKey);
    worker = await startApp(appEntry('webhook-worker'), {
      port,
      // Loopback receivers need WEBHOOKS_ALLOW_LOOPBACK, which production refuses.
      env: {
        NODE_ENV: 'development',
        EMAIL_DATABASE_URL: database.url,
        HEALTH_PORT: String(port),
        ENCRYPTION_KEY: encryptionKey,
        WEBHOOKS_ALLOW_LOOPBACK: 'true',
        NODE_EXTRA_CA_CERTS: caFile,
      },
    });

    const bareRate = await bareLoop(receiver, deliveries);
    receiver.arrivals.length = 0;
    const burstStarted = Date.now();
    await insertEvents(database.url, workspaceId, events);
    await waitFor(receiver, deliveries);
    const burstRate = deliveries / ((receiver.arrivals[receiver.arrivals.length - 1].at - burstStarted) / 1000);
    log(`burst: worker ${round(burstRate)} deliveries/s, bare ${round(bareRate)} requests/s`);

    receiver.arrivals.length = 0;
    await insertEvents(database.url, workspaceId, events, rate);
    await waitFor(receiver, deliveries);
    const steady = receiver.arrivals.map((a) => a.at - a.createdAt);
    log(`steady: p50 ${percentile(steady, 50)} ms, p99 ${percentile(steady, 99)} ms`);

    receiver.arrivals.length = 0;
    receiver.slowPath = '/hook/1';
    await insertEvents(database.url, workspaceId, events, rate);
    await waitFor(receiver, 2 * events);
    const others = receiver.arrivals.filter((a) => a.path !== '/hook/1').map((a) => a.at - a.createdAt);
    const slowArrived = receiver.arrivals.filter((a) => a.path === '/hook/1').length;
    log(`slow receiver: the others' p50 ${percentile(others, 50)} ms, p99 ${percentile(others, 99)} ms (${slowArrived} reached the slow one meanwhile)`);

    emit({
      bench: 'webhooks-fanout',
      events,
      subscriptions: SUBSCRIPTIONS,
      burst_deliveries_per_s: round(burstRate, 1),
      bare_requests_per_s: round(bareRate, 1),
      ratio: round(burstRate / bareRate, 3),
      steady_events_per_s: rate,
      steady_p50_ms: percentile(steady, 50),
      steady_p99_ms: percentile(steady, 99),
      slow_receiver_others_p50_ms: percentile(others, 50),
      slow_receiver_others_p99_ms: percentile(others, 99),
      goal_deliveries_per_s: GOAL_PER_S,
      goal_p99_ms: GOAL_P99_MS,
      meets_goal: burstRate >= GOAL_PER_S && percentile(steady, 99) <= GOAL_P99_MS && percentile(others, 99) <= GOAL_P99_MS,
      database_url: redactUrl(database.url),
    });
  } finally {
    await worker?.stop();
    await receiver.receiver.stop();
    await database.release();
  }
}

export const webhooksFanoutBenchmark: Benchmark = {
  name: 'webhooks-fanout',
  summary: 'subscriber events fanned out by webhook-worker to 3 HTTPS subscriptions: deliveries/s vs a bare loop, commit-to-delivery p99, a slow receiver',
  usage: USAGE,
  run,
};
