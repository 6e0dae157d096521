/**
 * Property test: random JSON thrown at every write endpoint of the forms API never produces a 5xx, every rejection is a
 * well-formed 4xx envelope, and a rejected request leaves the forms tables exactly as they were. A body that happens to
 * be accepted must leave a draft that parses again unchanged (PUT /draft with the stored draft_schema answers 200 and
 * returns it as it was).
 *
 * Bodies: arbitrary JSON, dictionaries over the endpoints' real property names, and near-valid structured bodies
 * (drafts, steps, fields, rules, themes, submissions) with one random node deleted, replaced or duplicated. A second
 * block sends fixed hostile-but-valid JSON (NUL characters, lone surrogates, deep nesting) and NUL characters in ids.
 * Every request carries a random `Idempotency-Key` or none (the forms API ignores it; it must not trip on it). The
 * closing properties send random files to the public upload endpoint and random malformed path segments to every route.
 * Every write route of the app must be fuzzed here (checked against the app's own routes).
 * Seeded (FUZZ_SEED, default fixed) and sized (FUZZ_RUNS) through @shared/testing; `npm run fuzz:long` runs them long.
 */
import fc from 'fast-check';
import request from 'supertest';
import { FormsPrisma } from '@forms/data-access';
import { CONDITION_OPERATORS, FIELD_TYPES, NUMBER_OPERATIONS, TEXT_OPERATIONS } from '@forms/draft-schema';
import { appRoutes, fuzzCountsApply, fuzzParameters, fuzzRuns, headerText, idempotencyKeys, isErrorEnvelope, malformedPathSegments } from '@shared/testing';
import { formsApi, FormsApiHarness } from './helpers';

const TABLES = ['forms', 'form_versions', 'form_submissions', 'form_uploads', 'outbox_events', 'webhook_endpoints'];
const BODY_RUNS = fuzzRuns(80);
/** Endpoints that ignore the body: what varies is the query string and whether a stray body trips them. */
const BODYLESS_RUNS = fuzzRuns(20);
const UPLOAD_RUNS = fuzzRuns(60);
const PATH_RUNS = fuzzRuns(150);

/**
 * Whether a path segment, as the server decodes it, is an Idempotency-Key (1-255 visible ASCII characters). A raw `/`
 * starts another segment, so that is another path.
 */
function isIdempotencyKey(segment: string): boolean {
  try {
    return !segment.includes('/') && /^[\x21-\x7e]{1,255}$/.test(decodeURIComponent(segment));
  } catch {
    return false;
  }
}

const OPERATIONS = [...new Set([...NUMBER_OPERATIONS, ...TEXT_OPERATIONS])];

/** The property names the write endpoints know, for dictionaries of random values. */
const PROPERTY_NAMES = [
  'title',
  'draftSchema',
  'draft_revision',
  'force',
  'workspaceId',
  'workspace_id',
  'step_ids',
  'field_ids',
  'rules',
  'fallbackTarget',
  'theme',
  'position',
  'index',
  'stepId',
  'type',
  'label',
  'options',
  'required',
  'placeholder',
  'description',
  'fields',
  'id',
  'values',
  'hiddenValues',
  'completedStepIds',
  'analyticsSessionId',
  'marketingTrackingAllowed',
  'viewerCountry',
  'fld_name',
  'fld_size',
  'fld_count',
  'fld_email',
  'fld_ok',
  'fld_file',
  'fld_rate',
  'utm_source',
  '__proto__',
  'constructor',
];

/** The form every form-scoped endpoint is fuzzed against (restored after each accepted edit). */
const baseDraft = () => ({
  settings: {
    name: 'Fuzz base',
    hidden: {
      variables: [
        { id: 'var_total', name: 'Total', type: 'number' },
        { id: 'var_note', name: 'Note', type: 'text' },
      ],
    },
    submissions: { thankYouScreens: [{ id: 'tys_done', title: 'Done' }] },
  },
  steps: [
    {
      id: 'stp_one',
      title: 'One',
      fields: [
        { id: 'fld_name', type: 'text', label: 'Name' },
        { id: 'fld_size', type: 'single_choice', label: 'Size', options: [{ label: 'Small' }, { label: 'Large' }] },
        { id: 'fld_count', type: 'number', label: 'Count', min: 0, max: 100 },
        { id: 'fld_src', type: 'hidden', name: 'utm_source' },
      ],
    },
    {
      id: 'stp_two',
      title: 'Two',
      fields: [
        { id: 'fld_email', type: 'email', label: 'Email' },
        { id: 'fld_ok', type: 'checkbox', label: 'OK' },
        { id: 'fld_file', type: 'file_upload', label: 'File', maxFiles: 2, maxSizeMb: 1, accept: ['text/plain', 'image/*'] },
      ],
    },
    { id: 'stp_three', title: 'Three', fields: [{ id: 'fld_rate', type: 'rating', label: 'Rate' }] },
  ],
  workflow: {
    rules: [
      {
        id: 'rul_large',
        stepId: 'stp_one',
        conditions: [{ subject: { type: 'field', fieldId: 'fld_size' }, operator: 'equals', value: 'Large' }],
        actions: [{ variableId: 'var_total', operation: 'set', operand: { type: 'field', fieldId: 'fld_count' } }],
        target: { type: 'step', stepId: 'stp_three' },
      },
    ],
  },
});

// ---- near-valid building blocks --------------------------------------------------------------------------------

/** Mostly the valid value, now and then the wrong one. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, wrong: fc.Arbitrary<U>) => fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: wrong });

const stepIds = mostly(fc.constantFrom('stp_one', 'stp_two', 'stp_three', 'stp_new'), fc.constantFrom('end', 'bad id!', ''));
const fieldIds = mostly(fc.constantFrom('fld_name', 'fld_size', 'fld_count', 'fld_email', 'fld_file', 'fld_new'), fc.constantFrom('bad id!', ''));
const variableIds = fc.constantFrom('var_total', 'var_note', 'var_none');
const small = fc.integer({ min: -2, max: 30 });
const text = fc.oneof(fc.constantFrom('Question', 'Small', 'Large', ''), fc.string({ maxLength: 8 }));
const options = fc.array(
  fc.record(
    {
      id: fc.constantFrom('opt_a', 'opt_b'),
      label: fc.constantFrom('Small', 'Large', 'Other', ''),
      value: fc.constantFrom('small', 'large', 'Small'),
      imageUrl: fc.constantFrom('https://img.example.test/x.png', 'javascript:alert(1)'),
    },
    { requiredKeys: ['label'] },
  ),
  { maxLength: 4 },
);
const target = fc.oneof(
  fc.constantFrom('end', 'stp_two', 'stp_three', 'stp_one', 'thank_you:tys_done', 'thank_you:tys_none', 'nowhere', ''),
  fc.record({ type: fc.constant('end') }),
  fc.record({ type: fc.constant('step'), stepId: stepIds }),
  fc.record({ type: fc.constantFrom('thank_you', 'redirect'), screenId: fc.constantFrom('tys_done', 'tys_none') }),
);

const TYPE_PROPERTIES: Record<(typeof FIELD_TYPES)[number], Record<string, fc.Arbitrary<unknown>>> = {
  text: { minLength: small, maxLength: fc.integer({ min: -1, max: 20_000 }) },
  long_text: { minLength: small, maxLength: fc.integer({ min: -1, max: 20_000 }) },
  email: {},
  number: { min: small, max: small, allowDecimals: fc.boolean() },
  phone: { defaultCountry: fc.constantFrom('DE', 'US', 'XX', 'de') },
  url: {},
  date: { minDate: fc.constantFrom('2024-01-01', '2024-13-01', 'yesterday'), maxDate: fc.constantFrom('2025-12-31', '2023-01-01') },
  time: {},
  single_choice: { options, allowOther: fc.boolean() },
  multiple_choice: { options, minSelections: small, maxSelections: small },
  dropdown: { options },
  checkbox: {},
  rating: { max: small, icon: fc.constantFrom('star', 'heart', 'thumb', 'skull') },
  opinion_scale: { min: small, max: small, minLabel: text, maxLabel: text },
  nps: { minLabel: text, maxLabel: text },
  ranking: { options },
  file_upload: { maxFiles: small, maxSizeMb: small, accept: fc.array(fc.constantFrom('image/*', 'application/pdf', '.pdf', 'nope'), { maxLength: 3 }) },
  signature: {},
  statement: {},
  hidden: {
    name: fc.constantFrom('utm_source', 'utm_medium', 'bad name!'),
    dataType: fc.constantFrom('text', 'number', 'boolean'),
    defaultValue: fc.oneof(text, small),
  },
  payment: {
    currency: fc.constantFrom('EUR', 'USD', 'eur'),
    amount: fc.oneof(
      small,
      fc.record({ type: fc.constant('fixed'), value: small }),
      fc.record({ type: fc.constant('field'), fieldId: fieldIds }),
      fc.record({ type: fc.constant('variable'), variableId: variableIds }),
    ),
  },
};

const fieldProperties = (type: string, withId = true) => ({
  ...(withId ? { id: fieldIds } : {}),
  label: text,
  required: fc.boolean(),
  placeholder: text,
  description: text,
  ...(TYPE_PROPERTIES[type as keyof typeof TYPE_PROPERTIES] ?? {}),
});
const field = fc
  .constantFrom<string>(...FIELD_TYPES, 'no_such_type')
  .chain((type) => fc.record(fieldProperties(type), { requiredKeys: [] }).map((props) => ({ type, ...props })));

const step = fc.record({ id: stepIds, title: text, description: text, fields: fc.array(field, { maxLength: 3 }) }, { requiredKeys: ['fields'] });

const subject = fc.oneof(
  fc.record({ type: fc.constant('field'), fieldId: fieldIds }),
  fc.record({ type: fc.constant('variable'), variableId: variableIds }),
  fc.record({ type: fc.constantFrom('score', 'answer') }),
);
const ruleOf = (ruleStepIds: fc.Arbitrary<string>) =>
  fc.record(
    {
      id: fc.constantFrom('rul_a', 'rul_large'),
      stepId: ruleStepIds,
      match: mostly(fc.constantFrom('all', 'any'), fc.constant('most')),
      conditions: fc.array(
        fc.record(
          {
            subject,
            operator: mostly(fc.constantFrom<string>(...CONDITION_OPERATORS), fc.constant('like')),
            value: fc.oneof(text, small, fc.boolean(), fc.array(fc.constantFrom('Small', 'Large'), { maxLength: 2 })),
          },
          { requiredKeys: ['subject', 'operator'] },
        ),
        { maxLength: 2 },
      ),
      actions: fc.array(
        fc.record(
          {
            variableId: variableIds,
            operation: mostly(fc.constantFrom<string>(...OPERATIONS), fc.constant('power')),
            operand: fc.oneof(subject, fc.record({ type: fc.constant('number'), value: small }), fc.record({ type: fc.constant('text'), value: text })),
          },
          { requiredKeys: ['variableId', 'operation'] },
        ),
        { maxLength: 2 },
      ),
      target,
    },
    { requiredKeys: ['stepId'] },
  );
const rule = ruleOf(stepIds);

const theme = fc.record(
  {
    primaryColor: mostly(fc.constantFrom('#fff', '#4f46e5'), fc.constantFrom('#12', 'red')),
    background: mostly(
      fc.constantFrom(
        { type: 'color', value: '#eef' },
        { type: 'image', value: 'https://img.example.test/bg.png' },
        { type: 'gradient', value: 'linear-gradient(#fff, #eee)' },
      ),
      fc.record({
        type: fc.constantFrom('color', 'image', 'gradient', 'video'),
        value: fc.constantFrom('#fff', 'https://img.example.test/bg.png', 'linear-gradient(#fff, #eee)', 'url(javascript:x)', ''),
      }),
    ),
    fontFamily: mostly(fc.constantFrom('Inter', 'Roboto'), fc.constantFrom('custom', 'x;}body{')),
    customFont: fc.oneof(
      fc.constant(null),
      fc.record({
        family: fc.constantFrom('Brand Sans', '}'),
        fileName: fc.constantFrom('brand.woff2', ''),
        assetId: fc.constantFrom('ast_1'),
        format: fc.constantFrom('woff2', 'eot'),
        url: fc.constantFrom('https://cdn.example.test/b.woff2', 'ftp://x'),
      }),
    ),
    textColor: mostly(fc.constant('#000'), fc.constant('black')),
    buttonTextColor: mostly(fc.constant('#fff'), fc.constant('#ggg')),
    borderRadius: fc.integer({ min: -1, max: 40 }),
  },
  { requiredKeys: [] },
);

const settings = fc.record(
  {
    name: text,
    slug: fc.constantFrom('fuzz-a', 'Fuzz A', '', 'fuzz--b'),
    submitButtonLabel: text,
    hidden: fc.record({
      variables: fc.array(
        fc.record(
          {
            id: variableIds,
            name: fc.constantFrom('Total', 'total', 'Note', ''),
            type: fc.constantFrom('number', 'text', 'boolean'),
            initialValue: fc.oneof(small, text),
          },
          { requiredKeys: ['name', 'type'] },
        ),
        { maxLength: 3 },
      ),
    }),
    submissions: fc.record(
      {
        thankYou: fc.record({ title: text, buttonUrl: fc.constantFrom('https://example.test', 'nope'), showButton: fc.boolean() }, { requiredKeys: [] }),
        thankYouScreens: fc.array(
          fc.record(
            { id: fc.constantFrom('tys_done', 'tys_x'), title: text, redirectUrl: fc.constantFrom('https://example.test/r', 'javascript:x') },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

const quiz = fc.oneof(
  fc.constant(null),
  fc.record(
    {
      enabled: fc.boolean(),
      type: fc.constantFrom('match', 'score', 'trivia'),
      mode: fc.constantFrom('match', 'personality'),
      endings: fc.array(
        fc.record(
          {
            id: fc.constantFrom('end_a', 'end_b'),
            screenId: fc.constantFrom('tys_done', 'tys_x', '__service_default_thank_you__'),
            minScore: small,
            maxScore: small,
          },
          { requiredKeys: ['screenId'] },
        ),
        { maxLength: 2 },
      ),
      mappings: fc.array(
        fc.record(
          { fieldId: fieldIds, optionValue: fc.constantFrom('Small', 'Large', ''), endingId: fc.constantFrom('end_a', 'end_b'), points: small },
          { requiredKeys: ['fieldId', 'optionValue'] },
        ),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: [] },
  ),
);

const workflow = fc.record(
  { version: fc.constantFrom(1, 2), enabled: fc.boolean(), rules: fc.array(rule, { maxLength: 3 }), fallbacks: fc.dictionary(stepIds, target, { maxKeys: 2 }) },
  { requiredKeys: [] },
);

const draftSchema = fc.record(
  { version: fc.constant(1), steps: mostly(fc.array(step, { minLength: 1, maxLength: 3 }), fc.constant([])), settings, theme, workflow, quiz },
  { requiredKeys: ['steps'] },
);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a node under the root. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [[...prefix, i], ...pathsOf(item, [...prefix, i])]);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...pathsOf(item, [...prefix, key])]);
  return [];
}

/** Deletes, replaces or duplicates one random node of a (near-valid) value. */
function mutate(value: unknown, pick: number, op: 'delete' | 'replace' | 'duplicate', replacement: Json): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  const paths = pathsOf(copy);
  if (!paths.length) return copy;
  const path = paths[pick % paths.length];
  const key = path[path.length - 1];
  const parent = path.slice(0, -1).reduce<Record<string | number, unknown>>((node, k) => node[k] as Record<string | number, unknown>, copy);
  if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else if (op === 'replace') {
    parent[key] = replacement;
  } else if (Array.isArray(parent)) {
    parent.splice(key as number, 0, structuredClone(parent[key as number]));
  } else {
    parent[`${String(key)}Copy`] = structuredClone(parent[key]);
  }
  return copy;
}

/** The value as generated, or with one random node deleted, replaced by random JSON, or duplicated. */
const mutated = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 1, arbitrary: arb },
    {
      weight: 2,
      arbitrary: fc
        .tuple(arb, fc.nat(), fc.constantFrom('delete' as const, 'replace' as const, 'duplicate' as const), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>)
        .map(([value, pick, op, replacement]) => mutate(value, pick, op, replacement)),
    },
  );

/** `draft_revision` / `force`: usually absent (so the edit can apply), sometimes stale, forced or malformed. */
const guard = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  {
    weight: 2,
    arbitrary: fc.record(
      { draft_revision: mostly(fc.integer({ min: -1, max: 3 }), fc.jsonValue()), force: mostly(fc.boolean(), fc.jsonValue()) },
      { requiredKeys: [] },
    ),
  },
);
const position = mostly(fc.integer({ min: -1, max: 5 }), fc.jsonValue());
/** `position` or its alias `index`, rarely both. */
const positioned = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 3, arbitrary: fc.record({ position }) },
  { weight: 2, arbitrary: fc.record({ index: position }) },
  { weight: 1, arbitrary: fc.record({ position, index: position }) },
);
/** A body with the control members merged in. */
const withControl = (body: fc.Arbitrary<object>, ...controls: fc.Arbitrary<object>[]) =>
  fc.tuple(body, ...controls).map((parts) => Object.assign({}, ...parts) as Record<string, unknown>);

// ---------------------------------------------------------------------------------------------------------------

interface Endpoint {
  name: string;
  method: 'post' | 'put' | 'patch' | 'delete';
  path: string;
  bodies: fc.Arbitrary<unknown>;
  /** Query strings to send along (the DELETE edits read their revision guard there). */
  query?: fc.Arbitrary<string>;
  publicRoute?: boolean;
  /** The endpoint reads no body: random ones are accepted, and only a success is sure to be seen. */
  bodyIgnored?: boolean;
  /** Runs for this endpoint when not BODY_RUNS (fewer where the body is ignored). */
  runs?: number;
  /** Puts things back after a success (default: the stored draft re-parses unchanged, then the base draft is restored). */
  after?: () => Promise<void>;
}

/** Sign-in, consent and OAuth protocol routes, and the app-session routes a signed-in browser calls. */
const SESSION_AND_OAUTH_ROUTES = /^\/(oauth|account)\/|^\/api\/forms\//;
describe('forms-api: fuzzing the write endpoints', () => {
  let api: FormsApiHarness;
  let prisma: FormsPrisma;
  let formId: string;
  let publicId: string;
  /** A form for `DELETE /forms/{id}` to take (made again after each successful delete). */
  let victimId: string;
  let webhookId: string;
  let victimWebhookId: string;
  let upload: { id: string; fileName: string; mimeType: string; size: number; url: string };
  let foreignUpload: { id: string; fileName: string; mimeType: string; size: number; url: string };

  const formPath = (suffix = '') => `/api/v1/forms/${formId}${suffix}`;

  beforeAll(async () => {
    // Production's webhook destination rules: the fuzzed endpoints are only created, never delivered to.
    api = await formsApi({ ALLOW_NON_LOOPBACK_HOSTS: 'true' });
    prisma = api.app.get(FormsPrisma);
    const created = (await api.as().post('/api/v1/forms').send({ draftSchema: baseDraft() }).expect(201)).body.data;
    formId = created.id;
    publicId = created.public_id;
    await api.as().post(formPath('/publish')).send({}).expect(200);
    const server = api.app.getHttpServer();
    const sendFile = (pid: string) =>
      request(server)
        .post(`/api/public/forms/${pid}/uploads`)
        .set('content-type', 'application/octet-stream')
        .set('x-file-name', 'notes.txt')
        .set('x-file-type', 'text/plain')
        .send(Buffer.from('hello fuzz'));
    upload = (await sendFile(publicId).expect(201)).body;
    // An upload of another form, which a file answer here must not be able to use.
    const other = (await api.as().post('/api/v1/forms').send({ draftSchema: baseDraft() }).expect(201)).body.data;
    await api.as().post(`/api/v1/forms/${other.id}/publish`).send({}).expect(200);
    foreignUpload = (await sendFile(other.public_id).expect(201)).body;
    await newVictim();
    webhookId = await newWebhook();
    victimWebhookId = await newWebhook();
    await connectRazorpay();
  });
  afterAll(() => api?.close());

  const snapshot = async () => {
    const parts = await Promise.all(
      TABLES.map((table) =>
        prisma.$queryRawUnsafe<Array<{ digest: string | null }>>(`SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ${table} t`),
      ),
    );
    return parts.map(([row]) => row.digest).join(':');
  };

  /** Puts the fuzzed form back to the base draft (and the base published snapshot when a publish went through). */
  const restore = async (republish: boolean) => {
    await api.as().put(formPath('/draft')).send({ draftSchema: baseDraft(), force: true }).expect(200);
    if (republish) await api.as().post(formPath('/publish')).send({}).expect(200);
  };

  const hooksPath = (suffix = '') => `/api/workspaces/${api.main.workspaceId}/webhooks${suffix}`;
  const integrationPath = () => `/api/workspaces/${api.main.workspaceId}/integrations/razorpay`;
  const RAZORPAY_CONNECTION = { key_id: 'rzp_test_Fuzz000001', key_secret: 'fuzz_key_secret_1', webhook_secret: 'fuzz_webhook_secret_1' };
  const connectRazorpay = async () => void (await api.as().put(integrationPath()).send(RAZORPAY_CONNECTION).expect(200));
  const newWebhook = async (): Promise<string> =>
    (
      await api
        .as()
        .post(hooksPath())
        .send({ url: 'https://8.8.8.8/fuzz', events: ['form.submission.created'] })
        .expect(201)
    ).body.data.id;
  /** Endpoints created by accepted bodies go again, so the 20-endpoint cap is never what refuses one. */
  const dropNewWebhooks = async () => {
    await prisma.webhookEndpoint.deleteMany({ where: { workspace_id: api.main.workspaceId, id: { notIn: [webhookId, victimWebhookId] } } });
  };

  const newVictim = async () => {
    victimId = (await api.as().post('/api/v1/forms').send({ title: 'Victim' }).expect(201)).body.data.id;
  };

  const generic = fc.oneof(
    fc.jsonValue(),
    fc.jsonValue({ stringUnit: 'grapheme' }),
    fc.dictionary(fc.constantFrom(...PROPERTY_NAMES), fc.oneof(fc.jsonValue(), fc.jsonValue({ stringUnit: 'grapheme' })), { maxKeys: 6 }),
  );
  const withGeneric = (structured: fc.Arbitrary<unknown>) => fc.oneof({ weight: 1, arbitrary: generic }, { weight: 3, arbitrary: structured });

  const submissionBodies = () => {
    const fileAnswer = fc.oneof(
      fc.constant(upload),
      fc.constant([upload]),
      fc.constant([upload, upload, upload]),
      fc.constant([foreignUpload]),
      fc.record({
        id: fc.constantFrom('upl_nope', '', upload.id, foreignUpload.id),
        fileName: fc.constantFrom(upload.fileName, 'cv.pdf', ''),
        mimeType: fc.constantFrom(upload.mimeType, 'application/pdf', 'image/png'),
        size: fc.oneof(fc.nat(), fc.jsonValue()),
        url: fc.constantFrom(upload.url, 'https://evil.example.test/x', 'javascript:x'),
      }),
    );
    const answer = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom('Small', 'Large', 'a@example.com', 'A@EXAMPLE.COM', 'nope', 'true', 'on', 42, true, false, '', ' ', 3, 5, 11, []),
      fileAnswer,
    );
    const values = fc.dictionary(
      fc.constantFrom('fld_name', 'fld_size', 'fld_count', 'fld_src', 'fld_email', 'fld_ok', 'fld_file', 'fld_rate', 'fld_unknown', 'utm_source'),
      answer,
      { maxKeys: 5 },
    );
    const wrapper = fc.record(
      {
        values,
        hiddenValues: fc.oneof(fc.dictionary(fc.constantFrom('utm_source', 'nope'), fc.oneof(fc.string({ maxLength: 5 }), fc.jsonValue())), fc.jsonValue()),
        completedStepIds: fc.oneof(fc.array(stepIds, { maxLength: 3 }), fc.jsonValue()),
        analyticsSessionId: fc.oneof(fc.constantFrom('ses_1', 'ses_2', 'ses_3', ''), fc.string({ maxLength: 140 }), fc.jsonValue()),
        marketingTrackingAllowed: fc.oneof(fc.boolean(), fc.jsonValue()),
        viewerCountry: fc.constantFrom('DE', 'de', 'Germany', '', null),
      },
      { requiredKeys: ['values'] },
    );
    return withGeneric(fc.oneof(values, mutated(wrapper)));
  };

  /** Webhook endpoint bodies: public, private and malformed destinations, known and unknown event types. */
  const webhookBodies = (requiredKeys: Array<'url' | 'events'>) =>
    withGeneric(
      fc.record(
        {
          url: fc.oneof(
            fc.constantFrom('https://8.8.8.8/hook', 'http://8.8.8.8/', 'https://10.0.0.1/', 'https://[::1]/', 'https://u:p@8.8.8.8/', ''),
            fc.jsonValue(),
          ),
          events: fc.oneof(
            fc.constant(['form.submission.created']),
            fc.array(fc.constantFrom('form.submission.created', 'form.*', '*', ''), { maxLength: 3 }),
            fc.jsonValue(),
          ),
          description: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(null), fc.jsonValue()),
          status: fc.oneof(fc.constantFrom('active', 'disabled', 'paused'), fc.jsonValue()),
        },
        { requiredKeys },
      ),
    );

  /** `draft_revision` / `force` in the query string, as the DELETE edits read them: valid, stale or garbage. */
  const guardQuery = fc
    .record(
      {
        draft_revision: fc.oneof(fc.integer({ min: -1, max: 3 }).map(String), fc.string()),
        force: fc.oneof(fc.constantFrom('true', 'false', '1', ''), fc.string()),
      },
      { requiredKeys: [] },
    )
    .map((query) => new URLSearchParams(query).toString());

  const endpoints = (): Endpoint[] => {
    const title = mostly(text, fc.jsonValue());
    // Generated drafts, and the base draft with one node deleted, replaced or duplicated.
    const draft = fc.oneof(mutated(draftSchema), mutated(fc.constant(null).map(() => baseDraft())));
    const stepOneFields = ['fld_name', 'fld_size', 'fld_count', 'fld_src'];
    return [
      {
        name: 'create',
        method: 'post',
        path: '/api/v1/forms',
        bodies: withGeneric(
          fc.record(
            {
              title,
              draftSchema: draft,
              workspaceId: mostly(fc.constant(api.main.workspaceId), fc.constantFrom('wrk_nope', '')),
              workspace_id: fc.constantFrom(api.main.workspaceId, 'wrk_nope'),
            },
            { requiredKeys: [] },
          ),
        ),
      },
      {
        name: 'clone',
        method: 'post',
        path: formPath('/clone'),
        bodies: withGeneric(
          fc.record({ title, workspaceId: mostly(fc.constant(api.main.workspaceId), fc.constantFrom('wrk_nope', '')) }, { requiredKeys: [] }),
        ),
      },
      {
        name: 'from starter template',
        method: 'post',
        path: '/api/v1/starter-templates/lead_capture/forms',
        bodies: withGeneric(fc.record({ title, workspace_id: fc.constantFrom(api.main.workspaceId, 'wrk_nope') }, { requiredKeys: [] })),
      },
      {
        name: 'patch form',
        method: 'patch',
        path: formPath(),
        bodies: withGeneric(withControl(fc.record({ title, draftSchema: draft }, { requiredKeys: [] }), guard)),
      },
      { name: 'put draft', method: 'put', path: formPath('/draft'), bodies: withGeneric(withControl(fc.record({ draftSchema: draft }), guard)) },
      {
        name: 'publish',
        method: 'post',
        path: formPath('/publish'),
        bodies: withGeneric(withControl(fc.record({ draftSchema: draft }, { requiredKeys: [] }), guard)),
      },
      {
        name: 'add step',
        method: 'post',
        path: formPath('/steps'),
        bodies: withGeneric(
          mutated(
            withControl(
              fc.record({ id: stepIds, title: text, description: text, fields: fc.array(field, { maxLength: 2 }) }, { requiredKeys: [] }),
              positioned,
              guard,
            ),
          ),
        ),
      },
      {
        name: 'patch step',
        method: 'patch',
        path: formPath('/steps/stp_two'),
        bodies: withGeneric(
          mutated(
            withControl(
              fc.oneof(
                {
                  weight: 4,
                  arbitrary: fc.record({ title: mostly(text, fc.constant(null)), description: fc.oneof(text, fc.constant(null)) }, { requiredKeys: [] }),
                },
                { weight: 1, arbitrary: fc.record({ title: text, id: stepIds, fields: fc.array(field, { maxLength: 1 }) }, { requiredKeys: [] }) },
              ),
              guard,
            ),
          ),
        ),
      },
      {
        name: 'reorder steps',
        method: 'post',
        path: formPath('/steps/reorder'),
        bodies: withGeneric(
          withControl(
            fc.record({
              step_ids: fc.oneof(
                { weight: 3, arbitrary: fc.shuffledSubarray(['stp_one', 'stp_two', 'stp_three'], { minLength: 3 }) },
                { weight: 1, arbitrary: fc.shuffledSubarray(['stp_one', 'stp_two', 'stp_three']) },
                { weight: 1, arbitrary: fc.array(stepIds, { maxLength: 4 }) },
                { weight: 1, arbitrary: fc.jsonValue() },
              ),
            }),
            guard,
          ),
        ),
      },
      { name: 'move step', method: 'post', path: formPath('/steps/stp_three/move'), bodies: withGeneric(withControl(fc.record({ position }), guard)) },
      { name: 'add field', method: 'post', path: formPath('/steps/stp_two/fields'), bodies: withGeneric(mutated(withControl(field, positioned, guard))) },
      {
        name: 'patch field',
        method: 'patch',
        path: formPath('/fields/fld_size'),
        bodies: withGeneric(
          mutated(
            withControl(
              fc.oneof(
                { weight: 3, arbitrary: fc.record(fieldProperties('single_choice', false), { requiredKeys: [] }) },
                {
                  weight: 2,
                  arbitrary: fc
                    .constantFrom<string>(...FIELD_TYPES)
                    .chain((type) => fc.record({ type: fc.constant(type), ...fieldProperties(type, false) }, { requiredKeys: ['type'] })),
                },
                { weight: 1, arbitrary: fc.record({ id: fieldIds, label: text }, { requiredKeys: [] }) },
              ),
              guard,
            ),
          ),
        ),
      },
      {
        name: 'reorder fields',
        method: 'post',
        path: formPath('/steps/stp_one/fields/reorder'),
        bodies: withGeneric(
          withControl(
            fc.record({
              field_ids: fc.oneof(
                { weight: 3, arbitrary: fc.shuffledSubarray(stepOneFields, { minLength: stepOneFields.length }) },
                { weight: 1, arbitrary: fc.array(fieldIds, { maxLength: 5 }) },
                { weight: 1, arbitrary: fc.jsonValue() },
              ),
            }),
            guard,
          ),
        ),
      },
      {
        name: 'move field',
        method: 'post',
        path: formPath('/fields/fld_count/move'),
        bodies: withGeneric(
          withControl(
            fc.record({ position, stepId: mostly(fc.constantFrom('stp_one', 'stp_two', 'stp_three'), stepIds) }, { requiredKeys: ['position'] }),
            guard,
          ),
        ),
      },
      {
        name: 'logic',
        method: 'put',
        path: formPath('/steps/stp_one/logic'),
        bodies: withGeneric(
          mutated(
            withControl(
              fc.record(
                { rules: fc.array(ruleOf(mostly(fc.constant('stp_one'), stepIds)), { maxLength: 3 }), fallbackTarget: fc.oneof(target, fc.constant(null)) },
                { requiredKeys: ['rules'] },
              ),
              guard,
            ),
          ),
        ),
      },
      { name: 'design', method: 'patch', path: formPath('/design'), bodies: withGeneric(mutated(withControl(fc.record({ theme }), guard))) },
      { name: 'submit (key)', method: 'post', path: formPath('/submissions'), bodies: submissionBodies() },
      { name: 'submit (public)', method: 'post', path: `/api/public/forms/${publicId}/submissions`, bodies: submissionBodies(), publicRoute: true },
      // Bodies these take are ignored: a random one must not trip them; the query carries the revision guard.
      {
        name: 'close',
        method: 'post',
        path: formPath('/close'),
        bodies: generic,
        bodyIgnored: true,
        runs: BODYLESS_RUNS,
        after: () =>
          api
            .as()
            .post(formPath('/reopen'))
            .send({})
            .expect(200)
            .then(() => undefined),
      },
      { name: 'reopen', method: 'post', path: formPath('/reopen'), bodies: generic, bodyIgnored: true, runs: BODYLESS_RUNS, after: async () => undefined },
      {
        name: 'delete step',
        method: 'delete',
        path: formPath('/steps/stp_two'),
        bodies: generic,
        query: guardQuery,
        bodyIgnored: true,
        runs: BODYLESS_RUNS * 2,
      },
      {
        name: 'delete field',
        method: 'delete',
        path: formPath('/fields/fld_ok'),
        bodies: generic,
        query: guardQuery,
        bodyIgnored: true,
        runs: BODYLESS_RUNS * 2,
      },
      { name: 'delete form', method: 'delete', path: `/api/v1/forms/${victimId}`, bodies: generic, bodyIgnored: true, runs: BODYLESS_RUNS, after: newVictim },
      { name: 'create webhook endpoint', method: 'post', path: hooksPath(), bodies: webhookBodies(['url', 'events']), after: dropNewWebhooks },
      { name: 'patch webhook endpoint', method: 'patch', path: hooksPath(`/${webhookId}`), bodies: webhookBodies([]), after: async () => undefined },
      {
        name: 'rotate webhook secret',
        method: 'post',
        path: hooksPath(`/${webhookId}/rotate-secret`),
        bodies: generic,
        bodyIgnored: true,
        runs: BODYLESS_RUNS,
        after: async () => undefined,
      },
      {
        name: 'delete webhook endpoint',
        method: 'delete',
        path: hooksPath(`/${victimWebhookId}`),
        bodies: generic,
        bodyIgnored: true,
        runs: BODYLESS_RUNS,
        after: async () => void (victimWebhookId = await newWebhook()),
      },
      {
        name: 'connect payment provider',
        method: 'put',
        path: integrationPath(),
        bodies: withGeneric(mutated(fc.constant(RAZORPAY_CONNECTION))),
        after: connectRazorpay,
      },
      {
        name: 'disconnect payment provider',
        method: 'delete',
        path: integrationPath(),
        bodies: generic,
        bodyIgnored: true,
        runs: BODYLESS_RUNS,
        after: connectRazorpay,
      },
      { name: 'payment order', method: 'post', path: `/api/public/forms/${publicId}/payments/stripe/order`, bodies: submissionBodies(), publicRoute: true },
      {
        name: 'payment verify',
        method: 'post',
        path: `/api/public/forms/${publicId}/payments/razorpay/verify`,
        bodies: withGeneric(
          mutated(fc.constant({ payment_id: 'fpay_1', razorpay_order_id: 'order_1', razorpay_payment_id: 'pay_1', razorpay_signature: 'ab' })),
        ),
        publicRoute: true,
      },
      {
        name: 'payment webhook',
        method: 'post',
        path: '/api/payments/razorpay/webhook',
        query: fc.oneof(
          fc.constant(`workspace_id=${api.main.workspaceId}`),
          fc.constant(''),
          fc.string().map((v) => `workspace_id=${encodeURIComponent(v)}`),
        ),
        bodies: generic,
        publicRoute: true,
      },
    ];
  };

  const ENDPOINT_NAMES = [
    'create',
    'clone',
    'from starter template',
    'patch form',
    'put draft',
    'publish',
    'add step',
    'patch step',
    'reorder steps',
    'move step',
    'add field',
    'patch field',
    'reorder fields',
    'move field',
    'logic',
    'design',
    'submit (key)',
    'submit (public)',
    'close',
    'reopen',
    'delete step',
    'delete field',
    'delete form',
    'create webhook endpoint',
    'patch webhook endpoint',
    'rotate webhook secret',
    'delete webhook endpoint',
    'connect payment provider',
    'disconnect payment provider',
    'payment order',
    'payment verify',
    'payment webhook',
  ];
  /** The endpoints whose success is a new form (the others change the fuzzed form, restored after each). */
  const CREATES_A_FORM = ['create', 'clone', 'from starter template'];
  /** The fixed hostile bodies go to the endpoints that read a body. */
  const BODY_ENDPOINT_NAMES = ENDPOINT_NAMES.slice(0, 18);
  const endpoint = (name: string) => endpoints().find((e) => e.name === name)!;
  const send = (e: Pick<Endpoint, 'method' | 'path' | 'publicRoute'>, json: string, idempotencyKey?: string, query = '') => {
    let test = api
      .as(e.publicRoute ? '' : undefined)
      [e.method](query ? `${e.path}?${query}` : e.path)
      .set('content-type', 'application/json');
    if (idempotencyKey !== undefined) test = test.set('idempotency-key', idempotencyKey);
    return test.send(json);
  };

  /** A rejection: a 4xx (never a 5xx) with the error envelope, and the forms tables exactly as they were. */
  const expectCleanRejection = async (context: object, res: request.Response, before: string) => {
    const unchanged = (await snapshot()) === before;
    expect({
      ...context,
      status: res.status,
      isClientError: res.status >= 400 && res.status < 500,
      error: res.body?.error,
      envelope: isErrorEnvelope(res.body),
      unchanged,
    }).toEqual({
      ...context,
      status: res.status,
      isClientError: true,
      error: res.body?.error, // shown in a failure's diff
      envelope: true,
      unchanged: true,
    });
  };

  it('names every fuzzed endpoint', () => {
    expect(endpoints().map((e) => e.name)).toEqual(ENDPOINT_NAMES);
  });

  it('fuzzes every write route of the app', () => {
    const fuzzed = [
      ...endpoints().map((e) => ({ method: e.method.toUpperCase(), path: e.path })),
      { method: 'POST', path: `/api/public/forms/${publicId}/uploads` },
    ];
    // /api/mcp answers JSON-RPC, and its tools run the routes fuzzed here. The browser and OAuth protocol routes (form
    // posts answered as pages or RFC 6749 JSON, CORS preflights) and the app-session export start run in their own flows
    // in oauth.e2e-spec and exports.e2e-spec.
    const writeRoutes = appRoutes(api.app).filter(
      (route) => !['GET', 'OPTIONS'].includes(route.method) && route.path !== '/api/mcp' && !SESSION_AND_OAUTH_ROUTES.test(route.path),
    );
    const unfuzzed = writeRoutes.filter((route) => {
      const pattern = new RegExp(`^${route.path.replace(/:[a-z_]+/g, '[^/]+')}$`);
      return !fuzzed.some((e) => e.method === route.method && pattern.test(e.path));
    });
    expect(unfuzzed).toEqual([]);
  });

  describe('random JSON bodies: a 4xx envelope and no change, or a success that leaves a re-parseable draft', () => {
    it.each(ENDPOINT_NAMES)(
      '%s',
      async (name) => {
        const e = endpoint(name);
        const runs = e.runs ?? BODY_RUNS;
        const counts = { accepted: 0, rejected: 0 };
        await fc.assert(
          fc.asyncProperty(e.bodies, idempotencyKeys, e.query ?? fc.constant(''), async (body, idempotencyKey, query) => {
            const before = await snapshot();
            // The path again: a DELETE that went through replaced the form it names.
            const res = await send(endpoint(name), JSON.stringify(body), idempotencyKey, query);
            if (res.status >= 200 && res.status < 300) {
              counts.accepted++;
              if (e.after) return e.after();
              if (name.startsWith('submit')) return;
              // The draft the accepted edit left behind parses again, unchanged.
              const id = CREATES_A_FORM.includes(name) ? res.body.data.id : formId;
              const stored = await api.as().get(`/api/v1/forms/${id}`);
              expect({ name, body, status: stored.status }).toEqual({ name, body, status: 200 });
              const again = await api.as().put(`/api/v1/forms/${id}/draft`).send({ draftSchema: stored.body.draft_schema, force: true });
              expect({ name, body, stored: stored.body.draft_schema, status: again.status, error: again.body.error }).toEqual({
                name,
                body,
                stored: stored.body.draft_schema,
                status: 200,
                error: undefined,
              });
              expect({ name, body, draft: again.body.draft_schema }).toEqual({ name, body, draft: stored.body.draft_schema });
              if (!CREATES_A_FORM.includes(name)) await restore(name === 'publish');
              return;
            }
            await expectCleanRejection({ name, body, idempotencyKey, query }, res, before);
            counts.rejected++;
          }),
          fuzzParameters(runs),
        );
        // Most random bodies are wrong somewhere: the rejection path must have been exercised (and the success path where bodies are ignored).
        if (!fuzzCountsApply(runs)) return;
        if (e.bodyIgnored) expect(counts.accepted).toBeGreaterThan(0);
        else expect(counts.rejected).toBeGreaterThan(runs / 8);
        // Generous: CI runs this beside the benchmarks' load generators on 2 cores.
      },
      60_000 + BODY_RUNS * 2_000,
    );
  });

  // Found by the property above: publishing with a draftSchema saves it even when the publish is refused.
  it('publish with a draftSchema that is valid but not publishable: 400 and the draft is left as it was', async () => {
    const before = await snapshot();
    const stored = await api.as().get(formPath()).expect(200);
    const res = await api
      .as()
      .post(formPath('/publish'))
      .send({ draftSchema: { settings: { name: 'Not publishable' }, steps: [{ id: 'stp_empty', title: 'Empty', fields: [] }] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'draft_not_publishable' });
    const after = await api.as().get(formPath()).expect(200);
    const unchanged = (await snapshot()) === before;
    if (!unchanged) await restore(false);
    expect({
      title: after.body.data.title,
      draft_revision: after.body.data.draft_revision,
      steps: after.body.draft_schema.steps.map((s: { id: string }) => s.id),
      unchanged,
    }).toEqual({
      title: stored.body.data.title,
      draft_revision: stored.body.data.draft_revision,
      steps: stored.body.draft_schema.steps.map((s: { id: string }) => s.id),
      unchanged: true,
    });
  });

  /**
   * Well-formed JSON that PostgreSQL or a recursive library cannot take: a NUL character, a lone UTF-16 surrogate
   * (both valid JSON string escapes) and 5,000 levels of nesting (a 30 KB body, far under the 1 MiB limit).
   */
  describe('hostile but well-formed JSON is refused with a 4xx, never a 5xx', () => {
    const NUL = 'before\u0000after';
    const LONE_SURROGATE = 'before\ud800after';
    const DEEP_MARKER = '__deep_marker__';
    /** `{"a":{"a":…"bottom"…}}` written out directly (JSON.stringify itself would overflow on it). */
    const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`;

    /** A body the endpoint would accept, with `value` in its main free-text (or otherwise open) slot. */
    const carrying = (name: string, value: unknown): unknown => {
      const draftWith = () => ({ ...baseDraft(), settings: { ...baseDraft().settings, name: value } });
      switch (name) {
        case 'create':
        case 'clone':
        case 'from starter template':
        case 'patch form':
          return { title: value };
        case 'put draft':
        case 'publish':
          return { draftSchema: draftWith() };
        case 'add step':
        case 'patch step':
          return { title: value };
        case 'reorder steps':
          return { step_ids: ['stp_one', 'stp_two', 'stp_three'], draft_revision: value };
        case 'move step':
          return { position: value };
        case 'add field':
          return { type: 'text', label: value };
        case 'patch field':
          return { label: value };
        case 'reorder fields':
          return { field_ids: ['fld_name', 'fld_size', 'fld_count', 'fld_src'], draft_revision: value };
        case 'move field':
          return { position: 0, stepId: value };
        case 'logic':
          return {
            rules: [{ stepId: 'stp_one', conditions: [{ subject: { type: 'field', fieldId: 'fld_name' }, operator: 'equals', value }], target: 'end' }],
          };
        case 'design':
          return {
            theme: {
              fontFamily: 'custom',
              customFont: { family: 'Brand', fileName: value, assetId: 'ast_1', format: 'woff2', url: 'https://cdn.example.test/b.woff2' },
            },
          };
        default:
          return { values: { fld_name: value, fld_email: 'hostile@example.com' } };
      }
    };

    /** A body with `value` where an object or array may nest: the draft, rules, theme, lists, answers. */
    const nesting = (name: string, value: unknown): unknown => {
      switch (name) {
        case 'create':
        case 'patch form':
        case 'put draft':
        case 'publish':
          return { draftSchema: value };
        case 'add step':
          return { title: 'Deep', fields: [value] };
        case 'reorder steps':
          return { step_ids: [value] };
        case 'reorder fields':
          return { field_ids: [value] };
        case 'logic':
          return { rules: [value] };
        case 'design':
          return { theme: value };
        default:
          return carrying(name, value);
      }
    };

    const cases = BODY_ENDPOINT_NAMES.flatMap(
      (name) =>
        [
          [name, 'a NUL character', () => JSON.stringify(carrying(name, NUL))],
          [name, 'a lone surrogate', () => JSON.stringify(carrying(name, LONE_SURROGATE))],
          [name, '5,000 levels of nesting', () => JSON.stringify(nesting(name, DEEP_MARKER)).replace(`"${DEEP_MARKER}"`, deepJson(5000))],
        ] as Array<[string, string, () => string]>,
    );

    it.each(cases)('%s with %s', async (name, what, body) => {
      const e = endpoint(name);
      const json = body();
      const before = await snapshot();
      const res = await send(e, json);
      if (res.status >= 200 && res.status < 300) {
        // Accepting is fine only when what was stored reads back (the value made it through intact or was normalised).
        if (!CREATES_A_FORM.includes(name) && !name.startsWith('submit')) await restore(name === 'publish');
        return;
      }
      await expectCleanRejection({ name, what, body: json.slice(0, 120) }, res, before);
    });

    /** Requests that would succeed but for the NUL character (`%00`) in an id of the path or query. */
    const paths: Array<['get' | 'patch' | 'post' | 'delete', string, object | undefined]> = [
      ['get', '/api/v1/forms/frm_%00', undefined],
      ['patch', '/api/v1/forms/frm_%00', { title: 'x' }],
      ['delete', '/api/v1/forms/frm_%00', undefined],
      ['post', '/api/v1/forms/frm_%00/publish', {}],
      ['post', '/api/v1/forms/frm_%00/close', {}],
      ['get', '/api/v1/forms/{form}/submissions/sbm_%00', undefined],
      ['get', '/api/v1/forms/{form}/uploads/upl_%00', undefined],
      ['patch', '/api/v1/forms/{form}/steps/stp_%00', { title: 'x' }],
      ['patch', '/api/v1/forms/{form}/fields/fld_%00', { label: 'x' }],
      ['get', '/api/v1/forms?workspaceId=wrk_%00', undefined],
      ['post', '/api/public/forms/pub_%00/submissions', {}],
      ['get', '/f/pub_%00', undefined],
    ];

    it.each(paths)('a NUL character in an id: %s %s is a 4xx', async (method, template, body) => {
      const path = template.replace('{form}', formId);
      const before = await snapshot();
      let test = (path.startsWith('/api/v1') ? api.as() : api.as(''))[method](path);
      if (body) test = test.send(body);
      const res = await test;
      if (path.startsWith('/f/')) {
        // The hosted page answers with an HTML page, not the JSON envelope.
        expect({ path, status: res.status, isClientError: res.status >= 400 && res.status < 500 }).toEqual({ path, status: res.status, isClientError: true });
        return;
      }
      await expectCleanRejection({ method, path }, res, before);
    });
  });

  it(
    'public upload: random bytes, names, types and content types get a 201 or a clean 4xx envelope',
    async () => {
      const server = api.app.getHttpServer();
      const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ maxLength: 4096 }),
          optional(fc.oneof(fc.constantFrom('notes.txt', 'cv.pdf', 'x.png', '../../etc/passwd', 'a\\b.txt', '', 'n'.repeat(300)), headerText(40))),
          optional(fc.oneof(fc.constantFrom('text/plain', 'image/png', 'application/pdf', 'text/html', 'image/*', ''), headerText(30))),
          fc.constantFrom('application/octet-stream', 'application/json', 'text/plain', 'multipart/form-data; boundary=x'),
          idempotencyKeys,
          async (bytes, fileName, fileType, contentType, idempotencyKey) => {
            const before = await snapshot();
            let test = request(server).post(`/api/public/forms/${publicId}/uploads`).set('content-type', contentType);
            if (fileName !== undefined) test = test.set('x-file-name', fileName);
            if (fileType !== undefined) test = test.set('x-file-type', fileType);
            if (idempotencyKey !== undefined) test = test.set('idempotency-key', idempotencyKey);
            const res = await test.send(Buffer.from(bytes));
            if (res.status >= 200 && res.status < 300) return;
            await expectCleanRejection({ fileName, fileType, contentType, size: bytes.length }, res, before);
          },
        ),
        fuzzParameters(UPLOAD_RUNS),
      );
    },
    60_000 + UPLOAD_RUNS * 1_000,
  );

  it(
    'malformed path segments in every route: a 4xx, with the error envelope on the API routes',
    async () => {
      const routes = appRoutes(api.app).filter((route) => route.path !== '/healthz' && route.path !== '/readyz' && String(route.method) !== 'OPTIONS');
      const realIds = (): Record<string, string> => ({
        form_id: formId,
        public_id: publicId,
        step_id: 'stp_one',
        field_id: 'fld_name',
        submission_id: 'sbm_missing',
        upload_id: upload.id,
        file: 'missing.js',
      });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes.map((route) => `${route.method} ${route.path}`)),
          malformedPathSegments,
          fc.nat(),
          idempotencyKeys,
          async (route, segment, which, idempotencyKey) => {
            const [method, template] = route.split(' ');
            const params = [...template.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
            // One parameter replaced by the segment, the others real; a path without parameters gets it appended.
            const replaced = params[which % Math.max(params.length, 1)];
            const path = params.length
              ? template.replace(/:([a-z_]+)/g, (_, name: string) => (name === replaced ? segment : realIds()[name]))
              : `${template}/${segment}`;
            const before = await snapshot();
            let test = api
              .as(path.startsWith('/api/v1') ? undefined : '')
              [method.toLowerCase() as Endpoint['method'] | 'get'](path)
              .set('content-type', 'application/json');
            if (idempotencyKey !== undefined) test = test.set('idempotency-key', idempotencyKey);
            const res = await test.send('{}');
            if (replaced === 'idempotency_key' && isIdempotencyKey(segment)) {
              // Not malformed: any visible ASCII is a key (`..`, `%25`), so this asks after one never used here.
              expect({ path, status: res.status, outcome: (res.body as { status?: unknown }).status }).toEqual({ path, status: 200, outcome: 'unknown' });
              return;
            }
            if (path.startsWith('/f/') || path.startsWith('/favicon')) {
              // The hosted page and its assets answer with HTML or files, not the JSON envelope.
              expect({ path, status: res.status, isClientError: res.status >= 400 && res.status < 500 }).toEqual({
                path,
                status: res.status,
                isClientError: true,
              });
              return;
            }
            await expectCleanRejection({ route, path: path.slice(0, 200) }, res, before);
          },
        ),
        fuzzParameters(PATH_RUNS),
      );
    },
    60_000 + PATH_RUNS * 300,
  );
});
