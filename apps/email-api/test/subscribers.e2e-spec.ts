import { EmailPrisma } from '@email/data-access';
import { Clock } from '@shared/core';
import { expectExactPages } from './exact-pages';
import { emailApi, EmailApiHarness } from './helpers';

const consent = (overrides: Record<string, unknown> = {}) => ({
  lawful_basis: 'consent',
  collected_at: '2026-01-15T10:00:00+01:00',
  evidence_reference: 'signup-form-42',
  ...overrides,
});

describe('email-api: subscribers', () => {
  let h: EmailApiHarness;
  let prisma: EmailPrisma;

  beforeAll(async () => {
    h = await emailApi();
    prisma = h.app.get(EmailPrisma);
  });
  afterAll(() => h?.close());

  const upsert = (body: object) => h.as().post('/v1/subscribers').send(body);
  const outbox = (type: string) => prisma.outboxEvent.findMany({ where: { workspace_id: h.workspaceId, type }, orderBy: { created_at: 'asc' } });

  describe('POST /v1/subscribers (upsert)', () => {
    it('creates with 201, normalizing email and country, and writes a subscriber.created event without the email', async () => {
      const res = await upsert({ email: 'Ada@Example.COM', name: 'Ada', country: 'Germany', subscribed_on: '2025-06-01' }).expect(201);
      expect(res.body.data).toEqual({
        self: `/v1/subscribers/${res.body.data.id}`,
        id: expect.stringMatching(/^sub_/),
        email: 'ada@example.com',
        name: 'Ada',
        status: 'Active',
        country: 'DE',
        subscribed_at: '2025-06-01T00:00:00.000Z',
        last_opened_at: null,
        tags: [],
        sequence_ids: [],
        custom_fields: {},
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const events = await outbox('subscriber.created');
      expect(events.at(-1)!.payload).toEqual({ subscriber: { id: res.body.data.id }, status: 'Active' });
      expect(JSON.stringify(events)).not.toContain('example.com');
    });

    it('updates with 200 by email; blank optional values leave saved values unchanged', async () => {
      await upsert({ email: 'blank@example.com', name: 'Kept', country: 'FR', subscribed_on: '2024-01-02' }).expect(201);
      const res = await upsert({ email: 'blank@example.com', name: '', country: null, subscribed_on: '', status: null, custom_fields: {} }).expect(200);
      expect(res.body.data).toMatchObject({ name: 'Kept', country: 'FR', subscribed_at: '2024-01-02T00:00:00.000Z', status: 'Active' });
    });

    it('writes subscriber.updated only with the fields that really changed', async () => {
      const id = (await upsert({ email: 'events@example.com', name: 'Same' }).expect(201)).body.data.id;
      const count = async () => (await outbox('subscriber.updated')).filter((e) => (e.payload as { subscriber: { id: string } }).subscriber.id === id);
      await upsert({ email: 'events@example.com', name: 'Same' }).expect(200);
      expect(await count()).toHaveLength(0);
      await upsert({ email: 'events@example.com', name: 'Changed', new_tags: ['Evented'] }).expect(200);
      expect((await count()).map((e) => e.payload)).toEqual([{ subscriber: { id }, changed_fields: ['name', 'tags'] }]);
    });

    it('create_only on an existing email is a 409 that changes nothing', async () => {
      await upsert({ email: 'once@example.com', name: 'First' }).expect(201);
      const res = await upsert({ email: 'once@example.com', name: 'Second', create_only: true, new_tags: ['Should not exist'] }).expect(409);
      expect(res.body.error).toMatchObject({ type: 'conflict', code: 'subscriber_exists' });
      const saved = await prisma.subscriber.findFirstOrThrow({ where: { workspace_id: h.workspaceId, email: 'once@example.com' } });
      expect(saved.name).toBe('First');
      expect(await prisma.tag.count({ where: { workspace_id: h.workspaceId, name: 'Should not exist' } })).toBe(0);
    });

    it('attaches existing tags by id and new tags by name, keeping counts right', async () => {
      const tag = (await h.as().post('/v1/tags').send({ name: 'VIP' }).expect(201)).body.data;
      const res = await upsert({ email: 'tags@example.com', existing_tag_ids: [tag.id], new_tags: ['Newsletter', 'newsletter'] }).expect(201);
      expect(res.body.data.tags.map((t: { name: string }) => t.name).sort()).toEqual(['Newsletter', 'VIP']);
      expect((await h.as().get(`/v1/tags/${tag.id}`).expect(200)).body.data.subscriber_count).toBe(1);
      await upsert({ email: 'tags@example.com', existing_tag_ids: [tag.id] }).expect(200);
      expect((await h.as().get(`/v1/tags/${tag.id}`).expect(200)).body.data.subscriber_count).toBe(1);
    });

    it('validates custom field values per type and merges them', async () => {
      const color = (
        await h
          .as()
          .post('/v1/custom-fields')
          .send({ label: 'Colors', type: 'Multi Select', settings: { options: ['red', 'blue', 'green'] } })
          .expect(201)
      ).body.data;
      const age = (await h.as().post('/v1/custom-fields').send({ label: 'Age', type: 'Number' }).expect(201)).body.data;
      const created = await upsert({ email: 'cf@example.com', custom_fields: { [color.id]: 'red, blue', [age.id]: '41' } }).expect(201);
      expect(created.body.data.custom_fields).toEqual({ [color.id]: ['red', 'blue'], [age.id]: 41 });
      const merged = await upsert({ email: 'cf@example.com', custom_fields: { [age.id]: 42, [color.id]: '' } }).expect(200);
      expect(merged.body.data.custom_fields).toEqual({ [color.id]: ['red', 'blue'], [age.id]: 42 });
      const bad = await upsert({ email: 'cf@example.com', custom_fields: { [color.id]: 'purple' } }).expect(400);
      expect(bad.body.error).toMatchObject({ code: 'invalid_custom_field_value', details: { field: `custom_fields.${color.id}` } });
      const unknown = await upsert({ email: 'cf@example.com', custom_fields: { cf_nope: 'x' } }).expect(400);
      expect(unknown.body.error.details.field).toBe('custom_fields.cf_nope');
    });

    it('rejects bad input with a 400 naming the field', async () => {
      const cases: Array<[object, string]> = [
        [{}, 'email'],
        [{ email: 'a@b.co', status: 'Sleeping' }, 'status'],
        [{ email: 'a@b.co', existing_tag_ids: ['tag_missing'] }, 'existing_tag_ids[0]'],
        [{ email: 'a@b.co', sequence_ids: ['seq_missing'] }, 'sequence_ids[0]'],
        [{ email: 'a@b.co', new_tags: ['Fine', '  '] }, 'new_tags'],
        [{ email: 'a@b.co', consent_evidence: consent({ evidence_reference: ' ' }) }, 'consent_evidence.evidence_reference'],
        [{ email: 'a@b.co', consent_evidence: consent({ raw_text: 'x' }) }, 'consent_evidence.raw_text'],
        ...(['create_only', 'consent_evidence', 'existing_tag_ids', 'new_tags', 'sequence_ids'].map((field) => [
          { email: 'a@b.co', [field]: null },
          field,
        ]) as Array<[object, string]>),
      ];
      for (const [body, field] of cases) {
        const res = await upsert(body);
        expect({ body, status: res.status, field: res.body.error?.details?.field }).toEqual({ body, status: 400, field });
      }
      expect(await prisma.subscriber.count({ where: { workspace_id: h.workspaceId, email: 'a@b.co' } })).toBe(0);
      for (const email of [null, 1, ['a@b.co']]) {
        const res = await upsert({ email });
        expect(res.body.error.details).toEqual({ field: 'email', reason: 'isString: email must be a string' });
      }
    });

    it('applies the profile rules through the upsert and through PATCH', async () => {
      const id = (await upsert({ email: 'rules@example.com' }).expect(201)).body.data.id;
      const age = (await h.as().post('/v1/custom-fields').send({ label: 'Rules age', type: 'Number' }).expect(201)).body.data;
      const cases: Array<[object, string]> = [
        [{ email: 'not-an-email' }, 'email'],
        [{ email: 'a@xn--a.com' }, 'email'],
        [{ country: 'Atlantis' }, 'country'],
        [{ subscribed_on: '2025-02-30' }, 'subscribed_on'],
        [{ name: 'x'.repeat(256) }, 'name'],
        [{ custom_fields: { [age.id]: 'forty' } }, `custom_fields.${age.id}`],
        [{ custom_fields: { cf_nope: 'x' } }, 'custom_fields.cf_nope'],
      ];
      for (const [fields, field] of cases) {
        const viaUpsert = await upsert({ email: 'rules@example.com', ...fields });
        const viaPatch = await h.as().patch(`/v1/subscribers/${id}`).send(fields);
        const outcome = (res: typeof viaPatch) => ({ status: res.status, field: res.body.error?.details?.field });
        expect({ fields, upsert: outcome(viaUpsert), patch: outcome(viaPatch) }).toEqual({
          fields,
          upsert: { status: 400, field },
          patch: { status: 400, field },
        });
      }
    });

    it('replays an idempotent upsert', async () => {
      const first = await upsert({ email: 'idem@example.com' }).set('idempotency-key', 'k-idem-1').expect(201);
      const again = await upsert({ email: 'idem@example.com' }).set('idempotency-key', 'k-idem-1').expect(201);
      expect(again.body).toEqual(first.body);
      await upsert({ email: 'other@example.com' }).set('idempotency-key', 'k-idem-1').expect(409);
    });
  });

  describe('consent evidence', () => {
    it('validates ConsentEvidence exactly, through the upsert and through the status route', async () => {
      const id = (await upsert({ email: 'consent@example.com', status: 'Unsubscribed' }).expect(201)).body.data.id;
      const cases: Array<[object, string]> = [
        [consent({ lawful_basis: 'x'.repeat(65) }), 'consent_evidence.lawful_basis'],
        [consent({ consent_text_version: 'x'.repeat(129) }), 'consent_evidence.consent_text_version'],
        [consent({ collected_at: '2026-01-15T10:00:00' }), 'consent_evidence.collected_at'],
        [consent({ collected_at: '2025-02-29T10:00:00Z' }), 'consent_evidence.collected_at'],
        [consent({ collected_at: '2999-01-01T00:00:00Z' }), 'consent_evidence.collected_at'],
        [consent({ source_url: 'not a url' }), 'consent_evidence.source_url'],
        [consent({ evidence_reference: 'x'.repeat(513) }), 'consent_evidence.evidence_reference'],
        [consent({ technical_evidence_hash: 'ABCDEF'.padEnd(64, '0') }), 'consent_evidence.technical_evidence_hash'],
        [{ collected_at: '2026-01-15T10:00:00Z', evidence_reference: 'x' }, 'consent_evidence.lawful_basis'],
      ];
      for (const [evidence, field] of cases) {
        const viaUpsert = await upsert({ email: 'consent@example.com', status: 'Active', consent_evidence: evidence });
        const viaStatus = await h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Active', consent_evidence: evidence });
        const outcome = (res: typeof viaStatus) => ({ status: res.status, field: res.body.error?.details?.field });
        expect({ evidence, upsert: outcome(viaUpsert), status: outcome(viaStatus) }).toEqual({
          evidence,
          upsert: { status: 400, field },
          status: { status: 400, field },
        });
      }
      expect(await prisma.consentRecord.count({ where: { subscriber_id: id } })).toBe(0);
      expect((await h.as().get(`/v1/subscribers/${id}`).expect(200)).body.data.status).toBe('Unsubscribed');
      await upsert({
        email: 'consent@example.com',
        status: 'Active',
        consent_evidence: consent({ source_url: 'https://example.com/signup', technical_evidence_hash: 'a'.repeat(64), consent_text_version: null }),
      }).expect(200);
    });

    it('rejects a bad status and a null consent_evidence through the upsert and through the status route', async () => {
      const id = (await upsert({ email: 'status-rules@example.com' }).expect(201)).body.data.id;
      const cases: Array<[object, string]> = [
        [{ status: 'Sleeping' }, 'status'],
        [{ status: 'Active', consent_evidence: null }, 'consent_evidence'],
        [{ status: 'Active', consent_evidence: 'yes' }, 'consent_evidence'],
      ];
      for (const [body, field] of cases) {
        const viaUpsert = await upsert({ email: 'status-rules@example.com', ...body });
        const viaStatus = await h.as().put(`/v1/subscribers/${id}/status`).send(body);
        const outcome = (res: typeof viaStatus) => ({ status: res.status, field: res.body.error?.details?.field });
        expect({ body, upsert: outcome(viaUpsert), status: outcome(viaStatus) }).toEqual({
          body,
          upsert: { status: 400, field },
          status: { status: 400, field },
        });
      }
    });

    it('requires evidence to make a non-Active subscriber Active (status endpoint and upsert), and stores it', async () => {
      const id = (await upsert({ email: 'reactivate@example.com', status: 'Unsubscribed' }).expect(201)).body.data.id;
      const missing = await h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Active' }).expect(400);
      expect(missing.body.error).toMatchObject({ code: 'consent_evidence_required', details: { field: 'consent_evidence' } });
      await upsert({ email: 'reactivate@example.com', status: 'Active' }).expect(400);
      const ok = await h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Active', consent_evidence: consent() }).expect(200);
      expect(ok.body.data.status).toBe('Active');
      expect(await prisma.consentRecord.count({ where: { subscriber_id: id } })).toBe(1);
      const events = await outbox('subscriber.status_changed');
      expect(events.at(-1)!.payload).toEqual({ subscriber: { id }, previous_status: 'Unsubscribed', status: 'Active' });
    });
  });

  describe('items', () => {
    let id: string;
    beforeAll(async () => {
      id = (await upsert({ email: 'item@example.com', name: 'Item' }).expect(201)).body.data.id;
    });

    it('GET, PATCH and status changes', async () => {
      expect((await h.as().get(`/v1/subscribers/${id}`).expect(200)).body.data.email).toBe('item@example.com');
      const patched = await h.as().patch(`/v1/subscribers/${id}`).send({ name: 'Renamed', country: 'nl', email: '' }).expect(200);
      expect(patched.body.data).toMatchObject({ name: 'Renamed', country: 'NL', email: 'item@example.com' });
      // The update schema is open: a status there is dropped like any property it does not name (PUT …/status changes it).
      const ignored = await h.as().patch(`/v1/subscribers/${id}`).send({ status: 'Blocked' }).expect(200);
      expect(ignored.body.data.status).toBe('Active');
      const blocked = await h.as().put(`/v1/subscribers/${id}/status`).send({ status: 'Blocked' }).expect(200);
      expect(blocked.body.data.status).toBe('Blocked');
    });

    it('PATCH to an email another subscriber has is a 409', async () => {
      await upsert({ email: 'taken@example.com' }).expect(201);
      const res = await h.as().patch(`/v1/subscribers/${id}`).send({ email: 'taken@example.com' }).expect(409);
      expect(res.body.error.code).toBe('subscriber_email_taken');
    });

    it('tag add/remove are idempotent and keep subscriber_count right', async () => {
      const tag = (await h.as().post('/v1/tags').send({ name: 'Item tag' }).expect(201)).body.data;
      await h.as().put(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200);
      const again = await h.as().put(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200);
      expect(again.body.data.tags).toEqual([{ id: tag.id, name: 'Item tag' }]);
      expect((await h.as().get(`/v1/tags/${tag.id}`)).body.data.subscriber_count).toBe(1);
      await h.as().delete(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200);
      const removed = await h.as().delete(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200);
      expect(removed.body.data.tags).toEqual([]);
      expect((await h.as().get(`/v1/tags/${tag.id}`)).body.data.subscriber_count).toBe(0);
      await h.as().put(`/v1/subscribers/${id}/tags/tag_missing`).expect(404);
      await h.as().put(`/v1/subscribers/sub_missing/tags/${tag.id}`).expect(404);
    });

    it('sequence add/remove', async () => {
      await prisma.sequence.create({ data: { id: 'seq_test', workspace_id: h.workspaceId, name: 'Welcome', status: 'running' } });
      const added = await h.as().put(`/v1/subscribers/${id}/sequences/seq_test`).expect(200);
      expect(added.body.data.sequence_ids).toEqual(['seq_test']);
      await h.as().put(`/v1/subscribers/${id}/sequences/seq_test`).expect(200);
      const removed = await h.as().delete(`/v1/subscribers/${id}/sequences/seq_test`).expect(200);
      expect(removed.body.data.sequence_ids).toEqual([]);
      const res = await h.as().put(`/v1/subscribers/${id}/sequences/seq_missing`).expect(404);
      expect(res.body.error).toMatchObject({ type: 'not_found', code: 'sequence_not_found' });
    });

    it('DELETE is 204 and lowers tag counts; then 404', async () => {
      const victim = (await upsert({ email: 'victim@example.com', new_tags: ['Doomed'] }).expect(201)).body.data;
      const tagId = victim.tags[0].id;
      await h.as().delete(`/v1/subscribers/${victim.id}`).expect(204, '');
      expect((await h.as().get(`/v1/tags/${tagId}`)).body.data.subscriber_count).toBe(0);
      const res = await h.as().get(`/v1/subscribers/${victim.id}`).expect(404);
      expect(res.body.error).toMatchObject({ type: 'not_found', code: 'subscriber_not_found' });
    });
  });

  describe('email identity (ASCII local part, ASCII domain)', () => {
    it('refuses a local part that is not ASCII (upsert and PATCH), and the email filter finds nothing for one', async () => {
      for (const email of ['Jose\u0301@example.com', 'jos\u00e9@EXAMPLE.com']) {
        const refused = await upsert({ email, name: 'José' }).expect(400);
        expect(refused.body.error).toMatchObject({ code: 'invalid_email', details: { field: 'email' } });
      }
      const other = (await upsert({ email: 'not-jose@example.com' }).expect(201)).body.data;
      const patched = await h.as().patch(`/v1/subscribers/${other.id}`).send({ email: 'jos\u00e9@example.com' }).expect(400);
      expect(patched.body.error.code).toBe('invalid_email');
      const found = await h
        .as()
        .get(`/v1/subscribers?email=${encodeURIComponent('jos\u00e9@example.com')}`)
        .expect(200);
      expect(found.body.data).toEqual([]);
    });

    it('a ü domain and its xn-- form are one subscriber: upsert, PATCH and the email filter', async () => {
      const created = (await upsert({ email: 'Anna@M\u00fcller.de' }).expect(201)).body.data;
      expect(created.email).toBe('anna@xn--mller-kva.de');
      expect((await upsert({ email: 'anna@XN--MLLER-KVA.DE' }).expect(200)).body.data.id).toBe(created.id);
      expect((await upsert({ email: 'anna@mu\u0308ller.de' }).expect(200)).body.data.id).toBe(created.id);
      for (const email of ['anna@m\u00fcller.de', 'anna@xn--mller-kva.de']) {
        const found = await h
          .as()
          .get(`/v1/subscribers?email=${encodeURIComponent(email)}`)
          .expect(200);
        expect({ email, ids: found.body.data.map((s: { id: string }) => s.id) }).toEqual({ email, ids: [created.id] });
      }
      const other = (await upsert({ email: 'bert@m\u00fcller.de' }).expect(201)).body.data;
      await h.as().patch(`/v1/subscribers/${other.id}`).send({ email: 'ANNA@m\u00fcller.de' }).expect(409);
      const moved = await h.as().patch(`/v1/subscribers/${other.id}`).send({ email: 'bert@\u00e9cole.fr' }).expect(200);
      expect(moved.body.data.email).toBe('bert@xn--cole-9oa.fr');
    });
  });

  describe('tenancy and scopes', () => {
    it('never shows another workspace its subscribers', async () => {
      const mine = (await upsert({ email: 'private@example.com' }).expect(201)).body.data.id;
      const other = await h.newWorkspace();
      await h.as(other.api_key).get(`/v1/subscribers/${mine}`).expect(404);
      await h.as(other.api_key).patch(`/v1/subscribers/${mine}`).send({ name: 'x' }).expect(404);
      await h.as(other.api_key).delete(`/v1/subscribers/${mine}`).expect(404);
      const list = await h.as(other.api_key).get('/v1/subscribers').expect(200);
      expect(list.body.data).toEqual([]);
      await h.as(other.api_key).post('/v1/subscribers').send({ email: 'private@example.com' }).expect(201);
    });

    it('403 with recovery fields when scopes are missing; 401 without a key', async () => {
      const readOnly = await h.keyWith(['subscribers:read']);
      const res = await h.as(readOnly).post('/v1/subscribers').send({ email: 'x@example.com' }).expect(403);
      expect(res.body.error).toMatchObject({
        type: 'permission_error',
        code: 'insufficient_scope',
        required_scopes: ['live_actions:write', 'subscribers:write'],
        missing_scopes: ['live_actions:write', 'subscribers:write'],
        credential_type: 'workspace_api_key',
      });
      await h.as(readOnly).get('/v1/subscribers').expect(200);
      await h.as('mrk_bogus_key_000000000000').get('/v1/subscribers').expect(401);
    });
  });

  describe('GET /v1/subscribers', () => {
    // A second workspace in the same app, so these lists start empty.
    let other: { workspaceId: string; as: () => ReturnType<EmailApiHarness['as']> };
    beforeAll(async () => {
      const workspace = await h.newWorkspace('Lists');
      other = { workspaceId: workspace.workspace_id, as: () => h.as(workspace.api_key) };
      for (let i = 0; i < 7; i++) {
        await other
          .as()
          .post('/v1/subscribers')
          .send({ email: `list${i}@example.com`, name: `List ${i}`, status: i % 2 ? 'Unsubscribed' : 'Active' })
          .expect(201);
      }
    });

    it('pages newest first with cursors until has_more is false', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { body: { data: Array<{ email: string }>; pagination: { has_more: boolean; next_cursor: string | null } } } = await other
          .as()
          .get(`/v1/subscribers?limit=3${cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ''}`)
          .expect(200);
        seen.push(...res.body.data.map((s) => s.email));
        cursor = res.body.pagination.next_cursor;
        expect(res.body.pagination.has_more).toBe(cursor !== null);
      } while (cursor);
      expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `list${i}@example.com`));
    });

    it('filters by status, email, search, tags and sequences', async () => {
      const active = await other.as().get('/v1/subscribers?status=Active').expect(200);
      expect(active.body.data).toHaveLength(4);
      const exact = await other.as().get('/v1/subscribers?email=LIST3@example.com').expect(200);
      expect(exact.body.data.map((s: { email: string }) => s.email)).toEqual(['list3@example.com']);
      const search = await other.as().get('/v1/subscribers?search=List%205').expect(200);
      expect(search.body.data).toHaveLength(1);
      const tagged = (
        await other
          .as()
          .post('/v1/subscribers')
          .send({ email: 'list1@example.com', new_tags: ['Filter'] })
          .expect(200)
      ).body.data;
      const tagId = tagged.tags[0].id;
      expect((await other.as().get(`/v1/subscribers?tag_id=${tagId}`).expect(200)).body.data).toHaveLength(1);
      expect((await other.as().get(`/v1/subscribers?tag_ids=${tagId}&tag_operator=has_none_of`).expect(200)).body.data).toHaveLength(6);
      await prisma.sequence.create({ data: { id: 'seq_f', workspace_id: other.workspaceId, name: 'F' } });
      await other.as().put(`/v1/subscribers/${tagged.id}/sequences/seq_f`).expect(200);
      expect((await other.as().get('/v1/subscribers?sequence_id=seq_f').expect(200)).body.data).toHaveLength(1);
      expect((await other.as().get('/v1/subscribers?sequence_ids=seq_f&sequence_operator=has_never_been_in_any_of').expect(200)).body.data).toHaveLength(6);
      expect((await other.as().get('/v1/subscribers?cold_only=true').expect(200)).body.data).toHaveLength(0);
    });

    it('rejects bad list parameters with 400s naming them', async () => {
      const cases: Array<[string, string]> = [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['starting_after=forged', 'starting_after'],
        ['status=Nope', 'status'],
        ['tag_operator=all', 'tag_operator'],
        ['cold_only=yes', 'cold_only'],
        ['starting_after=a&cursor=b', 'cursor'],
      ];
      for (const [query, field] of cases) {
        const res = await other.as().get(`/v1/subscribers?${query}`);
        expect({ query, status: res.status, field: res.body.error?.details?.field }).toEqual({ query, status: 400, field });
      }
    });

    it('has_more is false on an exactly full last page and true only when another row follows', async () => {
      const as = h.as((await h.newWorkspace('Exact pages')).api_key);
      await expectExactPages(as, '/v1/subscribers', (i) =>
        as
          .post('/v1/subscribers')
          .send({ email: `exact${i}@example.com` })
          .expect(201),
      );
      await expectExactPages(as, '/v1/subscribers?status=Unsubscribed', (i) =>
        as
          .post('/v1/subscribers')
          .send({ email: `exact-unsub${i}@example.com`, status: 'Unsubscribed' })
          .expect(201),
      );
    });

    it('cold_only counts 90 days back from the service clock', async () => {
      const clock = h.app.get(Clock);
      const now = clock.now();
      const at = (days: number) => jest.spyOn(clock, 'now').mockReturnValue(new Date(now.getTime() + days * 86_400_000));
      try {
        at(89);
        expect((await other.as().get('/v1/subscribers?cold_only=true').expect(200)).body.data).toHaveLength(0);
        at(91);
        expect((await other.as().get('/v1/subscribers?cold_only=true').expect(200)).body.data).toHaveLength(7);
      } finally {
        jest.restoreAllMocks();
      }
    });

    it('rejects a cursor from another workspace', async () => {
      const page = await other.as().get('/v1/subscribers?limit=1').expect(200);
      const res = await h
        .as()
        .get(`/v1/subscribers?starting_after=${encodeURIComponent(page.body.pagination.next_cursor)}`)
        .expect(400);
      expect(res.body.error.code).toBe('invalid_cursor');
    });
  });
});
