import { RunPreparer } from '@email/broadcasts';
import { loadConfig } from '@shared/config';
import { uniqueQueuePrefix } from '@shared/testing';
import { benchAudience, benchConnection, benchRun, pipelineContext } from './broadcast-bench-data';
import { Benchmark, emit, intOption, log, parseOptions, round } from './cli';
import { openBenchDatabase, redactUrl, withClient } from './databases';
import { median } from './measure';

const DATABASE = 'pl_bench_broadcast';
const FULL = 1_000_000;
const GOAL_SECONDS_PER_MILLION = 15;

const USAGE = `broadcast-prepare [--recipients 200000 | --full] [--chunk 50000] [--rounds 3] [--database-url URL] [--keep-db]
  A run's preparation as email-send-worker does it (RunPreparer: the audience engine's compiled predicate for the whole
  workspace, Active only, written as one broadcast_deliveries row per recipient in keyset chunks with the cursor
  committed after each, then counted exactly and moved to sending), against the bare statement (one INSERT … SELECT of
  the same rows, no chunks, no cursor) in the same round. --full: ${FULL.toLocaleString('en-US')} recipients (goal: at most
  ${GOAL_SECONDS_PER_MILLION} s). The subscribers are made once per database and reused.`;

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    recipients: { type: 'string' },
    full: { type: 'boolean' },
    chunk: { type: 'string' },
    rounds: { type: 'string' },
    'database-url': { type: 'string' },
    'keep-db': { type: 'boolean' },
  });
  const recipients = o.full ? FULL : intOption(o.recipients, 'recipients', 200_000, 1, 10_000_000);
  const chunk = intOption(o.chunk, 'chunk', 50_000, 100, 1_000_000);
  const rounds = intOption(o.rounds, 'rounds', 3, 1, 20);
  const database = await openBenchDatabase('broadcast-prepare', { name: DATABASE, givenUrl: o['database-url'], keep: o['keep-db'] ?? true });
  const { url } = database;
  const workspaceId = await benchAudience(url, recipients);
  await benchConnection(url, workspaceId, `edc_bench_prepare_${recipients}`, 2525, 1);
  const base = loadConfig(process.env);
  const app = await pipelineContext(url, uniqueQueuePrefix(), { broadcastSend: { ...base.broadcastSend, prepareChunk: chunk } });
  const pipeline: number[] = [];
  const bare: number[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      await withClient(url, (client) => client.query(`DELETE FROM broadcasts WHERE workspace_id = $1`, [workspaceId]));
      await withClient(url, (client) => client.query('VACUUM ANALYZE broadcast_deliveries'));
      const tag = `${Date.now().toString(36)}${r}`;
      const runId = await benchRun(url, workspaceId, `edc_bench_prepare_${recipients}`, `brd_bp${tag}`, 'preparing');
      let started = performance.now();
      const result = await app.get(RunPreparer).prepare(runId);
      pipeline.push((performance.now() - started) / 1000);
      const bareRun = await benchRun(url, workspaceId, `edc_bench_prepare_${recipients}`, `brd_bb${tag}`, 'paused');
      started = performance.now();
      const inserted = await withClient(url, async (client) => {
        const { rowCount } = await client.query(
          `INSERT INTO broadcast_deliveries (run_id, workspace_id, subscriber_id)
           SELECT $1, $2, s.id FROM subscribers s WHERE s.workspace_id = $2 AND s.status = 'Active' ORDER BY s.id`,
          [bareRun, workspaceId],
        );
        return rowCount ?? 0;
      });
      bare.push((performance.now() - started) / 1000);
      const written = await withClient(
        url,
        async (client) =>
          (await client.query<{ materialized: number; phase: string }>(`SELECT materialized, phase FROM broadcast_runs WHERE id = $1`, [runId])).rows[0],
      );
      if (result !== 'prepared' || written.materialized !== inserted || written.phase !== 'sending') {
        throw new Error(`preparation wrote ${written.materialized} (${result}, ${written.phase}), the bare statement ${inserted}`);
      }
      log(`round ${r + 1}: pipeline ${round(pipeline[r], 2)} s, bare ${round(bare[r], 2)} s for ${inserted.toLocaleString('en-US')} recipients`);
    }
  } finally {
    await withClient(url, (client) => client.query(`DELETE FROM broadcasts WHERE workspace_id = $1`, [workspaceId]));
    await app.close();
    await database.release();
  }
  const seconds = median(pipeline);
  const goal = (GOAL_SECONDS_PER_MILLION * recipients) / FULL;
  emit({
    bench: 'broadcast-prepare',
    recipients,
    chunk,
    rounds,
    seconds: round(seconds, 3),
    seconds_rounds: pipeline.map((s) => round(s, 3)),
    recipients_per_s: Math.round(recipients / seconds),
    bare_seconds: round(median(bare), 3),
    bare_seconds_rounds: bare.map((s) => round(s, 3)),
    ratio_bare_over_pipeline: round(median(bare) / seconds, 3),
    goal_seconds: goal,
    meets_goal: seconds <= goal,
    database_url: redactUrl(url),
  });
}

export const broadcastPrepareBenchmark: Benchmark = {
  name: 'broadcast-prepare',
  summary: 'materialise a run of 200,000 recipients (--full: 1,000,000; goal ≤ 15 s) vs one bare INSERT … SELECT',
  usage: USAGE,
  run,
};
