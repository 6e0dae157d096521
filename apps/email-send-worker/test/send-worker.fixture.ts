import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { Client } from 'pg';
import { BroadcastRunStarter } from '@email/broadcasts';
import { EmailPrisma, Prisma } from '@email/data-access';
import { ConnectionSecrets } from '@email/delivery';
import { RunningWorker, startWorker } from '@shared/bootstrap';
import { trustedWorkspaceId } from '@shared/core';
import { createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { QUEUES, WorkerModule } from '../src/worker.module';

/** Fast enough for tests: short polls, retries and pauses. */

type ConnectionSettings = Prisma.InputJsonObject & { send_rate_per_second?: number; send_connections?: number; daily_quota?: number };
export const FAST_PIPELINE = {
  BROADCAST_POLL_INTERVAL_MS: '100',
  BROADCAST_RETRY_BASE_MS: '100',
  BROADCAST_THROTTLE_PAUSE_MS: '800',
  BROADCAST_SEND_BATCH_SIZE: '10',
  BROADCAST_SEND_LANES: '4',
  BROADCAST_PREPARE_CHUNK: '100',
};

export interface RunRow {
  id: string;
  phase: string;
  selected: number;
  materialized: number;
  accepted: number;
  skipped: number;
  retrying: number;
  permanent_failed: number;
  unknown: number;
  canceled: number;
  pause_reason: string | null;
  next_retry_at: Date | null;
}

/**
 * The email-send-worker in this process on a database and queue prefix of its own (several can be started on the same
 * ones: replicas), with helpers to seed workspaces, subscribers, connections and broadcasts and to start and watch runs.
 */
export function useSendWorker(env: () => Record<string, string> = () => ({})) {
  let db: TestDatabase;
  let sql: Client;
  const workers: RunningWorker[] = [];
  const prefix = uniqueQueuePrefix();

  const start = async (extra: Record<string, string> = {}): Promise<RunningWorker> => {
    Object.assign(process.env, { NODE_ENV: 'test', EMAIL_DATABASE_URL: db.url, QUEUE_PREFIX: prefix, HEALTH_PORT: '0', ...FAST_PIPELINE, ...env(), ...extra });
    const worker = await startWorker(WorkerModule, { service: 'email-send-worker-test', defaultHealthPort: 0, queues: QUEUES });
    workers.push(worker);
    return worker;
  };
  const stop = async (worker: RunningWorker) => {
    workers.splice(workers.indexOf(worker), 1);
    await worker.stop();
  };

  beforeAll(async () => {
    db = await createTestDatabase('email');
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    if (workers[0]) for (const name of QUEUES) await workers[0].app.get<Queue>(getQueueToken(name)).obliterate({ force: true });
    for (const worker of workers.splice(0)) await worker.stop();
    await sql?.end();
    await db?.drop();
  });

  const worker = () => {
    if (!workers[0]) throw new Error('no send worker started');
    return workers[0];
  };

  return {
    start,
    stop,
    worker,
    sql: () => sql,
    prisma: () => worker().app.get(EmailPrisma),

    /** A workspace with `count` Active subscribers `<prefix><n>@example.com` (ids `<id>_s<nnnnnn>`). */
    async workspace(id: string, count: number, emailPrefix = id): Promise<void> {
      await sql.query(`INSERT INTO workspaces (id, name, address, city, country, updated_at) VALUES ($1, $1, '1 Main St', 'Springfield', 'US', now())`, [id]);
      await sql.query(
        `INSERT INTO subscribers (id, workspace_id, email, name, updated_at)
         SELECT $1 || '_s' || lpad(n::text, 6, '0'), $1, $2 || n || '@example.com', 'Person ' || n, now() FROM generate_series(1, $3) AS n`,
        [id, emailPrefix, count],
      );
    },

    /**
     * A delivery connection saved as the setup page saves it (secrets sealed with the worker's key); send limits given
     * with the provider's settings become the connection's own (as `PUT …/send-limits` sets them).
     */
    async connection(workspaceId: string, id: string, provider: string, settings: ConnectionSettings, secrets: Record<string, string> = {}) {
      const { send_rate_per_second, send_connections, daily_quota, ...config } = settings;
      const sealed = worker().app.get(ConnectionSecrets, { strict: false }).seal(id, secrets);
      await worker()
        .app.get(EmailPrisma)
        .deliveryConnection.create({
          data: {
            id,
            workspace_id: workspaceId,
            name: id,
            provider,
            from_email: 'news@postline.test',
            from_name: 'Postline News',
            enabled: true,
            provider_config: config,
            secrets: sealed,
            send_rate_per_second,
            send_connections,
            daily_quota,
          },
        });
    },

    /** A draft broadcast (or scheduled, with `scheduledAt`) through the connection. */
    async broadcast(workspaceId: string, id: string, connectionId: string, scheduledAt?: Date): Promise<void> {
      await worker()
        .app.get(EmailPrisma)
        .broadcast.create({
          data: {
            id,
            workspace_id: workspaceId,
            subject: 'News for [Subscriber_Name, fallback="friend"]',
            body_document: {
              type: 'doc',
              content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hello [Subscriber_Name, fallback="friend"]' }] }],
            },
            body: '',
            connection_id: connectionId,
            status: scheduledAt ? 'scheduled' : 'draft',
            scheduled_at: scheduledAt ?? null,
          },
        });
    },

    /** Starts a send as the API does; returns the run id. */
    async send(workspaceId: string, broadcastId: string, connectionId: string): Promise<string> {
      const started = await worker()
        .app.get(BroadcastRunStarter, { strict: false })
        .start(trustedWorkspaceId(workspaceId), { broadcastId, contentVersion: 1, connectionId, selected: 0 });
      if (!started) throw new Error(`broadcast ${broadcastId} did not start`);
      return started.run.id;
    },

    async run(runId: string): Promise<RunRow> {
      const { rows } = await sql.query<RunRow>('SELECT * FROM broadcast_runs WHERE id = $1', [runId]);
      return rows[0];
    },

    /** Waits (up to `ms`) until the run's phase is one of `phases`; returns the run. */
    async until(runId: string, phases: string[], ms = 20_000): Promise<RunRow> {
      const deadline = Date.now() + ms;
      for (;;) {
        const run = await this.run(runId);
        if (run && phases.includes(run.phase)) return run;
        if (Date.now() > deadline) throw new Error(`run ${runId} still ${run?.phase} after ${ms} ms (waiting for ${phases.join(', ')})`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },

    /** Deliveries of a run by state. */
    async states(runId: string): Promise<Record<string, number>> {
      const { rows } = await sql.query<{ state: string; n: number }>(
        'SELECT state, count(*)::int AS n FROM broadcast_deliveries WHERE run_id = $1 GROUP BY state',
        [runId],
      );
      return Object.fromEntries(rows.map((row) => [row.state, row.n]));
    },
  };
}

/** The run's counters agree with its delivery rows, and every delivery is final. */
export function expectConsistent(run: RunRow, states: Record<string, number>): void {
  const count = (state: string) => states[state] ?? 0;
  expect({
    accepted: run.accepted,
    skipped: run.skipped,
    permanent_failed: run.permanent_failed,
    unknown: run.unknown,
    canceled: run.canceled,
    retrying: run.retrying,
    materialized: run.materialized,
    in_flight: count('sending') + count('pending') + count('retrying'),
  }).toEqual({
    accepted: count('accepted'),
    skipped: count('skipped'),
    permanent_failed: count('failed'),
    unknown: count('unknown'),
    canceled: count('canceled'),
    retrying: 0,
    materialized: Object.values(states).reduce((sum, n) => sum + n, 0),
    in_flight: 0,
  });
}
