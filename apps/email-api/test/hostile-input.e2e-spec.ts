import { CursorCodec } from '@shared/pagination';
import { emailApi, EmailApiHarness } from './helpers';

/** Input that used to reach a stack overflow or PostgreSQL and come back as a 500. */
describe('email-api: hostile input is a 400, never a 500', () => {
  let api: EmailApiHarness;

  beforeAll(async () => {
    api = await emailApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it.each(['/v1/subscribers', '/v1/tags', '/v1/custom-fields'])(
    'POST %s with an Idempotency-Key and 10,000 levels of nesting: 400 input_too_deep',
    async (path) => {
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const res = await api.as().post(path).set('idempotency-key', `deep-${path}`).set('content-type', 'application/json').send(deep);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'input_too_deep' });
    },
  );

  describe.each(['subscribers', 'tags', 'custom-fields', 'sender-identities'])('GET /v1/%s with a validly signed cursor holding nonsense', (list) => {
    const scope = () => `${api.workspaceId}:${list.replace('-', '_')}`;
    it.each([
      ['a year PostgreSQL cannot hold', { created_at: '+275760-09-13T00:00:00.000Z', id: 'sub_1' }],
      ['a NUL byte in the id', { created_at: '2026-01-01T00:00:00.000Z', id: 'sub_1\u0000' }],
      ['a time zone PostgreSQL refuses', { created_at: '2026-01-01T00:00:00.000+99:00', id: 'sub_1' }],
    ])('%s: 400 invalid_cursor', async (_case, position) => {
      const cursor = api.app.get(CursorCodec).encode(scope(), position);
      const res = await api.as().get(`/v1/${list}?starting_after=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_cursor', details: { field: 'starting_after' } });
    });
  });
});
