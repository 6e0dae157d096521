/**
 * A subscriber import on the built email-jobs-worker, SIGKILLed mid-file and finished by a restarted worker: every row
 * is imported exactly once (no subscriber twice, one subscriber.created event each), the tag count is exact, and the
 * job's counters add up. Batches are small so the kill lands mid-file on a fast machine too.
 */
import { Queue } from 'bullmq';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { EmailQueues } from '@email/contracts';
import { queuePrefix } from '@shared/queue';
import { builtAppsEnvironment, BuiltAppsEnvironment, BuiltDeployable, requireBuilt, startBuiltDeployable } from '../../../tools/smoke/built-deployable';

const ROWS = 3000;
const WS = 'wsp_import_kill';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('email-jobs-worker: an import SIGKILLed mid-file', () => {
  let environment: BuiltAppsEnvironment;
  let sql: Client;
  let queue: Queue;
  const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-import-kill-'));
  const workers: BuiltDeployable[] = [];

  beforeAll(async () => {
    requireBuilt(['email-jobs-worker']);
    environment = await builtAppsEnvironment();
    Object.assign(environment.env, { SUBSCRIBER_JOB_FILES_DIR: filesDir, SUBSCRIBER_IMPORT_BATCH_ROWS: '100' });
    sql = new Client({ connectionString: environment.env.EMAIL_DATABASE_URL });
    await sql.connect();
    await sql.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ($1, 'Kill', now())`, [WS]);
    await sql.query(`INSERT INTO tags (id, workspace_id, name, name_key, updated_at) VALUES ('tag_kill', $1, 'Imported', 'imported', now())`, [WS]);
    // A subscription selecting subscriber.created, so the import writes those events (no webhook worker runs here).
    await sql.query(
      `INSERT INTO webhook_subscriptions (id, workspace_id, name, url, event_patterns, signing_secret, signing_secret_preview, updated_at)
       VALUES ('whs_kill', $1, 'Created', 'http://127.0.0.1:9/hook', '{subscriber.created}', 'sealed', 'whsec_…', now())`,
      [WS],
    );
    mkdirSync(path.join(filesDir, 'imports', WS), { recursive: true });
    const lines = Array.from({ length: ROWS }, (_, i) => `kill${i}@example.com,Person ${i}`);
    writeFileSync(path.join(filesDir, 'imports', WS, 'imu_kill.csv'), `email,name\n${lines.join('\n')}\n`);
    await sql.query(
      `INSERT INTO subscriber_import_uploads (id, workspace_id, status, token_hash, link_expires_at, encoding, delimiter, headers, row_count,
         import_job_id, expires_at, updated_at)
       VALUES ('imu_kill', $1, 'Queued', 'kill', now(), 'utf-8', ',', '{email,name}', $2, 'imp_kill', now() + interval '1 day', now())`,
      [WS, ROWS],
    );
    const request = {
      mappings: [
        { csv_column: 'email', field: { type: 'email' } },
        { csv_column: 'name', field: { type: 'name' } },
      ],
      tag_ids: ['tag_kill'],
      new_tag_name: null,
      sequence_ids: [],
    };
    await sql.query(`INSERT INTO subscriber_import_jobs (id, workspace_id, upload_id, request, updated_at) VALUES ('imp_kill', $1, 'imu_kill', $2, now())`, [
      WS,
      JSON.stringify(request),
    ]);
    queue = new Queue(EmailQueues.subscriberImport, {
      connection: { url: environment.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
      prefix: queuePrefix(environment.env.QUEUE_PREFIX!, EmailQueues.subscriberImport),
    });
  });

  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await sql?.end();
    await environment?.drop();
    rmSync(filesDir, { recursive: true, force: true });
  });

  const job = async () =>
    (await sql.query<{ status: string; processed_rows: number; created_count: number }>(`SELECT * FROM subscriber_import_jobs WHERE id = 'imp_kill'`)).rows[0];

  it('finishes after a restart with every row imported once and the tag count exact', async () => {
    const first = await startBuiltDeployable('email-jobs-worker', environment.env);
    workers.push(first);
    await queue.add('import', { workspaceId: WS, jobId: 'imp_kill' }, { jobId: 'imp_kill', attempts: 5 });
    for (let deadline = Date.now() + 60_000; (await job()).processed_rows < 300; await sleep(20)) {
      if (Date.now() > deadline) throw new Error(`no progress: ${JSON.stringify(await job())}`);
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const atKill = await job();
    expect(atKill.status).toBe('Processing');
    expect(atKill.processed_rows).toBeLessThan(ROWS);

    // The killed worker's job is stalled; the new worker takes it over once its lock lapses (BullMQ: 30 s).
    workers.push(await startBuiltDeployable('email-jobs-worker', environment.env));
    for (let deadline = Date.now() + 200_000; (await job()).status !== 'Completed'; await sleep(200)) {
      if (Date.now() > deadline) throw new Error(`not finished: ${JSON.stringify(await job())}`);
    }
    expect(await job()).toMatchObject({ processed_rows: ROWS, created_count: ROWS });
    const counts = (
      await sql.query<{ subscribers: number; distinct_emails: number; created_events: number; tagged: number; tag_count: number }>(
        `SELECT (SELECT count(*) FROM subscribers WHERE workspace_id = $1)::int AS subscribers,
                (SELECT count(DISTINCT email) FROM subscribers WHERE workspace_id = $1)::int AS distinct_emails,
                (SELECT count(*) FROM outbox_events WHERE workspace_id = $1 AND type = 'subscriber.created')::int AS created_events,
                (SELECT count(*) FROM subscriber_tags WHERE tag_id = 'tag_kill')::int AS tagged,
                (SELECT t.subscriber_count + COALESCE((SELECT sum(delta) FROM tag_count_shards WHERE tag_id = t.id), 0) FROM tags t WHERE t.id = 'tag_kill')::int AS tag_count`,
        [WS],
      )
    ).rows[0];
    expect(counts).toEqual({ subscribers: ROWS, distinct_emails: ROWS, created_events: ROWS, tagged: ROWS, tag_count: ROWS });
  }, 300_000);
});
