import { Account, formsApi, FormsApiHarness, twoStepDraft } from './helpers';

const SUMMARY_KEYS = [
  'draft_revision',
  'draft_updated_at',
  'id',
  'public_id',
  'public_url',
  'published_at',
  'published_version',
  'responses_count',
  'status',
  'title',
  'workspace_id',
];

describe('forms-api: forms, drafts and revisions', () => {
  let api: FormsApiHarness;
  let other: Account;

  beforeAll(async () => {
    api = await formsApi({ FORMS_PUBLIC_BASE_URL: 'https://forms.example.test' });
    other = await api.newAccount('other@example.com');
  });
  afterAll(() => api?.close());

  const create = (body: object = { draftSchema: twoStepDraft() }, key?: string) => api.as(key).post('/api/v1/forms').send(body);

  describe('POST /api/v1/forms', () => {
    it('creates a draft form whose title comes from settings.name', async () => {
      const res = await create({ title: 'Ignored', draftSchema: twoStepDraft('Customer Intake') }).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'draft_schema', 'published_schema']);
      expect(Object.keys(res.body.data).sort()).toEqual(SUMMARY_KEYS);
      expect(res.body.data).toMatchObject({
        id: expect.stringMatching(/^frm_[0-9A-HJKMNP-TV-Z]{26}$/),
        workspace_id: api.main.workspaceId,
        title: 'Customer Intake',
        status: 'draft',
        draft_revision: 0,
        published_version: 0,
        published_at: null,
        public_id: expect.stringMatching(/^pub_/),
        responses_count: 0,
      });
      expect(res.body.data.public_url).toBe(`https://forms.example.test/f/${res.body.data.public_id}`);
      expect(Number.isInteger(res.body.data.draft_updated_at)).toBe(true);
      expect(Math.abs(res.body.data.draft_updated_at - Date.now() / 1000)).toBeLessThan(60);
      expect(res.body.published_schema).toBeNull();
      expect(res.body.draft_schema.steps.map((s: { id: string }) => s.id)).toEqual(['stp_about', 'stp_contact']);
    });

    // A public id that follows from the form id (the next ULID) would reveal the form id and its creation time.
    it('gives each form a random public id that shares nothing with its form id', async () => {
      const made = await Promise.all(Array.from({ length: 8 }, () => create({}).expect(201)));
      for (const { body } of made) {
        const { id, public_id: publicId } = body.data as { id: string; public_id: string };
        expect(publicId).toMatch(/^pub_[0-9a-z]{22}$/);
        const formUlid = id.slice('frm_'.length).toLowerCase();
        const publicPart = publicId.slice('pub_'.length);
        // A ULID starts with 10 characters of timestamp: a public id made at the same time must not share them.
        expect(publicPart.slice(0, 6)).not.toBe(formUlid.slice(0, 6));
        expect(publicPart).not.toContain(formUlid.slice(10, 20));
      }
      expect(new Set(made.map(({ body }) => body.data.public_id)).size).toBe(made.length);
    });

    it('uses the title, or a default, and starts with one empty step', async () => {
      const titled = await create({ title: 'Feedback' }).expect(201);
      expect(titled.body.data.title).toBe('Feedback');
      expect(titled.body.draft_schema.settings.name).toBe('Feedback');
      expect(titled.body.draft_schema.steps).toHaveLength(1);
      const untitled = await create({}).expect(201);
      expect(untitled.body.data.title).toBe('Untitled form');
    });

    it('rejects an invalid draft with 400 naming the path, and writes nothing', async () => {
      const before = await api.as().get('/api/v1/forms?limit=100').expect(200);
      const res = await create({ draftSchema: { steps: [{ title: 'A', fields: [{ type: 'no_such_type', label: 'X' }] }] } }).expect(400);
      expect(res.body.error).toMatchObject({
        type: 'invalid_request',
        code: 'invalid_draft_schema',
        details: { field: expect.stringMatching(/^draftSchema\.steps\[0\]\.fields\[0\]/) },
      });
      expect(res.body.error.issues.length).toBeGreaterThan(0);
      const after = await api.as().get('/api/v1/forms?limit=100').expect(200);
      expect(after.body.data).toHaveLength(before.body.data.length);
    });

    it('rejects a body that is not the documented shape', async () => {
      const res = await create({ draftSchema: 'nope' }).expect(400);
      expect(res.body.error.details.field).toBe('draftSchema');
      const unknown = await create({ titel: 'typo' }).expect(400);
      expect(unknown.body.error.details.field).toBe('titel');
    });

    it('needs workspaceId when the account can create in several workspaces; 404 for one it cannot reach', async () => {
      const account = await api.newAccount('multi@example.com');
      const second = await api.accounts.createWorkspace(account.ownerId, { name: 'Second' });
      const ambiguous = await create({ title: 'x' }, account.key).expect(400);
      expect(ambiguous.body.error).toMatchObject({ code: 'workspace_required', details: { field: 'workspaceId' } });
      const chosen = await create({ title: 'x', workspaceId: second.workspace_id }, account.key).expect(201);
      expect(chosen.body.data.workspace_id).toBe(second.workspace_id);
      const aliased = await create({ title: 'x', workspace_id: second.workspace_id }, account.key).expect(201);
      expect(aliased.body.data.workspace_id).toBe(second.workspace_id);
      const foreign = await create({ title: 'x', workspaceId: api.main.workspaceId }, account.key).expect(404);
      expect(foreign.body.error.code).toBe('workspace_not_found');
      for (const [body, field] of [
        [{ workspaceId: account.workspaceId, workspace_id: second.workspace_id }, 'workspace_id'],
        [{ workspaceId: '' }, 'workspaceId'],
        [{ workspace_id: '  ' }, 'workspace_id'],
      ] as const) {
        const refused = await create({ title: 'x', ...body }, account.key).expect(400);
        expect(refused.body.error).toMatchObject({ code: 'validation_failed', details: { field } });
      }
      const listed = await api.as(account.key).get(`/api/v1/forms?workspaceId=${account.workspaceId}&workspace_id=${second.workspace_id}`).expect(400);
      expect(listed.body.error.details.field).toBe('workspace_id');
    });

    it('takes the default title when settings.name is blank, as when it is missing', async () => {
      const draft = twoStepDraft('x');
      const res = await create({ draftSchema: { ...draft, settings: { ...draft.settings, name: '   ' } } }).expect(201);
      expect(res.body.data.title).toBe('Untitled form');
    });

    it('401 without a key, 403 without forms:create', async () => {
      await create({}, '').expect(401);
      const readOnly = await api.keyWith(api.main.ownerId, ['forms:read']);
      const res = await create({}, readOnly).expect(403);
      expect(res.body.error).toMatchObject({ code: 'insufficient_scope', missing_scopes: ['forms:create'] });
    });

    it('text PostgreSQL cannot store and extreme nesting are 400s naming the member, not 500s', async () => {
      const nul = await create({ title: 'before\u0000after' }).expect(400);
      expect(nul.body.error).toMatchObject({ code: 'invalid_characters', details: { field: 'title' } });
      const surrogate = await create({ draftSchema: { steps: [{ title: 'x\ud800' }] } }).expect(400);
      expect(surrogate.body.error).toMatchObject({ code: 'invalid_characters', details: { field: 'draftSchema.steps[0].title' } });
      const id = await api.as().get('/api/v1/forms/frm_%00').expect(400);
      expect(id.body.error).toMatchObject({ code: 'invalid_characters', details: { field: 'form_id' } });
      let deep: unknown = 'leaf';
      for (let i = 0; i < 100; i++) deep = { a: deep };
      const nested = await create({ draftSchema: deep as object }).expect(400);
      expect(nested.body.error.code).toBe('input_too_deep');
    });

    it('403 no_writable_workspace when every membership is a viewer one', async () => {
      const account = await api.newAccount('viewer-only@example.com');
      await api.accounts.setMembership(account.workspaceId, account.ownerId, 'viewer');
      const res = await create({ title: 'x' }, account.key).expect(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'no_writable_workspace' });
    });

    it('409 when the slug is already used in the workspace', async () => {
      const draft = { ...twoStepDraft('Slugged'), settings: { name: 'Slugged', slug: 'summer-survey' } };
      await create({ draftSchema: draft }).expect(201);
      const res = await create({ draftSchema: draft }).expect(409);
      expect(res.body.error).toMatchObject({ type: 'conflict', code: 'slug_taken', details: { field: 'draftSchema.settings.slug' } });
      // The same slug is free in another workspace.
      await create({ draftSchema: draft }, other.key).expect(201);
    });

    it('a clone does not take the original’s slug, so copying a slugged form works, twice', async () => {
      const draft = { ...twoStepDraft('Cloned'), settings: { name: 'Cloned', slug: 'winter-survey' } };
      const original = (await create({ draftSchema: draft }).expect(201)).body.data.id;
      for (let copy = 0; copy < 2; copy++) {
        const clone = await api.as().post(`/api/v1/forms/${original}/clone`).send({}).expect(201);
        expect(clone.body.draft_schema.settings).toMatchObject({ name: 'Cloned (copy)' });
        expect(clone.body.draft_schema.settings).not.toHaveProperty('slug');
      }
      const kept = await api.as().get(`/api/v1/forms/${original}`).expect(200);
      expect(kept.body.draft_schema.settings.slug).toBe('winter-survey');
    });
  });

  describe('GET /api/v1/forms', () => {
    it("lists the caller's forms, most recently updated first, with next_cursor null", async () => {
      const a = await create({ title: 'List A' }).expect(201);
      const b = await create({ title: 'List B' }).expect(201);
      await api.as().patch(`/api/v1/forms/${a.body.data.id}`).send({ title: 'List A2' }).expect(200);
      const res = await api.as().get('/api/v1/forms').expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'next_cursor']);
      expect(res.body.next_cursor).toBeNull();
      expect(res.body.data.slice(0, 2).map((f: { id: string }) => f.id)).toEqual([a.body.data.id, b.body.data.id]);
      expect(res.body.data.every((f: { workspace_id: string }) => f.workspace_id === api.main.workspaceId)).toBe(true);
    });

    it('defaults to 20, caps at 100 and rejects other limits', async () => {
      for (let i = 0; i < 21; i++) await create({ title: `Bulk ${i}` }).expect(201);
      expect((await api.as().get('/api/v1/forms').expect(200)).body.data).toHaveLength(20);
      expect((await api.as().get('/api/v1/forms?limit=3').expect(200)).body.data).toHaveLength(3);
      for (const bad of ['0', '101', 'abc', '-1']) {
        const res = await api.as().get(`/api/v1/forms?limit=${bad}`).expect(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_limit', details: { field: 'limit' } });
      }
    });

    it('filters by workspace; an inaccessible workspace is a 404', async () => {
      const mine = await api.as().get(`/api/v1/forms?workspaceId=${api.main.workspaceId}&limit=100`).expect(200);
      expect(mine.body.data.length).toBeGreaterThan(0);
      const snake = await api.as().get(`/api/v1/forms?workspace_id=${api.main.workspaceId}&limit=100`).expect(200);
      expect(snake.body.data).toHaveLength(mine.body.data.length);
      const res = await api.as().get(`/api/v1/forms?workspaceId=${other.workspaceId}`).expect(404);
      expect(res.body.error.code).toBe('workspace_not_found');
    });

    it("never shows another account's forms", async () => {
      const theirs = await create({ title: 'Theirs' }, other.key).expect(201);
      const res = await api.as().get('/api/v1/forms?limit=100').expect(200);
      expect(res.body.data.map((f: { id: string }) => f.id)).not.toContain(theirs.body.data.id);
    });
  });

  describe('GET, PATCH, PUT draft, DELETE', () => {
    it('gets a form; 404 for an unknown or foreign id', async () => {
      const created = await create().expect(201);
      const res = await api.as().get(`/api/v1/forms/${created.body.data.id}`).expect(200);
      expect(res.body).toEqual(created.body);
      await api.as().get('/api/v1/forms/frm_unknown').expect(404);
      const foreign = await api.as(other.key).get(`/api/v1/forms/${created.body.data.id}`).expect(404);
      expect(foreign.body.error).toMatchObject({ type: 'not_found', code: 'form_not_found' });
    });

    it('PATCH title bumps the revision; PATCH draftSchema also returns the revision fields', async () => {
      const { body: form } = await create().expect(201);
      const id = form.data.id;
      const titled = await api.as().patch(`/api/v1/forms/${id}`).send({ title: 'Renamed', draft_revision: 0 }).expect(200);
      expect(titled.body.data).toMatchObject({ title: 'Renamed', draft_revision: 1 });
      expect(titled.body.draft_schema.settings.name).toBe('Renamed');
      expect(Object.keys(titled.body).sort()).toEqual(['data', 'draft_schema', 'published_schema']);
      const drafted = await api
        .as()
        .patch(`/api/v1/forms/${id}`)
        .send({ draftSchema: twoStepDraft('From draft'), draft_revision: 1 })
        .expect(200);
      expect(drafted.body).toMatchObject({ draft_revision: 2, draft_updated_at: expect.any(Number), data: { title: 'From draft', draft_revision: 2 } });
    });

    it('a form-encoded PATCH is 415 unsupported_media_type and renames nothing (a cross-site HTML form needs no preflight)', async () => {
      const { body: form } = await create().expect(201);
      const res = await api.as().patch(`/api/v1/forms/${form.data.id}`).type('form').send('title=urlenc');
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 415,
        error: expect.objectContaining({ type: 'invalid_request', code: 'unsupported_media_type' }),
      });
      expect((await api.as().get(`/api/v1/forms/${form.data.id}`).expect(200)).body.data).toEqual(form.data);
    });

    it('409 on a stale draft_revision with the current revision; force skips the check', async () => {
      const { body: form } = await create().expect(201);
      const id = form.data.id;
      await api.as().patch(`/api/v1/forms/${id}`).send({ title: 'One', draft_revision: 0 }).expect(200);
      const stale = await api.as().patch(`/api/v1/forms/${id}`).send({ title: 'Two', draft_revision: 0 }).expect(409);
      expect(stale.body.error).toMatchObject({
        type: 'conflict',
        code: 'stale_draft_revision',
        current_draft_revision: 1,
        details: { field: 'draft_revision' },
      });
      expect((await api.as().get(`/api/v1/forms/${id}`)).body.data.title).toBe('One');
      const forced = await api.as().patch(`/api/v1/forms/${id}`).send({ title: 'Two', draft_revision: 0, force: true }).expect(200);
      expect(forced.body.data).toMatchObject({ title: 'Two', draft_revision: 2 });
    });

    it('two concurrent PATCHes with the same revision: exactly one wins', async () => {
      const { body: form } = await create().expect(201);
      const id = form.data.id;
      const results = await Promise.all(
        ['Left', 'Right', 'Up', 'Down'].map((title) => api.as().patch(`/api/v1/forms/${id}`).send({ title, draft_revision: 0 })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      const winner = results.find((r) => r.status === 200)!;
      const stored = await api.as().get(`/api/v1/forms/${id}`).expect(200);
      expect(stored.body.data).toMatchObject({ title: winner.body.data.title, draft_revision: 1 });
    });

    it('concurrent edits without a revision are all applied: no update is lost', async () => {
      const { body: form } = await create().expect(201);
      const id = form.data.id;
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          api
            .as()
            .post(`/api/v1/forms/${id}/steps`)
            .send({ title: `Added ${i}` }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
      const stored = await api.as().get(`/api/v1/forms/${id}`).expect(200);
      expect(stored.body.data.draft_revision).toBe(8);
      expect(
        stored.body.draft_schema.steps
          .map((s: { title: string }) => s.title)
          .filter((t: string) => t.startsWith('Added'))
          .sort(),
      ).toEqual(Array.from({ length: 8 }, (_, i) => `Added ${i}`));
    });

    it('PUT draft replaces the whole draft and needs draftSchema', async () => {
      const { body: form } = await create().expect(201);
      const id = form.data.id;
      const replaced = await api
        .as()
        .put(`/api/v1/forms/${id}/draft`)
        .send({ draftSchema: { steps: [{ id: 'stp_only', title: 'Only', fields: [] }] }, draft_revision: 0 })
        .expect(200);
      expect(Object.keys(replaced.body).sort()).toEqual(['data', 'draft_revision', 'draft_schema', 'draft_updated_at', 'published_schema']);
      expect(replaced.body.draft_schema.steps.map((s: { id: string }) => s.id)).toEqual(['stp_only']);
      expect(replaced.body.data.title).toBe('Customer Intake');
      const missing = await api.as().put(`/api/v1/forms/${id}/draft`).send({}).expect(400);
      expect(missing.body.error.details.field).toBe('draftSchema');
      const invalid = await api
        .as()
        .put(`/api/v1/forms/${id}/draft`)
        .send({ draftSchema: { steps: [] } })
        .expect(400);
      expect(invalid.body.error.details.field).toMatch(/^draftSchema\.steps/);
    });

    // Validating a large draft holds the event loop for every tenant: its size is refused before it is parsed.
    it('a draft over FORMS_MAX_DRAFT_BYTES (256 KiB) is a 413 draft_too_large naming the limit, on every draft write; nothing is written', async () => {
      const limit = 256 * 1024;
      const { body: form } = await create().expect(201);
      const id = form.data.id;
      // A valid draft of about `bytes` of JSON: 100 choice questions with long option lists.
      const bodyOf = (bytes: number) => {
        const options = (field: number) =>
          Array.from({ length: Math.ceil(bytes / 100 / 70) }, (_, i) => ({ label: `Answer ${field}.${i} ${'x'.repeat(30)}`, value: `a${i}` }));
        const fields = Array.from({ length: 100 }, (_, i) => ({ id: `fld_${i}`, type: 'single_choice', label: `Question ${i}`, options: options(i) }));
        return { draftSchema: { steps: [{ id: 'stp_big', title: 'Big', fields }] }, draft_revision: 0 };
      };
      const over = bodyOf(limit);
      expect(JSON.stringify(over).length).toBeGreaterThan(limit);
      const refusals = [
        await api.as().put(`/api/v1/forms/${id}/draft`).send(over),
        await api.as().patch(`/api/v1/forms/${id}`).send(over),
        await api.as().post(`/api/v1/forms/${id}/publish`).send(over),
        await create({ draftSchema: over.draftSchema }),
      ];
      for (const res of refusals) {
        expect(res.status).toBe(413);
        expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'draft_too_large', details: { field: 'draftSchema' }, max_draft_bytes: limit });
        expect(res.body.error.message).toContain(String(limit));
      }
      const unchanged = await api.as().get(`/api/v1/forms/${id}`).expect(200);
      expect(unchanged.body.data.draft_revision).toBe(0);
      // The limit holds the draft as stored (with the ids minted for its 1,800 options), which can be sent back whole.
      const under = bodyOf(limit / 2);
      const saved = await api.as().put(`/api/v1/forms/${id}/draft`).send(under).expect(200);
      expect(Buffer.byteLength(JSON.stringify(saved.body.draft_schema))).toBeGreaterThan(limit * 0.6);
      await api.as().put(`/api/v1/forms/${id}/draft`).send({ draftSchema: saved.body.draft_schema, draft_revision: 1 }).expect(200);
    });

    it('a custom font round-trips unchanged', async () => {
      const customFont = { family: 'Brand Sans', fileName: 'brand.woff2', assetId: 'ast_123', format: 'woff2', url: 'https://cdn.example.test/brand.woff2' };
      const draft = { ...twoStepDraft(), theme: { fontFamily: 'custom', customFont } };
      const { body } = await create({ draftSchema: draft }).expect(201);
      const read = await api.as().get(`/api/v1/forms/${body.data.id}`).expect(200);
      expect(read.body.draft_schema.theme).toMatchObject({ fontFamily: 'custom', customFont });
    });

    it('DELETE returns ok and id; the form is gone', async () => {
      const { body: form } = await create().expect(201);
      const res = await api.as().delete(`/api/v1/forms/${form.data.id}`).expect(200);
      expect(res.body).toEqual({ ok: true, id: form.data.id });
      await api.as().get(`/api/v1/forms/${form.data.id}`).expect(404);
      await api.as().delete(`/api/v1/forms/${form.data.id}`).expect(404);
      const noScope = await api.keyWith(api.main.ownerId, ['forms:read']);
      const { body: kept } = await create().expect(201);
      await api.as(noScope).delete(`/api/v1/forms/${kept.data.id}`).expect(403);
    });
  });

  describe('workspace roles', () => {
    it("a viewer's key cannot edit even with forms:update, but can read", async () => {
      const viewer = await api.newAccount('viewer@example.com');
      await api.accounts.setMembership(api.main.workspaceId, viewer.ownerId, 'viewer');
      const { body: form } = await create().expect(201);
      const read = await api.as(viewer.key).get(`/api/v1/forms/${form.data.id}`).expect(200);
      expect(read.body.data.id).toBe(form.data.id);
      const res = await api.as(viewer.key).patch(`/api/v1/forms/${form.data.id}`).send({ title: 'Nope' }).expect(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_role', role: 'viewer' });
      await api.as(viewer.key).post(`/api/v1/forms/${form.data.id}/steps`).send({ title: 'x' }).expect(403);
      await api.as(viewer.key).delete(`/api/v1/forms/${form.data.id}`).expect(403);
      const createIn = await create({ title: 'x', workspaceId: api.main.workspaceId }, viewer.key).expect(403);
      expect(createIn.body.error.code).toBe('insufficient_role');
    });

    it('an editor can edit and publish', async () => {
      const editor = await api.newAccount('editor@example.com');
      await api.accounts.setMembership(api.main.workspaceId, editor.ownerId, 'editor');
      const { body: form } = await create().expect(201);
      const res = await api.as(editor.key).patch(`/api/v1/forms/${form.data.id}`).send({ title: 'Edited by editor' }).expect(200);
      expect(res.body.data.title).toBe('Edited by editor');
      await api.as(editor.key).post(`/api/v1/forms/${form.data.id}/publish`).send({}).expect(200);
    });
  });

  describe('publish, draft size and nulls', () => {
    it('publishing with a draftSchema saves the draft, so it needs forms:update too; publishing the saved draft needs forms:publish only', async () => {
      const { body: form } = await create().expect(201);
      const id = form.data.id;
      const publisher = await api.keyWith(api.main.ownerId, ['forms:read', 'forms:publish']);
      const rewrite = { draftSchema: { steps: [{ id: 'stp_new', title: 'New', fields: [{ type: 'text', label: 'Rewritten' }] }] } };
      const refused = await api.as(publisher).post(`/api/v1/forms/${id}/publish`).send(rewrite).expect(403);
      expect(refused.body.error).toMatchObject({
        code: 'insufficient_scope',
        missing_scopes: ['forms:update'],
        required_scopes: ['forms:update', 'forms:publish'],
      });
      const unchanged = await api.as().get(`/api/v1/forms/${id}`).expect(200);
      expect(unchanged.body).toMatchObject({ data: { draft_revision: 0, status: 'draft' }, published_schema: null });
      expect(unchanged.body.draft_schema.steps.map((s: { id: string }) => s.id)).toEqual(['stp_about', 'stp_contact']);

      const published = await api.as(publisher).post(`/api/v1/forms/${id}/publish`).send({ draft_revision: 0 }).expect(200);
      expect(published.body.data).toMatchObject({ status: 'published', published_version: 1 });
      const editor = await api.keyWith(api.main.ownerId, ['forms:read', 'forms:publish', 'forms:update']);
      const rewritten = await api.as(editor).post(`/api/v1/forms/${id}/publish`).send(rewrite).expect(200);
      expect(rewritten.body.published_schema.steps.map((s: { id: string }) => s.id)).toEqual(['stp_new']);
    });

    it('step and field edits cannot grow a draft past FORMS_MAX_DRAFT_BYTES: 413 draft_too_large, nothing written, and the stored draft still round-trips', async () => {
      const limit = 256 * 1024;
      const { body: form } = await create().expect(201);
      const id = form.data.id;
      // A choice field of about `options` KB of JSON: each option's label (and so its value) is about 480 characters.
      const field = (n: number, options: number) => ({
        type: 'single_choice',
        label: `Question ${n}`,
        options: Array.from({ length: options }, (_, i) => ({ label: `${n}.${i} ${'x'.repeat(480)}` })),
      });
      const revision = async () => (await api.as().get(`/api/v1/forms/${id}`).expect(200)).body.data.draft_revision as number;
      // Big fields, then small ones, until one is refused: the draft ends within a small field of the limit.
      let n = 0;
      for (const options of [100, 10]) {
        for (;;) {
          const before = await revision();
          const res = await api.as().post(`/api/v1/forms/${id}/steps/stp_about/fields`).send(field(n++, options));
          if (res.status === 201) continue;
          expect(res.status).toBe(413);
          expect(res.body.error).toMatchObject({ code: 'draft_too_large', details: { field: 'draftSchema' }, max_draft_bytes: limit });
          expect(await revision()).toBe(before);
          break;
        }
      }
      expect(n).toBeGreaterThan(4);
      // 5,000 three-byte characters do not fit in what is left either, whichever edit adds them.
      const before = await revision();
      const description = '€'.repeat(5000);
      const patched = await api.as().patch(`/api/v1/forms/${id}/fields/fld_name`).send({ description }).expect(413);
      expect(patched.body.error.code).toBe('draft_too_large');
      await api.as().patch(`/api/v1/forms/${id}/steps/stp_about`).send({ description }).expect(413);
      expect(await revision()).toBe(before);

      const stored = await api.as().get(`/api/v1/forms/${id}`).expect(200);
      expect(Buffer.byteLength(JSON.stringify(stored.body.draft_schema))).toBeLessThanOrEqual(limit);
      await api
        .as()
        .put(`/api/v1/forms/${id}/draft`)
        .send({ draftSchema: stored.body.draft_schema, draft_revision: stored.body.data.draft_revision })
        .expect(200);
    });

    it('null for an optional member is a 400 naming it, and a bare null body a 400; nothing is written', async () => {
      const { body: form } = await create().expect(201);
      const id = form.data.id;
      const refusals: Array<[string, object | null, string]> = [
        [`PATCH /api/v1/forms/${id}`, { draft_revision: null }, 'draft_revision'],
        [`PATCH /api/v1/forms/${id}`, { force: null }, 'force'],
        [`PATCH /api/v1/forms/${id}`, { draftSchema: null }, 'draftSchema'],
        [`PATCH /api/v1/forms/${id}`, { title: null }, 'title'],
        [`PATCH /api/v1/forms/${id}`, null, 'body'],
        [`PUT /api/v1/forms/${id}/draft`, { draftSchema: twoStepDraft(), draft_revision: null }, 'draft_revision'],
        [`PUT /api/v1/forms/${id}/draft`, null, 'body'],
        [`POST /api/v1/forms/${id}/publish`, { draft_revision: null }, 'draft_revision'],
        [`POST /api/v1/forms/${id}/publish`, { draftSchema: null }, 'draftSchema'],
        [`POST /api/v1/forms/${id}/publish`, null, 'body'],
        ['POST /api/v1/forms', null, 'body'],
      ];
      for (const [route, body, field] of refusals) {
        const [method, path] = route.split(' ');
        const agent = api.as();
        const request = method === 'PATCH' ? agent.patch(path) : method === 'PUT' ? agent.put(path) : agent.post(path);
        const res = await request.set('content-type', 'application/json').send(JSON.stringify(body));
        expect([route, body, res.status, res.body.error?.code, res.body.error?.details?.field]).toEqual([route, body, 400, 'validation_failed', field]);
      }
      const unchanged = await api.as().get(`/api/v1/forms/${id}`).expect(200);
      expect(unchanged.body.data).toMatchObject({ draft_revision: 0, status: 'draft' });
    });
  });
});
