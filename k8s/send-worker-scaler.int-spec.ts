/**
 * The KEDA trigger that scales email-send-worker runs a query on the email database: this runs that very query,
 * read from the manifest, against a migrated database, so a renamed column or a wrong count fails here rather than
 * silently in the cluster.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { parseAllDocuments } from 'yaml';
import { createTestDatabase, TestDatabase } from '@shared/testing';

type Trigger = { type: string; metadata: Record<string, string> };

function scalerQuery(): string {
  const documents = parseAllDocuments(readFileSync(join(__dirname, 'email-send-worker.yaml'), 'utf8')).map((d) => d.toJS());
  const scaledObject = documents.find((d) => d.kind === 'ScaledObject');
  return (scaledObject.spec.triggers as Trigger[]).find((t) => t.type === 'postgresql')!.metadata.query;
}

describe('email-send-worker KEDA trigger query (real PostgreSQL)', () => {
  let db: TestDatabase;
  let client: Client;
  const deliveriesLeft = async () => Number(Object.values((await client.query(scalerQuery())).rows[0])[0]);

  beforeAll(async () => {
    db = await createTestDatabase('email');
    client = new Client({ connectionString: db.url });
    await client.connect();
    await client.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ('wsp_scale', 'Scale', now())`);
    await client.query(
      `INSERT INTO broadcasts (id, workspace_id, subject, body_document, body, updated_at) VALUES ('brd_scale', 'wsp_scale', 'Hi', '{}', '', now())`,
    );
  });

  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  const run = (id: string, phase: string, counts: Record<string, number>) =>
    client.query(
      `INSERT INTO broadcast_runs (id, workspace_id, broadcast_id, phase, content_version, connection_id, selected, materialized,
         accepted, skipped, permanent_failed, unknown, canceled, updated_at)
       VALUES ($1, 'wsp_scale', 'brd_scale', $2, 1, 'edc_scale', $3, $4, $5, $6, $7, $8, $9, now())`,
      [id, phase, ...['selected', 'materialized', 'accepted', 'skipped', 'permanent_failed', 'unknown', 'canceled'].map((k) => counts[k] ?? 0)],
    );

  it('is zero with nothing to send', async () => {
    expect(await deliveriesLeft()).toBe(0);
  });

  it('counts what is left in preparing and sending runs, and nothing of paused or finished ones', async () => {
    // Preparing: the send's count until preparation has materialised more.
    await run('brun_preparing', 'preparing', { selected: 1000, materialized: 200 });
    // Sending: 500 rows, 300 settled one way or another.
    await run('brun_sending', 'sending', { selected: 500, materialized: 500, accepted: 250, skipped: 10, permanent_failed: 20, unknown: 15, canceled: 5 });
    await run('brun_paused', 'paused', { selected: 800, materialized: 800 });
    await run('brun_sent', 'sent', { selected: 50, materialized: 50, accepted: 50 });
    // Counters that overshoot (never expected) must not make the sum shrink.
    await run('brun_over', 'sending', { selected: 10, materialized: 10, accepted: 12 });
    expect(await deliveriesLeft()).toBe(1000 + 200);
  });
});
