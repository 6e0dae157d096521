import { Benchmark, choiceOption, emit, HTTP_LOAD_OPTIONS, httpLoadOption, log, parseOptions } from './cli';
import { CPU_PROFILE_OPTIONS, cpuProfileIntervalOption, reportProfile } from './cpu-profile';
import { openBenchDatabase, withClient } from './databases';
import { callApi } from './fixtures';
import { BENCH_FORM_FIELD_COUNT, BENCH_FORM_STEP_COUNT, benchAnswers, createFormsAccount, createPublishedBenchForm, startFormsApi } from './forms-fixtures';
import { GeneratedRequest, measure, readUntilStill, statusTally, warnOnFailures } from './measure';
import { processRssMb, RunningApp } from './server';

const DATABASE = 'pl_bench_forms_submission';
const GOAL_REQ_PER_S = 1000;
const GOAL_P99_MS = 50;
type Via = 'api' | 'public';

const USAGE = `forms-submission [--via api|public] [--connections 32] [--duration 10] [--warmup 3] [--database-url URL] [--keep-db]
       [--cpu-prof-dir DIR] [--cpu-prof-interval-us 250]
  Submissions to a published form (3 steps, 10 fields) against the built forms-api (child process,
  NODE_ENV=production, LOG_LEVEL=silent, RATE_LIMIT_REQUESTS=0). Every body answers all 10 fields (text,
  email, number, dropdown, single and multiple choice, rating, date, long text, checkbox) and carries an
  analyticsSessionId of its own, so no request is a duplicate (409). One request is sent by hand first
  (201, stored with all 10 answers; its repetition 409). Afterwards it checks that the form_submissions
  rows, the form's responses_count and the 201 answers agree.
  --via           api: POST /api/v1/forms/{id}/submissions with the account's key (default);
                  public: POST /api/public/forms/{public_id}/submissions, no key (what the hosted page sends)
  --database-url  a migrated forms database (default: ${DATABASE}, created, migrated and dropped
                  afterwards unless --keep-db); each run uses an account and a form of its own
  --cpu-prof-dir  profile the app during the measured phase and print where the time went`;

interface SubmissionAnswer {
  submission?: { id?: string; completedStepIds?: string[] };
  thank_you?: { id?: string };
}

async function run(args: string[]): Promise<void> {
  const o = parseOptions(args, {
    via: { type: 'string' },
    ...HTTP_LOAD_OPTIONS,
    'database-url': { type: 'string' },
    'keep-db': { type: 'boolean' },
    ...CPU_PROFILE_OPTIONS,
  });
  const via = choiceOption<Via>(o.via, 'via', 'api', ['api', 'public']);
  const { connections, duration, warmup } = httpLoadOption(o);
  const intervalUs = cpuProfileIntervalOption(o);

  const database = await openBenchDatabase('forms-submission', { name: DATABASE, service: 'forms', givenUrl: o['database-url'], keep: o['keep-db'] });
  let app: RunningApp | undefined;
  try {
    const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
    const account = await createFormsAccount(database.url, `submission-${runId}@bench.example`);
    log(`forms-submission: account ${account.owner_id}, workspace ${account.workspace_id}`);

    const started = await startFormsApi(
      database.url,
      o['cpu-prof-dir'] ? { dir: o['cpu-prof-dir'], name: `forms-submission-${via}-${Date.now()}`, intervalUs } : undefined,
    );
    app = started.app;
    const profile = started.profile;
    const baseUrl = app.baseUrl;

    const form = await createPublishedBenchForm(baseUrl, account.api_key);
    const route = via === 'api' ? 'POST /api/v1/forms/{id}/submissions' : 'POST /api/public/forms/{public_id}/submissions';
    const submitPath = via === 'api' ? `/api/v1/forms/${form.form_id}/submissions` : `/api/public/forms/${form.public_id}/submissions`;
    const key = via === 'api' ? account.api_key : undefined;

    // Request i: the answers of respondent i, under an analytics session of its own.
    let sent = 0;
    const bodyFor = (i: number) => JSON.stringify({ values: benchAnswers(i), analyticsSessionId: `ses_bench_${runId}_${i}` });
    // The ids of the submissions answered 201, to match against the rows afterwards.
    const answeredIds = new Set<string>();
    const recordAnswer = (status: number, text: string) => {
      if (status !== 201) return;
      const id = (JSON.parse(text) as SubmissionAnswer).submission?.id;
      if (id) answeredIds.add(id);
    };

    // One request by hand first: a broken body must fail loudly, not be measured as fast 4xx answers.
    const probeBody = JSON.parse(bodyFor(sent++)) as unknown;
    const probe = await callApi<SubmissionAnswer>(baseUrl, 'POST', submitPath, { key, body: probeBody, expect: 201 });
    const probeId = probe.body.submission?.id;
    if (!probeId?.startsWith('sbm_') || probe.body.submission?.completedStepIds?.length !== BENCH_FORM_STEP_COUNT || !probe.body.thank_you) {
      throw new Error(`unexpected submission answer: ${probe.text.slice(0, 500)}`);
    }
    recordAnswer(probe.status, probe.text);
    const stored = await callApi<{ data: { answersByFieldId: Record<string, unknown>; meta: { source: string } } }>(
      baseUrl,
      'GET',
      `/api/v1/forms/${form.form_id}/submissions/${probeId}`,
      { key: account.api_key, expect: 200 },
    );
    const storedAnswers = Object.keys(stored.body.data.answersByFieldId ?? {}).length;
    if (storedAnswers !== BENCH_FORM_FIELD_COUNT)
      throw new Error(`the probe submission stored ${storedAnswers} answers, not ${BENCH_FORM_FIELD_COUNT}: ${stored.text.slice(0, 500)}`);
    // The same session again must be refused: that is why every request carries a session of its own.
    await callApi(baseUrl, 'POST', submitPath, { key, body: probeBody, expect: 409 });
    log(`forms-submission: probe ${probeId} stored with ${storedAnswers} answers (source ${stored.body.data.meta?.source}); a repeated session answers 409`);

    const requests: GeneratedRequest[] = [
      {
        method: 'POST',
        path: submitPath,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: bodyFor(sent++) }),
        onResponse: recordAnswer,
      },
    ];
    const answered = statusTally({ 201: 1 }); // + the probe
    log(`forms-submission: ${route} (form ${form.form_id}): ${warmup}s warm-up + ${duration}s at ${connections} connections`);
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
      bench: 'forms-submission',
      route,
      via,
      form: { steps: BENCH_FORM_STEP_COUNT, fields: BENCH_FORM_FIELD_COUNT },
      connections,
      duration_s: duration,
      ...result,
      [`goal_at_least_${GOAL_REQ_PER_S}_req_per_s_p99_at_most_${GOAL_P99_MS}_ms`]:
        result.req_per_s >= GOAL_REQ_PER_S && result.latency_p99_ms <= GOAL_P99_MS && result.non_2xx === 0,
      server_rss_mb: processRssMb(app.pid),
      ...(profileFile ? { cpu_profile: profileFile } : {}),
    });
    warnOnFailures('forms-submission', result);
    if (profileFile) reportProfile('forms-submission', `forms-api ${route}`, profileFile);

    // Requests cut off when autocannon stopped (after the warm-up and after the run) may still be
    // committing: wait until the table is still.
    const ids = [...answeredIds];
    const state = await readUntilStill(() =>
      withClient(database.url, async (client) => {
        const { rows } = await client.query<{ rows: number; counter: number; answered: number }>(
          `SELECT (SELECT count(*)::int FROM form_submissions WHERE form_id = $1) AS rows,
                  (SELECT coalesce(sum(count), 0)::int FROM form_response_counts WHERE form_id = $1) AS counter,
                  (SELECT count(*)::int FROM form_submissions WHERE form_id = $1 AND id = ANY($2::text[])) AS answered`,
          [form.form_id, ids],
        );
        return rows[0];
      }),
    );
    const answers201 = answered.counts['201'] ?? 0;
    const answeredTotal = Object.values(answered.counts).reduce((sum, n) => sum + n, 0);
    // Sent with a body of their own but never answered: autocannon closes its connections when it stops.
    const unanswered = sent - answeredTotal;
    const rowsWithoutAnswer = state.rows - state.answered;
    emit({
      bench: 'forms-submission',
      check: 'form_submissions rows = responses_count = 201 answers',
      form_id: form.form_id,
      form_submissions_rows: state.rows,
      responses_count: state.counter,
      answers_201_incl_warmup_and_probe: answers201,
      answered_ids_distinct: answeredIds.size,
      answered_rows_found: state.answered,
      // Committed by the app for a request whose connection autocannon had already closed.
      rows_without_answer: rowsWithoutAnswer,
      requests_sent: sent,
      requests_unanswered: unanswered,
      answers_incl_warmup: answered.counts,
      rows_equal_responses_count: state.rows === state.counter,
      rows_equal_201_answers: state.rows === answers201,
      consistent:
        state.rows === state.counter &&
        answeredIds.size === answers201 &&
        state.answered === answers201 &&
        rowsWithoutAnswer >= 0 &&
        rowsWithoutAnswer <= unanswered,
    });
    if (state.rows !== state.counter) log(`forms-submission: MISMATCH: ${state.rows} form_submissions rows, responses_count ${state.counter}`);
    if (state.answered !== answers201 || answeredIds.size !== answers201)
      log(`forms-submission: MISMATCH: ${answers201} answers 201 (${answeredIds.size} distinct ids), ${state.answered} of them stored`);
    if (rowsWithoutAnswer > unanswered)
      log(`forms-submission: MISMATCH: ${rowsWithoutAnswer} rows nobody got an answer for, but only ${unanswered} requests went unanswered`);
    else if (rowsWithoutAnswer > 0)
      log(`forms-submission: ${rowsWithoutAnswer} of the ${unanswered} requests cut off when autocannon stopped were stored anyway (their 201 was never read)`);
  } finally {
    await app?.stop();
    await database.release();
  }
}

export const formsSubmissionBenchmark: Benchmark = {
  name: 'forms-submission',
  summary: 'POST a 10-field submission to a published form (--via api|public); req/s, p50/p90/p99, rows = responses_count = 201s check',
  usage: USAGE,
  run,
};
