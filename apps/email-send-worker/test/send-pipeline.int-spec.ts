import { SmtpSink } from '@shared/testing';
import { expectConsistent, useSendWorker } from './send-worker.fixture';

/** Each address's messages at the sink. */
const perAddress = (sink: SmtpSink) => {
  const counts = new Map<string, number>();
  for (const mail of sink.received) for (const to of mail.to) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
};

describe('email-send-worker: a broadcast from preparation to sent (real PostgreSQL, Redis and an SMTP sink)', () => {
  const sink = new SmtpSink();
  const bed = useSendWorker();
  const smtp = () => ({ host: '127.0.0.1', port: sink.port, secure_mode: 'none', send_rate_per_second: 5000, send_connections: 4 });

  beforeAll(async () => {
    await sink.start();
    await bed.start();
  });
  afterAll(() => sink.stop());
  beforeEach(() => {
    sink.behaviour = {};
    sink.received.length = 0;
  });

  it('prepares every Active subscriber once and sends each one message, personalised, then the run is sent and the broadcast completed', async () => {
    await bed.workspace('wsp_send', 40);
    await bed.sql().query(`UPDATE subscribers SET status = 'Unsubscribed' WHERE id IN ('wsp_send_s000003', 'wsp_send_s000007')`);
    await bed.connection('wsp_send', 'edc_send', 'custom-smtp', smtp());
    await bed.broadcast('wsp_send', 'brd_send', 'edc_send');
    const runId = await bed.send('wsp_send', 'brd_send', 'edc_send');

    const run = await bed.until(runId, ['sent', 'sent_with_errors', 'failed']);
    expect(run).toMatchObject({ phase: 'sent', selected: 38, materialized: 38, accepted: 38, skipped: 0, unknown: 0, permanent_failed: 0 });
    expectConsistent(run, await bed.states(runId));
    const counts = perAddress(sink);
    expect(counts.size).toBe(38);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(counts.has('wsp_send3@example.com')).toBe(false);
    const mail = sink.received.find((m) => m.to[0] === 'wsp_send12@example.com')!;
    expect(mail.raw).toContain('Subject: News for Person 12');
    expect(mail.raw).toMatch(/^List-Unsubscribe:/m);
    const { rows: ids } = await bed
      .sql()
      .query(`SELECT count(*)::int AS n FROM broadcast_deliveries WHERE run_id = $1 AND provider_message_id IS NULL`, [runId]);
    expect(ids[0].n).toBe(0);
    const broadcast = await bed.prisma().broadcast.findUniqueOrThrow({ where: { id: 'brd_send' } });
    expect(broadcast).toMatchObject({ status: 'completed', recipient_count: 38 });
    expect(broadcast.completed_at).not.toBeNull();
    const { rows: events } = await bed
      .sql()
      .query(`SELECT payload FROM outbox_events WHERE workspace_id = 'wsp_send' AND type = 'broadcast.state_changed' ORDER BY created_at, id`);
    expect(events.map((e) => [e.payload.previous_phase, e.payload.phase, e.payload.status])).toEqual([
      ['preparing', 'sending', 'running'],
      ['sending', 'sent', 'completed'],
    ]);
  });

  it('skips a recipient who unsubscribed after preparation, retries a transient refusal, and ends sent_with_errors on permanent ones', async () => {
    await bed.workspace('wsp_mix', 12);
    await bed.connection('wsp_mix', 'edc_mix', 'custom-smtp', smtp());
    await bed.broadcast('wsp_mix', 'brd_mix', 'edc_mix');
    // Prepared already (as preparation leaves a run), one recipient unsubscribed since.
    await bed.sql().query(`
      INSERT INTO broadcast_runs (id, workspace_id, broadcast_id, phase, content_version, connection_id, selected, materialized, updated_at)
      VALUES ('brun_mix', 'wsp_mix', 'brd_mix', 'paused', 1, 'edc_mix', 12, 12, now());
      INSERT INTO broadcast_deliveries (run_id, workspace_id, subscriber_id) SELECT 'brun_mix', 'wsp_mix', id FROM subscribers WHERE workspace_id = 'wsp_mix';
      UPDATE broadcasts SET status = 'running' WHERE id = 'brd_mix';
      UPDATE subscribers SET status = 'Bounced' WHERE id = 'wsp_mix_s000001';`);
    sink.behaviour = { reject: { stage: 'rcpt', code: 451, text: '4.3.0 Try later' } };
    await bed.sql().query(`UPDATE broadcast_runs SET phase = 'sending' WHERE id = 'brun_mix'`);
    await bed.until('brun_mix', ['sending']);
    // Transient refusals: retried with backoff, not counted as failures.
    for (let i = 0; i < 100 && (await bed.run('brun_mix')).retrying === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await bed.run('brun_mix')).retrying).toBeGreaterThan(0);
    sink.behaviour = {};
    const run = await bed.until('brun_mix', ['sent', 'sent_with_errors']);
    expect(run).toMatchObject({ phase: 'sent', accepted: 11, skipped: 1 });
    expectConsistent(run, await bed.states('brun_mix'));
    expect(perAddress(sink).get('wsp_mix1@example.com')).toBeUndefined();

    await bed.workspace('wsp_bad', 5);
    await bed.connection('wsp_bad', 'edc_bad', 'custom-smtp', smtp());
    await bed.broadcast('wsp_bad', 'brd_bad', 'edc_bad');
    sink.behaviour = { reject: { stage: 'rcpt', code: 550, text: '5.1.1 User unknown' } };
    const bad = await bed.until(await bed.send('wsp_bad', 'brd_bad', 'edc_bad'), ['sent', 'sent_with_errors']);
    expect(bad).toMatchObject({ phase: 'sent_with_errors', permanent_failed: 5, accepted: 0 });
    const { rows } = await bed.sql().query(`SELECT DISTINCT error_code, attempt_count FROM broadcast_deliveries WHERE run_id = $1`, [bad.id]);
    expect(rows).toEqual([{ error_code: '5.1.1', attempt_count: 1 }]);
  });

  it('a connection that cannot send fails the run, its broadcast failed, nothing sent', async () => {
    await bed.workspace('wsp_off', 3);
    await bed.connection('wsp_off', 'edc_off', 'custom-smtp', smtp());
    await bed.sql().query(`UPDATE delivery_connections SET enabled = false WHERE id = 'edc_off'`);
    await bed.broadcast('wsp_off', 'brd_off', 'edc_off');
    const run = await bed.until(await bed.send('wsp_off', 'brd_off', 'edc_off'), ['failed', 'sent']);
    expect(run).toMatchObject({ phase: 'failed', pause_reason: 'connection_disabled', accepted: 0 });
    expect((await bed.prisma().broadcast.findUniqueOrThrow({ where: { id: 'brd_off' } })).status).toBe('failed');
    expect(sink.received).toHaveLength(0);
  });

  it('recovers: a run stuck in preparing without a job is prepared, and a delivery left sending past its lease becomes unknown, counted, never resent', async () => {
    await bed.workspace('wsp_rec', 6);
    await bed.connection('wsp_rec', 'edc_rec', 'custom-smtp', smtp());
    await bed.broadcast('wsp_rec', 'brd_rec', 'edc_rec');
    await bed.sql().query(`
      UPDATE broadcasts SET status = 'running' WHERE id = 'brd_rec';
      INSERT INTO broadcast_runs (id, workspace_id, broadcast_id, phase, content_version, connection_id, materialized, prepared_through, updated_at)
      VALUES ('brun_rec', 'wsp_rec', 'brd_rec', 'preparing', 1, 'edc_rec', 0, 'wsp_rec_s000002', now() - interval '1 minute');
      INSERT INTO broadcast_deliveries (run_id, workspace_id, subscriber_id, state, attempt_count, updated_at)
      VALUES ('brun_rec', 'wsp_rec', 'wsp_rec_s000001', 'sending', 1, now() - interval '1 hour'),
             ('brun_rec', 'wsp_rec', 'wsp_rec_s000002', 'pending', 0, now());`);
    const run = await bed.until('brun_rec', ['sent', 'sent_with_errors']);
    expect(run).toMatchObject({ phase: 'sent_with_errors', selected: 6, materialized: 6, accepted: 5, unknown: 1 });
    expectConsistent(run, await bed.states('brun_rec'));
    expect(perAddress(sink).has('wsp_rec1@example.com')).toBe(false);
    const { rows } = await bed
      .sql()
      .query(`SELECT state, error_code FROM broadcast_deliveries WHERE run_id = 'brun_rec' AND subscriber_id = 'wsp_rec_s000001'`);
    expect(rows).toEqual([{ state: 'unknown', error_code: 'worker_lost' }]);
  });
});
