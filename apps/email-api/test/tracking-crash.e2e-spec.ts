/**
 * The tracking endpoints' crash guarantee, on the built email-api killed with SIGKILL: an open the pixel acknowledged
 * (200) is in email_events, however the process dies. First with the write held back by a row lock (nothing may be
 * acknowledged before its commit, so nothing is), then under a burst of opens killed mid-flight (every acknowledged
 * open is stored).
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openPixelPath, TrackingTokens } from '@email/delivery';
import { trustedWorkspaceId } from '@shared/core';
import { builtAppsEnvironment, BuiltAppsEnvironment, BuiltDeployable, requireBuilt, startBuiltDeployable } from '../../../tools/smoke/built-deployable';

const SECRET = randomBytes(24).toString('base64url');
const WORKSPACE = trustedWorkspaceId('wsp_crash0000000000000000000001');
const SOURCE = { type: 'broadcast', id: 'brd_crash' };
const SUBSCRIBERS = 400;
const subscriberId = (i: number) => `sub_crash${String(i).padStart(6, '0')}`;

describe('email-api tracking: nothing acknowledged is lost when the process is killed', () => {
  let environment: BuiltAppsEnvironment;
  let sql: Client;
  const tokens = new TrackingTokens(SECRET);

  beforeAll(async () => {
    requireBuilt(['email-api']);
    environment = await builtAppsEnvironment();
    environment.env.CURSOR_SECRET = SECRET;
    sql = new Client({ connectionString: environment.env.EMAIL_DATABASE_URL });
    await sql.connect();
    await sql.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ($1, 'Crash', now())`, [WORKSPACE]);
    await sql.query(
      `INSERT INTO subscribers (id, workspace_id, email, updated_at)
       SELECT 'sub_crash' || lpad(i::text, 6, '0'), $1, 'crash' || i || '@example.com', now() FROM generate_series(0, $2 - 1) AS i`,
      [WORKSPACE, SUBSCRIBERS],
    );
  });
  afterAll(async () => {
    await sql?.end();
    await environment?.drop();
  });

  const pixelUrl = (app: BuiltDeployable, i: number) =>
    `http://127.0.0.1:${app.port}${openPixelPath(tokens.sign({ workspaceId: WORKSPACE, subscriberId: subscriberId(i), source: SOURCE }, new Date()))}`;
  /**
   * Sends the opens, `concurrency` at a time; resolves with the indexes answered 200 once every request has ended
   * (answered or cut). `onAnswered` sees the running count of 200s.
   */
  const sendOpens = async (app: BuiltDeployable, indexes: number[], concurrency: number, onAnswered = (_count: number) => {}) => {
    const answered: number[] = [];
    const queue = [...indexes];
    const worker = async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const status = await fetch(pixelUrl(app, i), { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' } }).then(
          (res) => res.status,
          () => 0,
        );
        if (status === 200) onAnswered(answered.push(i));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return answered;
  };
  const storedOpens = async (indexes: number[]) => {
    const { rows } = await sql.query<{ subscriber_id: string }>(
      `SELECT DISTINCT subscriber_id FROM email_events WHERE workspace_id = $1 AND type = 'opened' AND subscriber_id = ANY($2::text[])`,
      [WORKSPACE, indexes.map(subscriberId)],
    );
    return new Set(rows.map((row) => row.subscriber_id));
  };
  const kill = async (app: BuiltDeployable) => {
    app.child.kill('SIGKILL');
    await new Promise((resolve) => (app.child.exitCode !== null || app.child.signalCode !== null ? resolve(null) : app.child.once('exit', resolve)));
  };

  it('acknowledges no open before its transaction commits: with the write held by a row lock, a kill leaves nothing acknowledged', async () => {
    const app = await startBuiltDeployable('email-api', environment.env);
    const indexes = Array.from({ length: 20 }, (_, i) => i);
    const locker = new Client({ connectionString: environment.env.EMAIL_DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`SELECT id FROM subscribers WHERE workspace_id = $1 AND id = ANY($2::text[]) FOR UPDATE`, [WORKSPACE, indexes.map(subscriberId)]);
      const sent = sendOpens(app, indexes, indexes.length);
      // Long enough for an implementation that answers first and writes later to have answered every request.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await kill(app);
      expect(await sent).toEqual([]);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect((await storedOpens(indexes)).size).toBe(0);
  });

  it('under a burst of opens killed mid-flight, every acknowledged open is in email_events', async () => {
    const app = await startBuiltDeployable('email-api', environment.env);
    const indexes = Array.from({ length: SUBSCRIBERS - 20 }, (_, i) => i + 20);
    let killed: Promise<void> | undefined;
    // Killed once a quarter of the opens are answered: mid-burst, with batches in flight.
    const acknowledged = await sendOpens(app, indexes, 32, (count) => {
      if (count >= indexes.length / 4) killed ??= kill(app);
    });
    await killed;
    const stored = await storedOpens(indexes);
    expect(acknowledged.length).toBeLessThan(indexes.length);
    expect(acknowledged.filter((i) => !stored.has(subscriberId(i)))).toEqual([]);
  });
});
