import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { FormsDataAccessModule } from '@forms/data-access';
import { AccountsService, FormsAccountsModule } from '@forms/accounts';
import { freePort } from '@shared/testing';
import { profiled, ProfileSwitch } from './cpu-profile';
import { callApi } from './fixtures';
import { appEntry, RunningApp, startApp } from './server';

/** What the forms benchmarks share: an account, a published 10-field, 3-step form and answers to it. */

@Module({})
class BenchFormsAccountsModule {}

export interface BenchFormsAccount {
  owner_id: string;
  workspace_id: string;
  /** The account's default key: every forms scope. */
  api_key: string;
}

/** Creates an account (owner, workspace, all-scopes key) with AccountsService, against `databaseUrl`. */
export async function createFormsAccount(databaseUrl: string, email: string): Promise<BenchFormsAccount> {
  const app = await NestFactory.createApplicationContext(
    {
      module: BenchFormsAccountsModule,
      imports: [ConfigModule.forRoot({}, { formsDatabaseUrl: databaseUrl }), CoreModule, FormsDataAccessModule, FormsAccountsModule],
    },
    { logger: false },
  );
  try {
    return await app.get(AccountsService).createAccount({ email });
  } finally {
    await app.close();
  }
}

const option = (label: string, value: string) => ({ label, value });

/**
 * The benchmark form: 3 steps and 10 answerable fields, one of each common type. No workflow rules, so
 * every submission passes through all three steps. Labels are plain text (no characters HTML escapes),
 * so the hosted page must contain each of them verbatim.
 */
export const BENCH_FORM_TITLE = 'Bench customer survey';
export const BENCH_FORM_DRAFT = {
  settings: { name: BENCH_FORM_TITLE, submitButtonLabel: 'Send answers' },
  steps: [
    {
      id: 'stp_about',
      title: 'About you',
      fields: [
        { id: 'fld_name', type: 'text', label: 'Your full name', required: true, maxLength: 200 },
        { id: 'fld_email', type: 'email', label: 'Work email address', required: true },
        { id: 'fld_team_size', type: 'number', label: 'How many people are on your team', required: true, min: 1, max: 100000, allowDecimals: false },
        {
          id: 'fld_role',
          type: 'dropdown',
          label: 'Which role fits you best',
          required: true,
          options: [
            option('Engineering', 'engineering'),
            option('Marketing', 'marketing'),
            option('Sales', 'sales'),
            option('Support', 'support'),
            option('Other', 'other'),
          ],
        },
      ],
    },
    {
      id: 'stp_usage',
      title: 'How you use the product',
      fields: [
        {
          id: 'fld_plan',
          type: 'single_choice',
          label: 'Which plan are you on',
          required: true,
          options: [option('Free', 'free'), option('Pro', 'pro'), option('Business', 'business')],
        },
        {
          id: 'fld_features',
          type: 'multiple_choice',
          label: 'Which features do you use',
          required: false,
          options: [
            option('Forms', 'forms'),
            option('Workflows', 'workflows'),
            option('Quizzes', 'quizzes'),
            option('Payments', 'payments'),
            option('Integrations', 'integrations'),
          ],
        },
        { id: 'fld_rating', type: 'rating', label: 'How happy are you with it', required: true, max: 5, icon: 'star' },
        { id: 'fld_started', type: 'date', label: 'When did you start using it', required: false },
      ],
    },
    {
      id: 'stp_wrap_up',
      title: 'Anything else',
      fields: [
        { id: 'fld_comments', type: 'long_text', label: 'What should we improve', required: false, maxLength: 5000 },
        { id: 'fld_consent', type: 'checkbox', label: 'I agree to be contacted about my answers', required: true },
      ],
    },
  ],
};

/** Every field's label (the hosted-page check looks for each). */
export const BENCH_FORM_LABELS: string[] = BENCH_FORM_DRAFT.steps.flatMap((step) => step.fields.map((field) => field.label));
export const BENCH_FORM_FIELD_COUNT = BENCH_FORM_LABELS.length;
export const BENCH_FORM_STEP_COUNT = BENCH_FORM_DRAFT.steps.length;

const ROLES = ['engineering', 'marketing', 'sales', 'support', 'other'];
const PLANS = ['free', 'pro', 'business'];
const FEATURES = ['forms', 'workflows', 'quizzes', 'payments', 'integrations'];
const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'José', 'Zoë'];
const LAST = ['Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Thompson', 'Liskov', 'Ritchie', 'Allen', 'Núñez', 'Åberg'];
const COMMENTS = [
  'The builder is quick to learn. I would like conditional logic on the thank-you screens and a way to duplicate a step.',
  'Exports to CSV sometimes take a while for large forms; otherwise everything works as expected.',
  'Please add more themes and a dark mode for the hosted page.',
  'Fine.',
];

/** A realistic answer to all 10 fields, varied by `i` (all valid, so every one is stored). */
export function benchAnswers(i: number): Record<string, unknown> {
  const features = FEATURES.filter((_, k) => (i >> k) & 1);
  const comment = COMMENTS[i % COMMENTS.length];
  const day = 1 + (i % 28);
  return {
    fld_name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`,
    fld_email: `respondent-${i}@bench.example`,
    fld_team_size: 1 + ((i * 7) % 250),
    fld_role: ROLES[i % ROLES.length],
    fld_plan: PLANS[i % PLANS.length],
    fld_features: features.length ? features : ['forms'],
    fld_rating: 1 + (i % 5),
    fld_started: `20${20 + (i % 6)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    fld_comments: comment,
    fld_consent: true,
  };
}

export interface BenchForm {
  form_id: string;
  public_id: string;
  public_url: string;
}

/** Creates the benchmark form through the API and publishes it. */
export function createPublishedBenchForm(baseUrl: string, apiKey: string): Promise<BenchForm> {
  return createPublishedForm(baseUrl, apiKey, BENCH_FORM_DRAFT);
}

/** Creates a form with `draftSchema` through the API and publishes it. */
export async function createPublishedForm(baseUrl: string, apiKey: string, draftSchema: object): Promise<BenchForm> {
  const created = await callApi<{ data: { id: string; public_id: string; public_url: string } }>(baseUrl, 'POST', '/api/v1/forms', {
    key: apiKey,
    body: { draftSchema },
    expect: 201,
  });
  const { id, public_id: publicId, public_url: publicUrl } = created.body.data;
  await callApi(baseUrl, 'POST', `/api/v1/forms/${id}/publish`, { key: apiKey, body: {}, expect: 200 });
  return { form_id: id, public_id: publicId, public_url: publicUrl };
}

/**
 * Starts the built forms-api on a free port against `databaseUrl`, under the CPU profiler when `profile` is given,
 * with `extraEnv` added to its environment.
 */
export async function startFormsApi(
  databaseUrl: string,
  profile?: { dir: string; name: string; intervalUs: number },
  extraEnv: Record<string, string> = {},
): Promise<{ app: RunningApp; profile?: ProfileSwitch }> {
  const entry = appEntry('forms-api');
  const wrap = profile ? profiled(entry, profile.dir, profile.name, profile.intervalUs) : undefined;
  const port = await freePort();
  const app = await startApp(wrap?.entry ?? entry, {
    port,
    env: {
      FORMS_DATABASE_URL: databaseUrl,
      FORMS_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_REQUESTS: '0',
      LOG_LEVEL: 'silent',
      ...extraEnv,
      ...(wrap?.env ?? {}),
    },
  });
  return { app, profile: wrap ? new ProfileSwitch(app.pid, wrap.out) : undefined };
}
