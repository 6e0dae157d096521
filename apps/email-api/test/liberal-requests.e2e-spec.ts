/**
 * Requests as real clients send them: `cursor` beside `starting_after` on every cursor list, query parameters we do
 * not know, and body properties we do not know, refused only where the contract's schema (and so ours) is closed.
 */
import { isImplemented } from './contract';
import { CURSOR_LISTS, LIST_FILLERS, ListPage } from './cursor-lists';
import { emailApi, EmailApiHarness } from './helpers';

const ROWS = 7;
const PAGE = 2;
const UNKNOWN = 'zz_unknown_property';

type Schema = { $ref?: string; additionalProperties?: unknown };
type Operation = {
  operationId: string;
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
};

describe('email-api: liberal where the contract is open', () => {
  let h: EmailApiHarness;
  beforeAll(async () => {
    h = await emailApi({ RATE_LIMIT_REQUESTS: '0' });
  });
  afterAll(() => h?.close());

  describe('cursor lists', () => {
    it('has a filler for every implemented cursor list', async () => {
      const implemented: string[] = [];
      for (const op of CURSOR_LISTS) if (await isImplemented(h, op)) implemented.push(op.operation_id);
      expect(implemented.sort()).toEqual(Object.keys(LIST_FILLERS).sort());
    });

    describe.each(Object.keys(LIST_FILLERS))('%s', (operationId) => {
      const path = () => CURSOR_LISTS.find((o) => o.operation_id === operationId)!.path;
      let workspace: { workspace_id: string; api_key: string };
      let all: string[];
      const list = async (query: string, status = 200) => h.as(workspace.api_key).get(`${path()}?${query}`).expect(status);

      beforeAll(async () => {
        workspace = await h.newWorkspace(`Liberal ${operationId}`);
        await LIST_FILLERS[operationId](h, workspace, ROWS);
        all = ((await list('limit=100')).body as ListPage).data.map((row) => row.id);
        expect(all).toHaveLength(ROWS);
      });

      it('pages to the end sending the cursor as both starting_after and cursor', async () => {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const encoded: string = cursor ? encodeURIComponent(cursor) : '';
          const page = (await list(`limit=${PAGE}${cursor ? `&starting_after=${encoded}&cursor=${encoded}` : ''}`)).body as ListPage;
          seen.push(...page.data.map((row) => row.id));
          cursor = page.pagination.next_cursor;
          pages++;
        } while (cursor);
        expect({ pages, seen }).toEqual({ pages: Math.ceil(ROWS / PAGE), seen: all });
      });

      it('takes cursor alone as starting_after', async () => {
        const first = (await list(`limit=${PAGE}`)).body as ListPage;
        const next = (await list(`limit=${PAGE}&cursor=${encodeURIComponent(first.pagination.next_cursor!)}`)).body as ListPage;
        expect(next.data.map((row) => row.id)).toEqual(all.slice(PAGE, 2 * PAGE));
      });

      it('refuses two different cursors with a 400 naming both fields', async () => {
        const first = (await list('limit=1')).body as ListPage;
        const second = (await list(`limit=1&starting_after=${encodeURIComponent(first.pagination.next_cursor!)}`)).body as ListPage;
        const [a, b] = [first.pagination.next_cursor!, second.pagination.next_cursor!].map(encodeURIComponent);
        const { body } = await list(`limit=1&starting_after=${a}&cursor=${b}`, 400);
        expect(body.error).toMatchObject({ type: 'invalid_request', code: 'validation_failed', details: { field: 'cursor' } });
        expect(body.error.details.reason).toContain('"starting_after"');
      });

      it('ignores query parameters it does not know', async () => {
        const plain = (await list(`limit=${PAGE}`)).body as ListPage;
        const decorated = (await list(`limit=${PAGE}&utm_source=newsletter&${UNKNOWN}=1&expand[]=tags`)).body as ListPage;
        expect(decorated).toEqual(plain);
      });
    });
  });

  it('ignores unknown query parameters on routes without a query of their own', async () => {
    const plain = await h.as().get('/v1/workspace').expect(200);
    const decorated = await h.as().get(`/v1/workspace?${UNKNOWN}=1&include=everything`).expect(200);
    expect(decorated.body).toEqual(plain.body);
  });

  describe('unknown body properties', () => {
    /** Every operation with a JSON body, with whether our document closes its schema. */
    async function bodies(): Promise<Array<{ method: string; path: string; operationId: string; closed: boolean; keyRequired: boolean }>> {
      const document = (await h.as('').get('/v1/openapi.json').expect(200)).body as {
        paths: Record<string, Record<string, Operation>>;
        components: { schemas: Record<string, Schema> };
      };
      return Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => op.requestBody)
          .map(([method, op]) => {
            const schema = op.requestBody!.content['application/json'].schema;
            const resolved = schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()!] : schema;
            const keyRequired = (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key' && p.required === true);
            return { method, path, operationId: op.operationId, closed: resolved.additionalProperties === false, keyRequired };
          }),
      );
    }

    it('are refused exactly where the published document closes the request schema', async () => {
      const operations = await bodies();
      expect(operations.filter((op) => op.closed).map((op) => op.operationId)).toEqual(
        expect.arrayContaining(['createTag', 'updateTag', 'createCustomField', 'updateCustomField']),
      );
      expect(operations.filter((op) => !op.closed).map((op) => op.operationId)).toEqual(
        expect.arrayContaining(['upsertSubscriber', 'updateSubscriber', 'updateSubscriberStatus']),
      );
      for (const op of operations) {
        const sent = h
          .as()
          .request(op.method as 'post', op.path.replace(/\{[^}]+\}/g, 'x_missing'))
          // Where the key is required, a request without it is refused for that first.
          .set(op.keyRequired ? { 'idempotency-key': `unknown-${op.operationId}` } : {});
        const res = await sent.send({ [UNKNOWN]: 1 });
        const refusedAsUnknown = res.status === 400 && res.body.error?.details?.field === UNKNOWN;
        expect({ op: op.operationId, refusedAsUnknown }).toEqual({ op: op.operationId, refusedAsUnknown: op.closed });
        if (refusedAsUnknown) expect(res.body.error.details.reason).toMatch(/^unknown_property: /);
      }
    });

    it('are dropped on the open subscriber schemas, and the request succeeds', async () => {
      const created = await h
        .as()
        .post('/v1/subscribers')
        .send({ email: 'liberal@example.com', name: 'Lib', [UNKNOWN]: 'x', client: { version: 2 } })
        .expect(201);
      expect(created.body.data).not.toHaveProperty(UNKNOWN);
      const id = created.body.data.id as string;
      const updated = await h
        .as()
        .patch(`/v1/subscribers/${id}`)
        .send({ name: 'Liberal', [UNKNOWN]: true })
        .expect(200);
      expect(updated.body.data).toMatchObject({ name: 'Liberal' });
      const status = await h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Unsubscribed', reason: 'asked by phone' }).expect(200);
      expect(status.body.data).toMatchObject({ status: 'Unsubscribed' });
    });

    it('are refused inside closed objects, also when an open body holds them', async () => {
      const consent = { lawful_basis: 'consent', collected_at: '2026-01-15T10:00:00Z', evidence_reference: 'form-1', ip_address: '10.0.0.1' };
      const upsert = await h.as().post('/v1/subscribers').send({ email: 'consent@example.com', consent_evidence: consent }).expect(400);
      expect(upsert.body.error.details).toEqual({ field: 'consent_evidence.ip_address', reason: expect.stringMatching(/^unknown_property: /) });
      const field = await h
        .as()
        .post('/v1/custom-fields')
        .send({ label: 'Closed settings', type: 'Single Select', settings: { options: ['a'], colour: 'red' } })
        .expect(400);
      expect(field.body.error.details).toEqual({ field: 'settings.colour', reason: expect.stringMatching(/^unknown_property: /) });
      const tag = await h.as().post('/v1/tags').send({ name: 'Closed tag', colour: 'red' }).expect(400);
      expect(tag.body.error).toMatchObject({ code: 'validation_failed', details: { field: 'colour' } });
    });

    it('still applies every rule the contract states on an open schema', async () => {
      const missing = await h
        .as()
        .post('/v1/subscribers')
        .send({ [UNKNOWN]: 1 })
        .expect(400);
      expect(missing.body.error.details).toMatchObject({ field: 'email' });
      const badStatus = await h
        .as()
        .post('/v1/subscribers')
        .send({ email: 'rules@example.com', status: 'Gone', [UNKNOWN]: 1 })
        .expect(400);
      expect(badStatus.body.error.details).toMatchObject({ field: 'status' });
    });
  });
});
