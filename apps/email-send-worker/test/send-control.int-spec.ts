import { FakePostmark, fakeProviderSettings, startFakeProvider } from '../../../libs/email/delivery/src/testing/provider-fakes.fixture';
import { SmtpSink } from '@shared/testing';
import { expectConsistent, useSendWorker } from './send-worker.fixture';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('email-send-worker: pause and resume, cancel, fairness, scheduling', () => {
  const sink = new SmtpSink();
  let postmark: FakePostmark;
  const bed = useSendWorker(() => ({ DELIVERY_BASE_URL_POSTMARK: postmark.baseUrl }));
  const smtp = (extra: Record<string, unknown> = {}) => ({ host: '127.0.0.1', port: sink.port, secure_mode: 'none', send_rate_per_second: 5000, ...extra });
  const sinkCounts = () => {
    const counts = new Map<string, number>();
    for (const mail of sink.received) counts.set(mail.to[0], (counts.get(mail.to[0]) ?? 0) + 1);
    return counts;
  };

  beforeAll(async () => {
    postmark = await startFakeProvider('postmark');
    await sink.start();
    await bed.start();
  });
  afterAll(async () => {
    await sink.stop();
    await postmark.stop();
  });

  it('a provider 429 pauses the run with its reason and next retry, and it resumes by itself and finishes, each recipient once', async () => {
    await bed.workspace('wsp_pm', 30);
    const settings = fakeProviderSettings('postmark');
    await bed.connection('wsp_pm', 'edc_pm', 'postmark', { ...settings.config, send_rate_per_second: 1000 }, settings.secrets);
    await bed.broadcast('wsp_pm', 'brd_pm', 'edc_pm');
    postmark.mode = 'throttle';
    const runId = await bed.send('wsp_pm', 'brd_pm', 'edc_pm');

    const paused = await bed.until(runId, ['paused']);
    expect(paused).toMatchObject({ pause_reason: 'provider_throttled', next_retry_action: 'resume' });
    expect(paused.next_retry_at!.getTime()).toBeGreaterThan(Date.now() - 1000);
    const { rows: events } = await bed
      .sql()
      .query(`SELECT payload->>'phase' AS phase FROM outbox_events WHERE payload->>'run_id' = $1 ORDER BY created_at, id`, [runId]);
    expect(events.map((e) => e.phase)).toEqual(['sending', 'paused']);
    postmark.mode = 'accept';

    const run = await bed.until(runId, ['sent', 'sent_with_errors']);
    expect(run).toMatchObject({ phase: 'sent', accepted: 30, pause_reason: null, next_retry_at: null });
    expectConsistent(run, await bed.states(runId));
    const recipients = postmark.accepted.map((message) => message.to);
    expect(recipients).toHaveLength(30);
    expect(new Set(recipients).size).toBe(30);
  });

  it('cancel racing the last batches: every run ends consistent, canceled or sent, nothing sent twice or after its cancellation', async () => {
    sink.received.length = 0;
    await bed.workspace('wsp_cx', 30);
    await bed.connection('wsp_cx', 'edc_cx', 'custom-smtp', smtp({ send_connections: 2 }));
    for (const [i, delay] of [0, 30, 60, 90, 120, 160, 220, 300].entries()) {
      await bed.broadcast('wsp_cx', `brd_cx${i}`, 'edc_cx');
      const runId = await bed.send('wsp_cx', `brd_cx${i}`, 'edc_cx');
      await bed.until(runId, ['sending', 'sent']);
      await sleep(delay);
      const { rowCount } = await bed
        .sql()
        .query(`UPDATE broadcast_runs SET phase = 'canceling' WHERE id = $1 AND phase IN ('preparing', 'sending', 'paused')`, [runId]);
      const run = await bed.until(runId, ['canceled', 'sent']);
      expect(run.phase).toBe(rowCount ? 'canceled' : 'sent');
      expectConsistent(run, await bed.states(runId));
      expect(run.accepted + run.canceled).toBe(30);
      const broadcast = await bed.prisma().broadcast.findUniqueOrThrow({ where: { id: `brd_cx${i}` } });
      expect(broadcast.status).toBe('completed');
      const atSink = sink.received.length;
      await sleep(300);
      expect(sink.received.length).toBe(atSink);
    }
    // One message per accepted delivery over all eight runs; no address got more from one run than once.
    const { rows } = await bed.sql().query(`SELECT sum(accepted)::int AS accepted FROM broadcast_runs WHERE broadcast_id LIKE 'brd_cx%'`);
    expect(sink.received).toHaveLength(rows[0].accepted);
    expect(Math.max(...sinkCounts().values())).toBeLessThanOrEqual(8);
  });

  it('cancel during preparation stops it after the current chunk and cancels what was written; nothing is sent', async () => {
    sink.received.length = 0;
    await bed.workspace('wsp_cp', 3000);
    await bed.connection('wsp_cp', 'edc_cp', 'custom-smtp', smtp());
    await bed.broadcast('wsp_cp', 'brd_cp', 'edc_cp');
    const runId = await bed.send('wsp_cp', 'brd_cp', 'edc_cp');
    await bed.until(runId, ['preparing']);
    while ((await bed.run(runId)).materialized === 0) await sleep(5);
    await bed.sql().query(`UPDATE broadcast_runs SET phase = 'canceling' WHERE id = $1 AND phase = 'preparing'`, [runId]);
    const run = await bed.until(runId, ['canceled']);
    expectConsistent(run, await bed.states(runId));
    expect(run.materialized).toBeGreaterThan(0);
    expect(run.materialized).toBeLessThan(3000);
    expect(run.canceled).toBe(run.materialized);
    expect(sink.received).toHaveLength(0);
  });

  it('a small run in another workspace finishes while a big one is still sending (fair rotation)', async () => {
    await bed.workspace('wsp_big', 1200);
    await bed.workspace('wsp_small', 20);
    await bed.connection('wsp_big', 'edc_big', 'custom-smtp', smtp({ send_connections: 1 }));
    await bed.connection('wsp_small', 'edc_small', 'custom-smtp', smtp({ send_connections: 1 }));
    await bed.broadcast('wsp_big', 'brd_big', 'edc_big');
    await bed.broadcast('wsp_small', 'brd_small', 'edc_small');
    const big = await bed.send('wsp_big', 'brd_big', 'edc_big');
    await bed.until(big, ['sending']);
    while ((await bed.run(big)).accepted < 100) await sleep(20);

    const small = await bed.send('wsp_small', 'brd_small', 'edc_small');
    const done = await bed.until(small, ['sent']);
    const bigNow = await bed.run(big);
    expect(done.accepted).toBe(20);
    expect(bigNow.phase).toBe('sending');
    expect(bigNow.accepted).toBeLessThan(1000);
    await bed.until(big, ['sent'], 90_000);
  }, 120_000);

  it('scheduled broadcasts start within seconds of their time, once each, with two workers and after a restart', async () => {
    const second = await bed.start();
    await bed.workspace('wsp_sch', 3);
    await bed.connection('wsp_sch', 'edc_sch', 'custom-smtp', smtp());
    const at = new Date(Date.now() + 1500);
    for (let i = 0; i < 4; i++) await bed.broadcast('wsp_sch', `brd_sch${i}`, 'edc_sch', at);
    const runsOf = async (prefix: string) =>
      (
        await bed
          .sql()
          .query<{ broadcast_id: string; created_at: Date }>(`SELECT broadcast_id, created_at FROM broadcast_runs WHERE broadcast_id LIKE $1 || '%'`, [prefix])
      ).rows;
    for (let i = 0; i < 100 && (await runsOf('brd_sch')).length < 4; i++) await sleep(100);
    await sleep(1000);
    const runs = await runsOf('brd_sch');
    expect(runs.map((run) => run.broadcast_id).sort()).toEqual(['brd_sch0', 'brd_sch1', 'brd_sch2', 'brd_sch3']);
    for (const run of runs) expect(run.created_at.getTime() - at.getTime()).toBeLessThan(3000);

    // Every worker down while one comes due; the first worker up starts it.
    await bed.stop(second);
    const first = bed.worker();
    await bed.broadcast('wsp_sch', 'brd_schlate', 'edc_sch', new Date(Date.now() + 200));
    await bed.stop(first);
    await sleep(500);
    expect(await runsOf('brd_schlate')).toHaveLength(0);
    await bed.start();
    for (let i = 0; i < 50 && (await runsOf('brd_schlate')).length < 1; i++) await sleep(100);
    expect(await runsOf('brd_schlate')).toHaveLength(1);

    // Nobody reads a preflight at the scheduled time: a broadcast failing the blocking checks fails, its event names them.
    await bed.connection('wsp_sch', 'edc_sch_off', 'custom-smtp', smtp());
    await bed.sql().query(`UPDATE delivery_connections SET enabled = false WHERE id = 'edc_sch_off'`);
    await bed.broadcast('wsp_sch', 'brd_schoff', 'edc_sch_off', new Date());
    for (let i = 0; i < 50 && (await bed.prisma().broadcast.findUniqueOrThrow({ where: { id: 'brd_schoff' } })).status === 'scheduled'; i++) await sleep(100);
    expect((await bed.prisma().broadcast.findUniqueOrThrow({ where: { id: 'brd_schoff' } })).status).toBe('failed');
    expect(await runsOf('brd_schoff')).toHaveLength(0);
    const { rows } = await bed.sql().query(`SELECT payload FROM outbox_events WHERE payload->>'broadcast_id' = 'brd_schoff'`);
    expect(rows.map((row) => row.payload)).toEqual([
      expect.objectContaining({ change: 'schedule_failed', status: 'failed', blocking_issues: ['broadcast_connection_unavailable'] }),
    ]);
  });
});
