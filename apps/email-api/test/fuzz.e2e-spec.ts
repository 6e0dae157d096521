/**
 * Property tests over every implemented write operation of the contract (POST/PUT/PATCH/DELETE):
 * - random bodies (JSON of any shape, the endpoints' own property names with values of any shape, malformed JSON text,
 *   deep nesting), with no `Idempotency-Key`, a fresh one, a reused one, or a malformed one: a clean success, or a 4xx
 *   `{error:{type,code,message}}` that leaves the database exactly as it was; never a 5xx;
 * - random malformed path segments (bad percent-encoding, NUL and control characters, raw and encoded unicode, `..`,
 *   over-long ids) in every implemented operation: a 4xx envelope.
 * Seeded (FUZZ_SEED, default fixed) and sized (FUZZ_RUNS) through @shared/testing; `npm run fuzz:long` runs them long.
 */
import fc from 'fast-check';
import request from 'supertest';
import { EmailPrisma } from '@email/data-access';
import { fuzzCountsApply, fuzzParameters, fuzzRuns, idempotencyKeys, isErrorEnvelope, malformedPathSegments } from '@shared/testing';
import { ContractOperation, contractOperations, isImplemented, methodOf } from './contract';
import { emailApi, EmailApiHarness } from './helpers';

const TABLES = ['subscribers', 'tags', 'subscriber_tags', 'custom_fields', 'sequence_enrollments', 'consent_records', 'outbox_events'];
const BODY_RUNS = fuzzRuns(60);
const PATH_RUNS = fuzzRuns(150);
// A budget per run of each write operation the contract lists, so the timeout grows as operations are implemented.
const BODY_BUDGET_MS = 60_000 + contractOperations().filter((op) => op.method !== 'GET').length * BODY_RUNS * 120;

const fieldNames = [
  'email',
  'name',
  'status',
  'country',
  'subscribed_on',
  'create_only',
  'custom_fields',
  'consent_evidence',
  'existing_tag_ids',
  'new_tags',
  'sequence_ids',
  'label',
  'type',
  'settings',
  'description',
  'options',
  'lawful_basis',
  'collected_at',
  '__proto__',
  'constructor',
];

/** A request body: JSON text of a value, raw text (mostly not JSON), or `levels` of nesting (written out when sent). */
type Body = { json: unknown } | { raw: string } | { levels: number; array: boolean };

/** `{"email":{"email":…}}` or `[[…]]` written out directly (JSON.stringify itself would overflow on deep values). */
const bodyText = (body: Body) => {
  if ('json' in body) return JSON.stringify(body.json);
  if ('raw' in body) return body.raw;
  return body.array ? `${'['.repeat(body.levels)}1${']'.repeat(body.levels)}` : `${'{"email":'.repeat(body.levels)}"x@example.com"${'}'.repeat(body.levels)}`;
};

/** Mostly JSON of the endpoints' property names or of any shape, now and then malformed or deeply nested. */
const bodies: fc.Arbitrary<Body> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ json: fc.jsonValue() }) },
  { weight: 4, arbitrary: fc.record({ json: fc.dictionary(fc.constantFrom(...fieldNames), fc.jsonValue(), { maxKeys: 6 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      json: fc.record(
        { email: fc.oneof(fc.emailAddress(), fc.string()), consent_evidence: fc.dictionary(fc.constantFrom(...fieldNames), fc.jsonValue()) },
        { requiredKeys: [] },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ raw: fc.string({ unit: 'binary', maxLength: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ levels: fc.integer({ min: 500, max: 20_000 }), array: fc.boolean() }) },
);

describe('email-api: fuzzing every write operation and malformed paths', () => {
  let h: EmailApiHarness;
  let prisma: EmailPrisma;
  let implemented: ContractOperation[];
  let writes: ContractOperation[];
  let ids: Record<string, string>;
  let made = 0;

  /** A subscriber with a tag, and a custom field, for the path parameters (made again after a DELETE consumed one). */
  const makeFixtures = async () => {
    made++;
    const field = (
      await h
        .as()
        .post('/v1/custom-fields')
        .send({ label: `Plan ${made}`, type: 'Single Select', settings: { options: ['a', 'b'] } })
        .expect(201)
    ).body.data;
    const subscriber = (
      await h
        .as()
        .post('/v1/subscribers')
        .send({ email: `fuzz${made}@example.com`, new_tags: [`Fuzz ${made}`] })
        .expect(201)
    ).body.data;
    ids = { subscriber_id: subscriber.id, tag_id: subscriber.tags[0].id, custom_field_id: field.id };
  };
  /** The operation's path with real ids where there are fixtures, and `overrides` by parameter name. */
  const pathOf = (op: ContractOperation, overrides: Record<string, string> = {}) =>
    op.path.replace(/\{([^}]+)\}/g, (_, name: string) => overrides[name] ?? ids[name] ?? `missing_${name}`);

  beforeAll(async () => {
    h = await emailApi({ RATE_LIMIT_REQUESTS: '0' });
    prisma = h.app.get(EmailPrisma);
    await makeFixtures();
    implemented = [];
    for (const op of contractOperations()) if (await isImplemented(h, op)) implemented.push(op);
    writes = implemented.filter((op) => op.method !== 'GET');
  });
  afterAll(() => h?.close());

  const snapshot = async () => {
    const parts = await Promise.all(
      TABLES.map((table) =>
        prisma.$queryRawUnsafe<Array<{ digest: string | null }>>(`SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ${table} t`),
      ),
    );
    return parts.map(([row]) => row.digest).join(':');
  };

  const expectClientError = (context: object, res: request.Response) =>
    expect({ ...context, status: res.status, clientError: res.status >= 400 && res.status < 500, envelope: isErrorEnvelope(res.body) }).toEqual({
      ...context,
      status: res.status,
      clientError: true,
      envelope: true,
    });

  it('fuzzes every implemented write operation of the contract', () => {
    expect(writes.map((op) => op.operation_id).sort()).toEqual(
      expect.arrayContaining([
        'upsertSubscriber',
        'updateSubscriber',
        'deleteSubscriber',
        'createTag',
        'updateTag',
        'deleteTag',
        'createCustomField',
        'updateCustomField',
        'deleteCustomField',
      ]),
    );
  });

  it(
    'answers every random body, with or without an Idempotency-Key, with a clean success or a 4xx envelope and no change',
    async () => {
      let rejected = 0;
      for (const op of writes) {
        await fc.assert(
          fc.asyncProperty(bodies, idempotencyKeys, async (body, key) => {
            const path = pathOf(op);
            const before = await snapshot();
            let req = h.as().request(methodOf(op), path).set('content-type', 'application/json');
            if (key !== undefined) req = req.set('idempotency-key', key);
            const text = bodyText(body);
            const res = await req.send(text);
            const context = { op: op.operation_id, path, key, body: text.slice(0, 200) };
            if (res.status >= 200 && res.status < 300) {
              if (op.method === 'DELETE' && !path.includes('/tags/') && !path.includes('/sequences/')) await makeFixtures();
              return;
            }
            expectClientError(context, res);
            expect({ ...context, unchanged: (await snapshot()) === before }).toEqual({ ...context, unchanged: true });
            rejected++;
          }),
          fuzzParameters(BODY_RUNS),
        );
      }
      if (fuzzCountsApply(BODY_RUNS)) expect(rejected).toBeGreaterThan(writes.length * BODY_RUNS * 0.5);
    },
    BODY_BUDGET_MS,
  );

  it(
    'answers malformed path segments in every implemented operation with a 4xx envelope',
    async () => {
      const byId = new Map(implemented.map((op) => [op.operation_id, op]));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...byId.keys()), malformedPathSegments, fc.nat(), async (operationId, segment, which) => {
          const op = byId.get(operationId)!;
          const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
          // One parameter replaced by the segment, the others real; a path without parameters gets it appended.
          const path = params.length ? pathOf(op, { [params[which % params.length]]: segment }) : `${op.path}/${segment}`;
          const res = await h.as().request(methodOf(op), path).set('content-type', 'application/json').send('{}');
          expectClientError({ op: op.operation_id, path: path.slice(0, 200) }, res);
        }),
        fuzzParameters(PATH_RUNS),
      );
    },
    60_000 + PATH_RUNS * 200,
  );
});
