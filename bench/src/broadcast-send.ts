import { createTransport } from 'nodemailer';
import type { INestApplicationContext } from '@nestjs/common';
import { BroadcastMessages, BroadcastMessageSources, RunPreparer } from '@email/broadcasts';
import { EmailPrisma } from '@email/data-access';
import { trustedWorkspaceId } from '@shared/core';
import { freePort, uniqueQueuePrefix } from '@shared/testing';
import { benchAudience, benchConnection, benchRun, pipelineContext } from './broadcast-bench-data';
import { startSmtpSink, SmtpSinkProcess } from './broadcast-smtp-sink';
import { Benchmark, emit, intOption, log, numberOption, parseOptions, round, UsageError } from './cli';
import { openBenchDatabase, redactUrl, withClient } from './databases';
import { median } from './measure';
import { appEntry, processRssMb, RunningApp, startApp } from './server';

const DATABASE = 'pl_bench_broadcast';
const FULL = 100_000;
const GOAL_RATIO = 0.7;

const USAGE = `broadcast-send [--messages 20000 | --full] [--connections 8] [--rounds 3] [--latency-ms 0]
       [--connections-list 1,2,4,8,16] [--database-url URL]
  Personalised broadcast emails (name and email tokens, signed click link, open pixel, footer with the signed
  unsubscribe link, List-Unsubscribe headers) sent by one built email-send-worker over custom-smtp to a local
  smtp-server sink (its own process), from the run entering sending to its end, against a bare nodemailer pooled
  loop (the same connections) filling and sending the same messages to the same sink in the same round. Every message
  is counted at the sink. --full: ${FULL.toLocaleString('en-US')} messages (goal: at least ${GOAL_RATIO * 100} % of the bare loop).
  The worker's peak RSS is printed.
  --latency-ms N  the sink answers each message N ms late; then, for each of --connections-list, the worker's
                  throughput against Little's law (connections ÷ latency), with the bare loop's alongside.`;

interface RunProgress {
  phase: string;
  materialized: number;
  accepted: number;
  sending_started_at: Date;
  finished_at: Date;
}

interface Round {
  messages: number;
  seconds: number;
  rate: number;
}

/** Sends one prepared run through the running worker; the sending phase's duration as the database recorded it. */
async function sendThroughWorker(
  url: string,
  app: INestApplicationContext,
  worker: RunningApp,
  sink: SmtpSinkProcess,
  workspaceId: string,
  connectionId: string,
  tag: string,
): Promise<Round & { rssMb: number }> {
  await sink.reset();
  const runId = await benchRun(url, workspaceId, connectionId, `brd_bs${tag}`, 'preparing');
  let rssMb = 0;
  const sampler = setInterval(() => (rssMb = Math.max(rssMb, processRssMb(worker.pid) ?? 0)), 200);
  try {
    if ((await app.get(RunPreparer).prepare(runId)) !== 'prepared') throw new Error(`run ${runId} was not prepared`);
    for (;;) {
      const row = await withClient(url, async (client) => (await client.query<RunProgress>(`SELECT * FROM broadcast_runs WHERE id = $1`, [runId])).rows[0]);
      if (['sent', 'sent_with_errors', 'failed', 'canceled'].includes(row.phase)) {
        const counts = await sink.counts();
        if (row.phase !== 'sent' || counts.messages !== row.materialized || counts.recipients !== row.materialized || row.accepted !== row.materialized) {
          throw new Error(`run ${runId} ended ${row.phase}: accepted ${row.accepted} of ${row.materialized}, sink ${JSON.stringify(counts)}`);
        }
        const seconds = (row.finished_at.getTime() - row.sending_started_at.getTime()) / 1000;
        return { messages: row.materialized, seconds, rate: row.materialized / seconds, rssMb };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    clearInterval(sampler);
  }
}

/** The same messages, filled here and sent through nodemailer's pool, `connections` SMTP connections. */
async function sendBare(app: INestApplicationContext, sink: SmtpSinkProcess, workspaceId: string, count: number, connections: number): Promise<Round> {
  await sink.reset();
  const workspace = trustedWorkspaceId(workspaceId);
  const context = await app.get(BroadcastMessageSources).contextOf(workspace);
  const broadcast = await app.get(EmailPrisma).broadcast.findFirstOrThrow({ where: { workspace_id: workspaceId }, orderBy: { created_at: 'desc' } });
  const prepared = await app
    .get(BroadcastMessages)
    .prepare({ ...context!, broadcast, sender: { email: 'news@bench.example', name: 'Bench News' }, runId: 'brun_bare' });
  const subscribers = await app
    .get(EmailPrisma)
    .subscriber.findMany({ where: { workspace_id: workspaceId }, select: { id: true, email: true, name: true }, take: count });
  const transport = createTransport({
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
    host: '127.0.0.1',
    port: sink.port,
    secure: false,
    ignoreTLS: true,
  });
  const started = performance.now();
  let next = 0;
  const sender = async () => {
    for (let i = next++; i < subscribers.length; i = next++) {
      const subscriber = subscribers[i];
      const message = prepared.messageFor({ subscriberId: subscriber.id, email: subscriber.email, name: subscriber.name });
      await transport.sendMail({
        messageId: message.messageId,
        from: message.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: message.headers,
      });
    }
  };
  await Promise.all(Array.from({ length: connections * 4 }, sender));
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  const counts = await sink.counts();
  if (counts.messages !== subscribers.length) throw new Error(`the bare loop delivered ${counts.messages} of ${subscribers.length}`);
  return { messages: subscribers.length, seconds, rate: subscribers.length / seconds };
}

async function startWorker(url: string, queuePrefix: string): Promise<RunningApp> {
  const port = await freePort();
  return startApp(appEntry('email-send-worker'), {
    port,
    env: { EMAIL_DATABASE_URL: url, QUEUE_PREFIX: queuePrefix, HEALTH_PORT: String(port), BROADCAST_POLL_INTERVAL_MS: '100', LOG_LEVEL: 'warn' },
  });
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    messages: { type: 'string' },
    full: { type: 'boolean' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    'latency-ms': { type: 'string' },
    'connections-list': { type: 'string' },
    'database-url': { type: 'string' },
  });
  const messages = o.full ? FULL : intOption(o.messages, 'messages', 20_000, 1, 1_000_000);
  const connections = intOption(o.connections, 'connections', 8, 1, 256);
  const rounds = intOption(o.rounds, 'rounds', 3, 1, 20);
  const latencyMs = numberOption(o['latency-ms'], 'latency-ms', 0, 0, 10_000);
  const list = (o['connections-list'] ?? '1,2,4,8,16').split(',').map((n) => intOption(n.trim(), 'connections-list', 1, 1, 256));
  if (!list.length) throw new UsageError('--connections-list needs at least one number');

  const database = await openBenchDatabase('broadcast-send', { name: DATABASE, givenUrl: o['database-url'], keep: true });
  const { url } = database;
  const queuePrefix = uniqueQueuePrefix();
  const sink = await startSmtpSink(latencyMs);
  const app = await pipelineContext(url, queuePrefix);
  const worker = await startWorker(url, queuePrefix);
  try {
    if (latencyMs > 0) {
      for (const c of list) {
        // About ten seconds of sending at the predicted rate, so the run's fixed costs (compiling the content, noticing the run) weigh little.
        const count = Math.max(100, Math.round((10 * c * 1000) / latencyMs));
        const workspaceId = await benchAudience(url, count);
        const connectionId = `edc_bench_send_${count}_${c}`;
        await benchConnection(url, workspaceId, connectionId, sink.port, c);
        const piped: Round[] = [];
        const bare: Round[] = [];
        for (let r = 0; r < rounds; r++) {
          piped.push(await sendThroughWorker(url, app, worker, sink, workspaceId, connectionId, `${Date.now().toString(36)}${c}${r}`));
          bare.push(await sendBare(app, sink, workspaceId, count, c));
        }
        const predicted = (c * 1000) / latencyMs;
        const rate = median(piped.map((p) => p.rate));
        log(`${c} connections: predicted ${round(predicted)} msg/s, worker ${round(rate)} msg/s, bare ${round(median(bare.map((b) => b.rate)))} msg/s`);
        emit({
          bench: 'broadcast-send',
          table: 'littles-law',
          latency_ms: latencyMs,
          connections: c,
          messages: count,
          rounds,
          predicted_msgs_per_s: round(predicted, 1),
          msgs_per_s: round(rate, 1),
          msgs_per_s_rounds: piped.map((p) => round(p.rate, 1)),
          ratio_to_predicted: round(rate / predicted, 3),
          bare_msgs_per_s: round(median(bare.map((b) => b.rate)), 1),
        });
      }
      return;
    }
    const workspaceId = await benchAudience(url, messages);
    const connectionId = `edc_bench_send_${messages}_${connections}`;
    await benchConnection(url, workspaceId, connectionId, sink.port, connections);
    const piped: Array<Round & { rssMb: number }> = [];
    const bare: Round[] = [];
    for (let r = 0; r < rounds; r++) {
      piped.push(await sendThroughWorker(url, app, worker, sink, workspaceId, connectionId, `${Date.now().toString(36)}${r}`));
      bare.push(await sendBare(app, sink, workspaceId, messages, connections));
      log(`round ${r + 1}: worker ${round(piped[r].rate)} msg/s (peak RSS ${piped[r].rssMb} MB), bare nodemailer pool ${round(bare[r].rate)} msg/s`);
    }
    const rate = median(piped.map((p) => p.rate));
    const bareRate = median(bare.map((b) => b.rate));
    emit({
      bench: 'broadcast-send',
      messages,
      connections,
      rounds,
      msgs_per_s: round(rate, 1),
      msgs_per_s_rounds: piped.map((p) => round(p.rate, 1)),
      bare_msgs_per_s: round(bareRate, 1),
      bare_msgs_per_s_rounds: bare.map((b) => round(b.rate, 1)),
      ratio: round(rate / bareRate, 3),
      goal_ratio: GOAL_RATIO,
      meets_goal: rate / bareRate >= GOAL_RATIO,
      worker_peak_rss_mb: Math.max(...piped.map((p) => p.rssMb)),
      database_url: redactUrl(url),
    });
  } finally {
    await worker.stop();
    await app.close();
    await sink.stop();
    await withClient(url, (client) => client.query(`DELETE FROM broadcasts WHERE workspace_id LIKE 'wsp_bench_bc_%'`));
    await database.release();
  }
}

export const broadcastSendBenchmark: Benchmark = {
  name: 'broadcast-send',
  summary: "personalised emails through email-send-worker to a local SMTP sink vs a bare nodemailer pool (--full: 100,000; --latency-ms: Little's law table)",
  usage: USAGE,
  run,
};
