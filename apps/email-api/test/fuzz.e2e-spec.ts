/**
 * Property test: random JSON thrown at every write endpoint never produces a 5xx, every rejection is a
 * well-formed 4xx envelope, and a rejected request leaves the database exactly as it was.
 */
import fc from 'fast-check';
import { EmailPrisma } from '@email/data-access';
import { emailApi, EmailApiHarness } from './helpers';

const TABLES = ['subscribers', 'tags', 'subscriber_tags', 'custom_fields', 'sequence_enrollments', 'consent_records', 'outbox_events'];

describe('email-api: fuzzing the write endpoints', () => {
  let h: EmailApiHarness;
  let prisma: EmailPrisma;
  let ids: { subscriber: string; tag: string; field: string };

  beforeAll(async () => {
    h = await emailApi({ RATE_LIMIT_REQUESTS: '0' });
    prisma = h.app.get(EmailPrisma);
    const field = (await h.as().post('/v1/custom-fields').send({ label: 'Plan', type: 'Single Select', settings: { options: ['a', 'b'] } }).expect(201)).body.data;
    const subscriber = (await h.as().post('/v1/subscribers').send({ email: 'fuzz@example.com', new_tags: ['Fuzz'] }).expect(201)).body.data;
    ids = { subscriber: subscriber.id, tag: subscriber.tags[0].id, field: field.id };
  });
  afterAll(() => h?.close());

  const snapshot = async () => {
    const parts = await Promise.all(
      TABLES.map((table) => prisma.$queryRawUnsafe<Array<{ digest: string | null }>>(`SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ${table} t`)),
    );
    return parts.map(([row]) => row.digest).join(':');
  };

  const fieldNames = ['email', 'name', 'status', 'country', 'subscribed_on', 'create_only', 'custom_fields', 'consent_evidence', 'existing_tag_ids', 'new_tags',
    'sequence_ids', 'label', 'type', 'settings', 'description', 'options', 'lawful_basis', 'collected_at'];
  /** Objects using the real property names with values of any shape, plus arbitrary JSON of any kind. */
  const bodies = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom(...fieldNames), fc.jsonValue(), { maxKeys: 6 }),
    fc.record({ email: fc.oneof(fc.emailAddress(), fc.string()), consent_evidence: fc.dictionary(fc.constantFrom(...fieldNames), fc.jsonValue()) }, { requiredKeys: [] }),
  );

  const endpoints = () => [
    ['post', '/v1/subscribers'],
    ['patch', `/v1/subscribers/${ids.subscriber}`],
    ['put', `/v1/subscribers/${ids.subscriber}/status`],
    ['put', `/v1/subscribers/${ids.subscriber}/tags/tag_fuzz_missing`],
    ['put', `/v1/subscribers/${ids.subscriber}/sequences/seq_fuzz_missing`],
    ['post', '/v1/tags'],
    ['put', `/v1/tags/${ids.tag}`],
    ['post', '/v1/custom-fields'],
    ['put', `/v1/custom-fields/${ids.field}`],
  ] as const;

  it('answers every random body with a 4xx envelope and no change, or a clean success', async () => {
    let rejected = 0;
    for (const [method, path] of endpoints()) {
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          const before = await snapshot();
          const res = await h.as()[method](path).set('content-type', 'application/json').send(JSON.stringify(body));
          expect({ path, body, status: res.status }).toEqual({ path, body, status: expect.any(Number) });
          if (res.status >= 200 && res.status < 300) return;
          expect({ path, body, status: res.status >= 400 && res.status < 500 }).toEqual({ path, body, status: true });
          expect(res.body.error).toEqual(expect.objectContaining({ type: expect.any(String), code: expect.any(String), message: expect.any(String) }));
          expect(await snapshot()).toBe(before);
          rejected++;
        }),
        { numRuns: 60 },
      );
    }
    expect(rejected).toBeGreaterThan(400);
  }, 120_000);
});
