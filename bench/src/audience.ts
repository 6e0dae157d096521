import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { EmailDataAccessModule, Prisma } from '@email/data-access';
import { AudienceDefinition, AudienceRepository, CompiledAudience, parseAudienceDefinition, REGIONS } from '@email/audience-engine';
import { ConfigModule } from '@shared/config';
import { CoreModule, trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { AudienceSeed, AudienceSeedParams, deleteAudienceWorkspace, earlierAudienceWorkspaces, findAudienceSeed, seedAudience } from './audience-seed';
import { Benchmark, emit, intOption, log, parseOptions, round } from './cli';
import { dropBenchDatabase, ensureBenchDatabase, redactUrl, withClient } from './databases';
import { LatencySamples } from './load';

const DATABASE = 'pl_bench_audience';
const COUNT_GOAL_MS = 300;
const HAND_RATIO_GOAL = 1.5;
const PAGE_GOAL_MS = 50;

const USAGE = `audience [--count 1000000] [--events 10000000] [--repeat 20] [--warmup 3] [--page-size 1000]
       [--lifetime-value-over 250] [--opened-days 30] [--reseed] [--explain] [--database-url URL] [--seed 42]
  The audience engine on one workspace of <count> subscribers (20 tags, 5 custom fields, countries worldwide) with
  ~<events> engagement events over the last half year and the engagement rollup. The definition: tag has any of
  [Product updates, Webinar attendee] AND (lifetime value > <lifetime-value-over> AND country in region EU) AND
  email opened in the last <opened-days> days. Measured, each <repeat> times after <warmup>, interleaved:
    count: AudienceRepository.compile + count (a preview), count alone (the compiled statement) and the same rule
           as hand-written SQL on a plain pg client; the counts must agree
    page:  AudienceRepository.page of <page-size> matching ids from the start and from the middle of the matching
           ids (the audience compiled once, as a send does), and the same page by hand-written SQL; the ids must agree
  --database-url  a migrated email database (default: ${DATABASE}, created and migrated if missing, and kept)
  --reseed        seed again even when a finished seed with the same --count, --events and --seed is there
                  (on ${DATABASE}: the database is dropped and re-created first; on --database-url: the earlier
                  audience workspaces are deleted)
  --explain       print EXPLAIN (ANALYZE, BUFFERS) of the compiled and the hand-written statements on stderr`;

@Module({})
class BenchAudienceModule {}

/** The benchmark's definition, through the contract's own parser. */
function definitionFor(seed: AudienceSeed, lifetimeValueOver: number, openedDays: number): AudienceDefinition {
  return parseAudienceDefinition({
    match: 'all',
    groups: [
      {
        id: 'interests',
        match: 'any',
        conditions: [{ id: 'tags', field: 'tag', operator: 'has_any_of', value: [seed.tags['Product updates'], seed.tags['Webinar attendee']] }],
      },
      {
        id: 'valuable_in_eu',
        match: 'all',
        conditions: [
          { id: 'value', field: 'custom_field', customFieldId: seed.fields.lifetime_value, operator: 'greater_than', value: lifetimeValueOver },
          { id: 'eu', field: 'country', operator: 'in_region', value: 'EU' },
        ],
      },
      { id: 'engaged', match: 'all', conditions: [{ id: 'opened', field: 'email_opened', operator: 'in_last_days', value: openedDays }] },
    ],
  });
}

interface HandRule {
  text: string;
  values: unknown[];
}

/**
 * The same rule written by hand, as one would for this definition: a join to the engagement rollup instead of
 * EXISTS, the custom field read directly (its values are numbers). Opened "in the last N days" is from the start of
 * the UTC day N days ago, as the engine defines it.
 */
function handRule(seed: AudienceSeed, lifetimeValueOver: number, openedDays: number, today: string): HandRule {
  const since = new Date(Date.parse(`${today}T00:00:00Z`) - openedDays * 86_400_000);
  return {
    text: `FROM subscribers s
      JOIN subscriber_engagement g ON g.subscriber_id = s.id AND g.workspace_id = $1
      WHERE s.workspace_id = $1
        AND g.last_opened_at >= $2
        AND s.country = ANY($3::text[])
        AND (s.custom_fields ->> $4)::numeric > $5
        AND EXISTS (SELECT 1 FROM subscriber_tags st WHERE st.workspace_id = $1 AND st.subscriber_id = s.id AND st.tag_id = ANY($6::text[]))`,
    values: [
      seed.workspaceId,
      since,
      [...REGIONS.EU],
      seed.fields.lifetime_value,
      lifetimeValueOver,
      [seed.tags['Product updates'], seed.tags['Webinar attendee']],
    ],
  };
}

const handCount = (rule: HandRule) => ({
  text: `SELECT count(*) FILTER (WHERE s.status = 'Active')::int AS confirmed, count(*)::int AS total ${rule.text}`,
  values: rule.values,
});
const handPage = (rule: HandRule, afterId: string | null, limit: number) => ({
  text: `SELECT s.id ${rule.text} ${afterId === null ? '' : `AND s.id > $${rule.values.length + 1}`} ORDER BY s.id LIMIT ${limit}`,
  values: afterId === null ? rule.values : [...rule.values, afterId],
});
// The repository's statements around the compiled predicate, for EXPLAIN only (the measured runs call the repository).
const compiledCount = (audience: CompiledAudience) =>
  Prisma.sql`SELECT count(*) FILTER (WHERE s.status = 'Active')::int AS confirmed, count(*)::int AS total FROM subscribers s WHERE ${audience.predicate}`;
const compiledPage = (audience: CompiledAudience, afterId: string | null, limit: number) =>
  Prisma.sql`SELECT s.id FROM subscribers s WHERE ${audience.predicate} ${afterId === null ? Prisma.empty : Prisma.sql`AND s.id > ${afterId}`} ORDER BY s.id LIMIT ${limit}`;

async function timed<T>(samples: LatencySamples, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  samples.add(performance.now() - started);
  return result;
}

/** Runs each named job `repeat` times after `warmup` unmeasured rounds, rotating which goes first in each round. */
async function interleaved(jobs: Record<string, () => Promise<unknown>>, repeat: number, warmup: number): Promise<Record<string, LatencySamples>> {
  const names = Object.keys(jobs);
  const samples = Object.fromEntries(names.map((name) => [name, new LatencySamples()]));
  for (let pass = 0; pass < warmup + repeat; pass++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(pass + i) % names.length];
      if (pass < warmup) await jobs[name]();
      else await timed(samples[name], jobs[name]);
    }
  }
  return samples;
}

const median = (samples: LatencySamples) => samples.summary().p50;
/** `<prefix>median_ms` and `<prefix>p95_ms` of some samples. */
const timing = (prefix: string, samples: LatencySamples) => {
  const { p50, p95 } = samples.summary();
  return { [`${prefix}median_ms`]: p50, [`${prefix}p95_ms`]: p95 };
};

async function explain(client: Client, label: string, statement: { text: string; values: unknown[] }): Promise<void> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, values: statement.values });
  log(`audience: EXPLAIN ANALYZE ${label}\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
}

/** Finds the finished seed for these parameters or makes one (after removing earlier, unfinished or different ones). */
async function prepareData(
  givenUrl: string | undefined,
  params: AudienceSeedParams,
  reseed: boolean,
): Promise<{ url: string; seed: AudienceSeed; seeded: boolean }> {
  let url = givenUrl ?? (await ensureBenchDatabase(DATABASE)).url;
  const existing = reseed ? undefined : await withClient(url, (client) => findAudienceSeed(client, params));
  if (existing) {
    log(`audience: reusing the seeded workspace ${existing.workspaceId} (--reseed seeds again)`);
    return { url, seed: existing, seeded: false };
  }
  const earlier = await withClient(url, earlierAudienceWorkspaces);
  if (earlier.length && !givenUrl) {
    log(`audience: dropping ${DATABASE} (it holds an earlier or different audience seed) and creating it again`);
    await dropBenchDatabase(DATABASE);
    url = (await ensureBenchDatabase(DATABASE)).url;
  } else if (earlier.length) {
    await withClient(url, async (client) => {
      for (const workspaceId of earlier) {
        log(`audience: deleting the earlier audience workspace ${workspaceId}`);
        await deleteAudienceWorkspace(client, workspaceId);
      }
    });
  }
  return { url, seed: await seedAudience(url, params, log), seeded: true };
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    count: { type: 'string' },
    events: { type: 'string' },
    repeat: { type: 'string' },
    warmup: { type: 'string' },
    'page-size': { type: 'string' },
    'lifetime-value-over': { type: 'string' },
    'opened-days': { type: 'string' },
    reseed: { type: 'boolean' },
    explain: { type: 'boolean' },
    'database-url': { type: 'string' },
    seed: { type: 'string' },
  });
  const params: AudienceSeedParams = {
    subscribers: intOption(o.count, 'count', 1_000_000, 10, 100_000_000),
    events: intOption(o.events, 'events', 10_000_000, 0, 1_000_000_000),
    seed: intOption(o.seed, 'seed', 42, 0, 2 ** 31 - 1),
  };
  const repeat = intOption(o.repeat, 'repeat', 20, 1, 10_000);
  const warmup = intOption(o.warmup, 'warmup', 3, 0, 1_000);
  const pageSize = intOption(o['page-size'], 'page-size', 1000, 1, 10_000);
  const lifetimeValueOver = intOption(o['lifetime-value-over'], 'lifetime-value-over', 250, 0, 1_000_000);
  const openedDays = intOption(o['opened-days'], 'opened-days', 30, 1, 36_500);

  const { url, seed, seeded } = await prepareData(o['database-url'], params, o.reseed ?? false);
  emit({ bench: 'audience', phase: 'data', seeded, workspace_id: seed.workspaceId, ...seed.stats, database_url: redactUrl(url) });

  const app = await NestFactory.createApplicationContext(
    {
      module: BenchAudienceModule,
      imports: [ConfigModule.forRoot({}, { emailDatabaseUrl: url }), CoreModule, EmailDataAccessModule],
      providers: [AudienceRepository],
    },
    { logger: false },
  );
  const client = new Client({ connectionString: url, application_name: 'bench-audience-hand' });
  await client.connect();
  try {
    const audiences = app.get(AudienceRepository);
    const workspaceId: WorkspaceId = trustedWorkspaceId(seed.workspaceId);
    const definition = definitionFor(seed, lifetimeValueOver, openedDays);
    const today = new Date().toISOString().slice(0, 10);
    const rule = handRule(seed, lifetimeValueOver, openedDays, today);
    const audience = await audiences.compile(workspaceId, definition);

    // The two must select the same subscribers, or the comparison means nothing.
    const compiled = await audiences.count(audience);
    const { rows: hand } = await client.query<{ confirmed: number; total: number }>(handCount(rule));
    if (compiled.total !== hand[0].total || compiled.confirmed !== hand[0].confirmed) {
      throw new Error(`the compiled count ${JSON.stringify(compiled)} and the hand-written one ${JSON.stringify(hand[0])} disagree`);
    }
    log(`audience: the definition matches ${compiled.total.toLocaleString('en-US')} subscribers (${compiled.confirmed.toLocaleString('en-US')} Active)`);

    const counts = await interleaved(
      {
        compile_and_count: async () => audiences.count(await audiences.compile(workspaceId, definition)),
        count: () => audiences.count(audience),
        hand_sql: () => client.query(handCount(rule)),
      },
      repeat,
      warmup,
    );
    const ratio = median(counts.count) / median(counts.hand_sql);
    emit({
      bench: 'audience',
      measure: 'count',
      matching_total: compiled.total,
      matching_confirmed: compiled.confirmed,
      runs: repeat,
      ...timing('compile_and_count_', counts.compile_and_count),
      ...timing('count_', counts.count),
      ...timing('hand_sql_', counts.hand_sql),
      count_to_hand_sql: round(ratio, 2),
      goal_compile_and_count_at_most_300_ms: median(counts.compile_and_count) <= COUNT_GOAL_MS,
      goal_count_within_1_5x_hand_sql: ratio <= HAND_RATIO_GOAL,
    });

    // The middle: the matching id halfway through, in id order (by hand, before measuring).
    const middle = Math.floor(compiled.total / 2);
    const { rows: at } = await client.query<{ id: string }>({
      text: `SELECT s.id ${rule.text} ORDER BY s.id OFFSET $${rule.values.length + 1} LIMIT 1`,
      values: [...rule.values, Math.max(0, middle - 1)],
    });
    const starts: Array<[string, string | null]> = [
      ['start', null],
      ['middle', middle > 0 ? at[0].id : null],
    ];
    for (const [from, afterId] of starts) {
      const ids = await audiences.page(audience, afterId, pageSize);
      const { rows: expected } = await client.query<{ id: string }>(handPage(rule, afterId, pageSize));
      if (ids.join() !== expected.map((row) => row.id).join()) throw new Error(`the page from the ${from} differs from the hand-written page`);
      const pages = await interleaved(
        { page: () => audiences.page(audience, afterId, pageSize), hand_sql: () => client.query(handPage(rule, afterId, pageSize)) },
        repeat,
        warmup,
      );
      emit({
        bench: 'audience',
        measure: 'page',
        from,
        page_size: pageSize,
        ids: ids.length,
        runs: repeat,
        ...timing('', pages.page),
        ...timing('hand_sql_', pages.hand_sql),
        page_to_hand_sql: round(median(pages.page) / median(pages.hand_sql), 2),
        goal_at_most_50_ms: median(pages.page) <= PAGE_GOAL_MS,
      });
    }

    if (o.explain) {
      const sql = (statement: Prisma.Sql) => ({ text: statement.text, values: statement.values });
      await explain(client, 'compiled count', sql(compiledCount(audience)));
      await explain(client, 'hand-written count', handCount(rule));
      for (const [from, afterId] of starts) {
        await explain(client, `compiled page from the ${from}`, sql(compiledPage(audience, afterId, pageSize)));
        await explain(client, `hand-written page from the ${from}`, handPage(rule, afterId, pageSize));
      }
    }
  } finally {
    await client.end();
    await app.close();
  }
}

export const audienceBenchmark: Benchmark = {
  name: 'audience',
  summary: 'audience engine: count a three-group definition and page its ids on 1M subscribers / 10M events, vs hand SQL',
  usage: USAGE,
  run,
};
