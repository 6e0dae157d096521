import { freePort } from '@shared/testing';
import { createWorkspaceWithKey } from './access';
import { Benchmark, choiceOption, emit, HTTP_LOAD_OPTIONS, httpLoadOption, intOption, log, parseOptions, rateLimitRequestsOption } from './cli';
import { CPU_PROFILE_OPTIONS, cpuProfileIntervalOption, profiled, ProfileSwitch, reportProfile } from './cpu-profile';
import { openBenchDatabase, withClient } from './databases';
import { callApi } from './fixtures';
import { GeneratedRequest, measure, readUntilStill, statusTally, warnOnFailures } from './measure';
import { seedSubscribers } from './seed';
import { appEntry, processRssMb, RunningApp, startApp } from './server';

const DATABASE = 'pl_bench_subscribers_upsert';
type TagVia = 'existing_tag_ids' | 'new_tags' | 'none';

const USAGE = `subscribers-upsert [--existing 100000] [--connections 32] [--duration 10] [--warmup 3]
       [--tag-via existing_tag_ids|new_tags|none] [--database-url URL] [--keep-db] [--cpu-prof-dir DIR] [--cpu-prof-interval-us 250]
       [--rate-limit-requests 0]
  POST /v1/subscribers against the built email-api (RATE_LIMIT_REQUESTS=0 unless --rate-limit-requests): every body sets a custom
  field value (a Text field created first) and one tag; even requests create a new subscriber (a unique
  new email, 201), odd ones upsert one of the <existing> seeded subscribers (each in turn, 200).
  Afterwards it checks that the tag's subscriber_count (the tag row's base plus its count shards) equals the number
  of subscriber_tags rows.
  --existing      subscribers seeded into the workspace before the run (the "existing" half draws on them)
  --tag-via       existing_tag_ids: the tag is created first and sent by id (default);
                  new_tags: sent by name, so the first request creates it and the others find it;
                  none: no tag (a diagnostic: the same upsert without the shared tag counter row)
  --database-url  a migrated email database (default: ${DATABASE}, created, migrated and dropped
                  afterwards unless --keep-db); each run uses a workspace of its own
  --rate-limit-requests  the app's RATE_LIMIT_REQUESTS (default 0: limit off; e.g. 10000000 keeps the
                  limit's Redis round trip without ever refusing)
  --cpu-prof-dir  profile the app during the measured phase and print where the time went`;

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    existing: { type: 'string' },
    ...HTTP_LOAD_OPTIONS,
    'tag-via': { type: 'string' },
    'database-url': { type: 'string' },
    'keep-db': { type: 'boolean' },
    ...CPU_PROFILE_OPTIONS,
    'rate-limit-requests': { type: 'string' },
  });
  const rateLimitRequests = rateLimitRequestsOption(o['rate-limit-requests']);
  const existingCount = intOption(o.existing, 'existing', 100_000, 1, 50_000_000);
  const { connections, duration, warmup } = httpLoadOption(o);
  const tagVia = choiceOption<TagVia>(o['tag-via'], 'tag-via', 'existing_tag_ids', ['existing_tag_ids', 'new_tags', 'none']);
  const intervalUs = cpuProfileIntervalOption(o);

  const database = await openBenchDatabase('subscribers-upsert', { name: DATABASE, givenUrl: o['database-url'], keep: o['keep-db'] });
  let app: RunningApp | undefined;
  try {
    const { workspace_id: workspaceId, api_key: apiKey } = await createWorkspaceWithKey(database.url, 'Bench subscribers-upsert');
    const seeded = await seedSubscribers({
      url: database.url,
      workspaceId,
      count: existingCount,
      years: 5,
      seed: 7,
      batchRows: 2000,
      indexMode: 'keep',
      fkMode: 'auto',
    });
    const firstNumber = Number(/^user(\d+)@/.exec(seeded.first_email)![1]);
    log(`subscribers-upsert: workspace ${workspaceId} with ${existingCount.toLocaleString('en-US')} seeded subscribers (${seeded.total_seconds}s)`);

    const wrap = o['cpu-prof-dir'] ? profiled(appEntry('email-api'), o['cpu-prof-dir'], `subscribers-upsert-${Date.now()}`, intervalUs) : undefined;
    app = await startApp(wrap?.entry ?? appEntry('email-api'), {
      port: await freePort(),
      env: { EMAIL_DATABASE_URL: database.url, RATE_LIMIT_REQUESTS: String(rateLimitRequests), LOG_LEVEL: 'silent', ...(wrap?.env ?? {}) },
    });
    const profile = wrap ? new ProfileSwitch(app.pid, wrap.out) : undefined;
    const baseUrl = app.baseUrl;

    const field = await callApi<{ data: { id: string } }>(baseUrl, 'POST', '/v1/custom-fields', {
      key: apiKey,
      body: { label: 'Plan', type: 'Text' },
      expect: 201,
    });
    const fieldId = field.body.data.id;
    const tagName = `Bench upsert via ${tagVia}`;
    let tagId: string | undefined;
    if (tagVia === 'existing_tag_ids') {
      tagId = (await callApi<{ data: { id: string } }>(baseUrl, 'POST', '/v1/tags', { key: apiKey, body: { name: tagName }, expect: 201 })).body.data.id;
    }
    const tagPart = tagVia === 'existing_tag_ids' ? { existing_tag_ids: [tagId] } : tagVia === 'new_tags' ? { new_tags: [tagName] } : {};

    // Even numbers: a new, unique email (201). Odd: the next seeded subscriber (200), wrapping around.
    const runId = Date.now().toString(36);
    let sent = 0;
    let nextExisting = 0;
    const bodyFor = (i: number) => {
      const existing = i % 2 === 1;
      const email = existing ? `user${firstNumber + (nextExisting++ % existingCount)}@seed.example` : `new-${runId}-${i}@upsert.bench.example`;
      return JSON.stringify({ email, name: `Bench ${i}`, custom_fields: { [fieldId]: `plan-${i % 7}` }, ...tagPart });
    };

    // One request by hand first: a broken body must fail loudly, not be measured as fast 4xx answers.
    const probe = await callApi<{ data: { tags: Array<{ id: string }>; custom_fields: Record<string, unknown> } }>(baseUrl, 'POST', '/v1/subscribers', {
      key: apiKey,
      body: JSON.parse(bodyFor(sent++)),
      expect: 201,
    });
    if (probe.body.data.tags.length !== (tagVia === 'none' ? 0 : 1) || probe.body.data.custom_fields[fieldId] !== 'plan-0')
      throw new Error(`unexpected upsert answer: ${probe.text.slice(0, 500)}`);
    tagId ??= probe.body.data.tags[0]?.id;
    await callApi(baseUrl, 'POST', '/v1/subscribers', { key: apiKey, body: JSON.parse(bodyFor(sent++)), expect: 200 });

    const requests: GeneratedRequest[] = [
      {
        method: 'POST',
        path: '/v1/subscribers',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: bodyFor(sent++) }),
      },
    ];
    const answered = statusTally();
    log(`subscribers-upsert: POST /v1/subscribers (${tagVia}, custom field ${fieldId}): ${warmup}s warm-up + ${duration}s at ${connections} connections`);
    const result = await measure({
      url: baseUrl,
      requests,
      connections,
      duration,
      warmup,
      appPid: app.pid,
      databaseUrl: database.url,
      sampleBackends: true,
      beforeMeasure: () => profile?.start(),
      onResponse: answered.add,
    });
    const profileFile = await profile?.stop();
    emit({
      bench: 'subscribers-upsert',
      route: 'POST /v1/subscribers',
      tag_via: tagVia,
      existing_subscribers: existingCount,
      rate_limit_requests: rateLimitRequests,
      connections,
      duration_s: duration,
      ...result,
      goal_at_least_800_req_per_s: result.req_per_s >= 800,
      server_rss_mb: processRssMb(app.pid),
      ...(profileFile ? { cpu_profile: profileFile } : {}),
    });
    warnOnFailures('subscribers-upsert', result);
    if (profileFile) reportProfile('subscribers-upsert', 'email-api POST /v1/subscribers', profileFile);

    if (!tagId) return;
    // Requests cut off when autocannon stopped may still be committing: wait until the table is still.
    const state = await readUntilStill(() =>
      withClient(database.url, async (client) => {
        const { rows } = await client.query<{
          counter: number;
          tagged: string;
          tagged_new: string;
          tagged_existing: string;
          with_value: string;
          created: string;
        }>(
          `SELECT (SELECT subscriber_count + COALESCE((SELECT sum(delta) FROM tag_count_shards WHERE tag_id = $1), 0) FROM tags WHERE id = $1)::int AS counter,
                  (SELECT count(*) FROM subscriber_tags WHERE tag_id = $1) AS tagged,
                  (SELECT count(*) FROM subscriber_tags st JOIN subscribers s ON s.id = st.subscriber_id
                    WHERE st.tag_id = $1 AND s.email LIKE 'new-%') AS tagged_new,
                  (SELECT count(*) FROM subscriber_tags st JOIN subscribers s ON s.id = st.subscriber_id
                    WHERE st.tag_id = $1 AND s.email LIKE 'user%@seed.example') AS tagged_existing,
                  (SELECT count(*) FROM subscribers WHERE workspace_id = $2 AND custom_fields ? $3) AS with_value,
                  (SELECT count(*) FROM subscribers WHERE workspace_id = $2 AND email LIKE 'new-%') AS created`,
          [tagId, workspaceId, fieldId],
        );
        return rows[0];
      }),
    );
    const tagged = Number(state.tagged);
    const ok2xx =
      Object.entries(answered.counts)
        .filter(([code]) => code.startsWith('2'))
        .reduce((sum, [, n]) => sum + n, 0) + 2; // + the two probes
    emit({
      bench: 'subscribers-upsert',
      check: 'tag subscriber_count',
      tag_id: tagId,
      tag_subscriber_count: state.counter,
      tagged_subscribers: tagged,
      consistent: state.counter === tagged,
      tagged_new: Number(state.tagged_new),
      tagged_existing: Number(state.tagged_existing),
      subscribers_created: Number(state.created),
      subscribers_with_field_value: Number(state.with_value),
      answers_2xx_incl_warmup: ok2xx,
      answers_incl_warmup: answered.counts,
    });
    if (state.counter !== tagged) log(`subscribers-upsert: MISMATCH: subscriber_count ${state.counter}, ${tagged} tagged subscribers`);
    if (nextExisting <= existingCount && tagged < ok2xx) log(`subscribers-upsert: MISMATCH: ${ok2xx} successful answers but only ${tagged} tagged subscribers`);
  } finally {
    await app?.stop();
    await database.release();
  }
}

export const subscribersUpsertBenchmark: Benchmark = {
  name: 'subscribers-upsert',
  summary: 'POST /v1/subscribers with a custom field and a tag, half new and half existing emails; req/s, p50/p99, tag counter check',
  usage: USAGE,
  run,
};
