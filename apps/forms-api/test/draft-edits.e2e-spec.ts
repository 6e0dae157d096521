import { formsApi, FormsApiHarness } from './helpers';

interface Draft {
  steps: { id: string; title: string; fields: { id: string; type: string; label: string; options?: { value: string }[] }[] }[];
  workflow: { rules: { id: string; stepId: string; conditions: { subject: { fieldId?: string } }[]; target?: unknown }[]; fallbacks: Record<string, unknown> };
  theme: Record<string, unknown>;
}

/** A three-step draft whose first step branches on a choice and routes past the second step. */
const branchingDraft = () => ({
  settings: { name: 'Branching', submissions: { thankYouScreens: [{ id: 'tys_vip', title: 'Welcome, VIP' }] } },
  steps: [
    {
      id: 'stp_1',
      title: 'Start',
      fields: [
        { id: 'fld_kind', type: 'single_choice', label: 'Kind', options: [{ label: 'Person' }, { label: 'Company' }] },
        { id: 'fld_note', type: 'text', label: 'Note' },
      ],
    },
    { id: 'stp_2', title: 'Company details', fields: [{ id: 'fld_company', type: 'text', label: 'Company name' }] },
    { id: 'stp_3', title: 'Finish', fields: [{ id: 'fld_email', type: 'email', label: 'Email' }] },
  ],
  workflow: {
    enabled: true,
    rules: [
      {
        id: 'rul_person',
        stepId: 'stp_1',
        match: 'all',
        conditions: [{ id: 'cnd_1', subject: { type: 'field', fieldId: 'fld_kind' }, operator: 'equals', value: 'Person' }],
        actions: [],
        target: { type: 'step', stepId: 'stp_3' },
      },
    ],
  },
});

describe('forms-api: steps, fields, logic and design', () => {
  let api: FormsApiHarness;
  let formId: string;

  beforeAll(async () => {
    api = await formsApi();
  });
  afterAll(() => api?.close());

  beforeEach(async () => {
    const res = await api.as().post('/api/v1/forms').send({ draftSchema: branchingDraft() }).expect(201);
    formId = res.body.data.id;
  });

  const draft = async (): Promise<Draft> => (await api.as().get(`/api/v1/forms/${formId}`).expect(200)).body.draft_schema;
  const path = (suffix: string) => `/api/v1/forms/${formId}${suffix}`;

  describe('steps', () => {
    it('appends a step, or inserts it at position / index', async () => {
      const appended = await api.as().post(path('/steps')).send({ title: 'Appended', draft_revision: 0 }).expect(201);
      expect(Object.keys(appended.body).sort()).toEqual(['draft_revision', 'draft_updated_at', 'step']);
      expect(appended.body).toMatchObject({ draft_revision: 1, step: { id: expect.stringMatching(/^stp_/), title: 'Appended', fields: [] } });
      await api.as().post(path('/steps')).send({ title: 'First', position: 0 }).expect(201);
      await api
        .as()
        .post(path('/steps'))
        .send({ title: 'Second', index: 1, fields: [{ type: 'number', label: 'Age' }] })
        .expect(201);
      const titles = (await draft()).steps.map((s) => s.title);
      expect(titles).toEqual(['First', 'Second', 'Start', 'Company details', 'Finish', 'Appended']);
    });

    it('400 for a bad position or bad fields; 409 for a stale revision', async () => {
      const bad = await api.as().post(path('/steps')).send({ title: 'x', position: -1 }).expect(400);
      expect(bad.body.error.details.field).toBe('position');
      const badField = await api
        .as()
        .post(path('/steps'))
        .send({ title: 'x', fields: [{ type: 'rating', label: 'R', max: 99 }] })
        .expect(400);
      expect(badField.body.error.details.field).toMatch(/^fields\[0\]/);
      const stale = await api.as().post(path('/steps')).send({ title: 'x', draft_revision: 7 }).expect(409);
      expect(stale.body.error).toMatchObject({ code: 'stale_draft_revision', current_draft_revision: 0 });
      expect((await draft()).steps).toHaveLength(3);
    });

    it('updates a step title; id and fields cannot be patched; unknown step is a 404', async () => {
      const res = await api.as().patch(path('/steps/stp_2')).send({ title: 'Organisation', draft_revision: 0 }).expect(200);
      expect(res.body).toMatchObject({ draft_revision: 1, step: { id: 'stp_2', title: 'Organisation' } });
      for (const key of ['id', 'fields']) {
        const rejected = await api
          .as()
          .patch(path('/steps/stp_2'))
          .send({ [key]: key === 'id' ? 'stp_x' : [] })
          .expect(400);
        expect(rejected.body.error.details.field).toBe(key);
      }
      const missing = await api.as().patch(path('/steps/stp_nope')).send({ title: 'x' }).expect(404);
      expect(missing.body.error.code).toBe('step_not_found');
    });

    it('deletes a step and cleans up workflow references to it and its fields', async () => {
      const res = await api.as().delete(path('/steps/stp_3')).expect(200);
      expect(res.body).toMatchObject({ ok: true, deleted_step_id: 'stp_3', draft_revision: 1, draft_updated_at: expect.any(Number) });
      const after = await draft();
      expect(after.steps.map((s) => s.id)).toEqual(['stp_1', 'stp_2']);
      expect(JSON.stringify(after.workflow)).not.toContain('stp_3');
      await api.as().delete(path('/steps/stp_3')).expect(404);
    });

    it('DELETE takes draft_revision and force from the query string', async () => {
      const stale = await api.as().delete(path('/steps/stp_2?draft_revision=5')).expect(409);
      expect(stale.body.error).toMatchObject({ code: 'stale_draft_revision', current_draft_revision: 0 });
      for (const bad of ['', 'abc', '1e3', '-1']) {
        const res = await api
          .as()
          .delete(path(`/steps/stp_2?draft_revision=${bad}`))
          .expect(400);
        expect(res.body.error.details.field).toBe('draft_revision');
      }
      await api.as().delete(path('/fields/fld_note?force=maybe')).expect(400);
      await api.as().delete(path('/steps/stp_2?draft_revision=5&force=true')).expect(200);
      const res = await api.as().delete(path('/fields/fld_note?draft_revision=1')).expect(200);
      expect(res.body).toMatchObject({ deleted_field_id: 'fld_note', draft_revision: 2 });
    });

    it('DELETE takes the guard from a JSON body too, and refuses anything else in either place', async () => {
      const stale = await api.as().delete(path('/steps/stp_2')).send({ draft_revision: 5 }).expect(409);
      expect(stale.body.error).toMatchObject({ code: 'stale_draft_revision', current_draft_revision: 0 });
      for (const [request, field] of [
        [api.as().delete(path('/steps/stp_2?draft_revision=0')).send({ draft_revision: 1 }), 'draft_revision'],
        [api.as().delete(path('/steps/stp_2')).send({ draft_revision: 0, title: 'x' }), 'title'],
        [api.as().delete(path('/fields/fld_note?bogus=1')), 'bogus'],
      ] as const) {
        const refused = await request.expect(400);
        expect(refused.body.error).toMatchObject({ code: 'validation_failed', details: { field } });
      }
      expect((await draft()).steps.map((step) => step.id)).toContain('stp_2');
      const res = await api.as().delete(path('/steps/stp_2')).send({ draft_revision: 0 }).expect(200);
      expect(res.body).toMatchObject({ deleted_step_id: 'stp_2', draft_revision: 1 });
    });

    it('deleting the step a rule belongs to removes the rule', async () => {
      await api.as().delete(path('/steps/stp_1')).expect(200);
      expect((await draft()).workflow.rules).toEqual([]);
    });

    it('the form keeps at least one step', async () => {
      await api.as().delete(path('/steps/stp_2')).expect(200);
      await api.as().delete(path('/steps/stp_3')).expect(200);
      const res = await api.as().delete(path('/steps/stp_1')).expect(400);
      expect(res.body.error.code).toBe('last_step');
      expect((await draft()).steps).toHaveLength(1);
    });

    it('reorders with the complete id list only', async () => {
      const res = await api
        .as()
        .post(path('/steps/reorder'))
        .send({ step_ids: ['stp_3', 'stp_1', 'stp_2'], draft_revision: 0 })
        .expect(200);
      expect(res.body).toEqual({
        steps: [
          { id: 'stp_3', position: 0 },
          { id: 'stp_1', position: 1 },
          { id: 'stp_2', position: 2 },
        ],
        draft_revision: 1,
        draft_updated_at: expect.any(Number),
      });
      for (const ids of [
        ['stp_1', 'stp_2'],
        ['stp_1', 'stp_2', 'stp_2'],
        ['stp_1', 'stp_2', 'stp_x'],
      ]) {
        const bad = await api.as().post(path('/steps/reorder')).send({ step_ids: ids }).expect(400);
        expect(bad.body.error.details.field).toBe('step_ids');
      }
      await api.as().post(path('/steps/reorder')).send({}).expect(400);
    });

    it('moves one step', async () => {
      await api.as().post(path('/steps/stp_3/move')).send({ position: 0 }).expect(200);
      expect((await draft()).steps.map((s) => s.id)).toEqual(['stp_3', 'stp_1', 'stp_2']);
    });
  });

  describe('fields', () => {
    it('adds a field at an index and returns it with its id', async () => {
      const res = await api
        .as()
        .post(path('/steps/stp_1/fields'))
        .send({ type: 'email', label: 'Work email', required: true, placeholder: 'you@company.com', index: 0 })
        .expect(201);
      expect(Object.keys(res.body).sort()).toEqual(['draft_revision', 'draft_updated_at', 'field']);
      expect(res.body.field).toMatchObject({
        id: expect.stringMatching(/^fld_/),
        type: 'email',
        label: 'Work email',
        required: true,
        placeholder: 'you@company.com',
      });
      expect((await draft()).steps[0].fields.map((f) => f.id)).toEqual([res.body.field.id, 'fld_kind', 'fld_note']);
    });

    it('400 for an unknown type or bad type-specific property; 404 for an unknown step', async () => {
      const unknown = await api.as().post(path('/steps/stp_1/fields')).send({ type: 'hologram', label: 'x' }).expect(400);
      expect(unknown.body.error.details.field).toBe('type');
      const choice = await api.as().post(path('/steps/stp_1/fields')).send({ type: 'dropdown', label: 'x', options: 'a,b' }).expect(400);
      expect(choice.body.error.details.field).toBe('options');
      await api.as().post(path('/steps/stp_x/fields')).send({ type: 'text', label: 'x' }).expect(404);
    });

    it('updates a field; the id cannot change', async () => {
      const res = await api.as().patch(path('/fields/fld_note')).send({ label: 'Anything else?', type: 'long_text', maxLength: 2000 }).expect(200);
      expect(res.body.field).toMatchObject({ id: 'fld_note', type: 'long_text', label: 'Anything else?', maxLength: 2000 });
      const bad = await api.as().patch(path('/fields/fld_note')).send({ id: 'fld_other' }).expect(400);
      expect(bad.body.error.details.field).toBe('id');
      const missing = await api.as().patch(path('/fields/fld_nope')).send({ label: 'x' }).expect(404);
      expect(missing.body.error.code).toBe('field_not_found');
    });

    it('deleting a field removes the conditions that read it', async () => {
      const res = await api.as().delete(path('/fields/fld_kind')).expect(200);
      expect(res.body).toMatchObject({ ok: true, deleted_field_id: 'fld_kind', draft_revision: 1 });
      const after = await draft();
      expect(after.steps[0].fields.map((f) => f.id)).toEqual(['fld_note']);
      expect(JSON.stringify(after.workflow)).not.toContain('fld_kind');
    });

    it('409 when a field change would break a rule that reads the field', async () => {
      const res = await api.as().patch(path('/fields/fld_kind')).send({ type: 'number' }).expect(409);
      expect(res.body.error).toMatchObject({ type: 'conflict', details: { field: expect.stringMatching(/^draftSchema\.workflow\.rules\[0\]/) } });
      expect(res.body.error.issues.length).toBeGreaterThan(0);
      expect((await draft()).steps[0].fields[0].type).toBe('single_choice');
    });

    it('reorders the fields of a step with the complete list', async () => {
      const res = await api
        .as()
        .post(path('/steps/stp_1/fields/reorder'))
        .send({ field_ids: ['fld_note', 'fld_kind'] })
        .expect(200);
      expect(res.body.fields).toEqual([
        { id: 'fld_note', position: 0 },
        { id: 'fld_kind', position: 1 },
      ]);
      const bad = await api
        .as()
        .post(path('/steps/stp_1/fields/reorder'))
        .send({ field_ids: ['fld_note'] })
        .expect(400);
      expect(bad.body.error.details.field).toBe('field_ids');
    });

    it('moves a field into another step', async () => {
      await api.as().post(path('/fields/fld_note/move')).send({ stepId: 'stp_3', position: 1 }).expect(200);
      const after = await draft();
      expect(after.steps[0].fields.map((f) => f.id)).toEqual(['fld_kind']);
      expect(after.steps[2].fields.map((f) => f.id)).toEqual(['fld_email', 'fld_note']);
    });
  });

  describe('logic', () => {
    const rule = { match: 'all', conditions: [{ subject: { type: 'field', fieldId: 'fld_note' }, operator: 'is_not_empty' }], actions: [], target: 'end' };

    it.each([
      ['end', { type: 'end' }],
      ['stp_3', { type: 'step', stepId: 'stp_3' }],
      ['thank_you:tys_vip', { type: 'thank_you', screenId: 'tys_vip' }],
      [{ type: 'end' }, { type: 'end' }],
      [
        { type: 'step', stepId: 'stp_3' },
        { type: 'step', stepId: 'stp_3' },
      ],
      [
        { type: 'thank_you', screenId: 'tys_vip' },
        { type: 'thank_you', screenId: 'tys_vip' },
      ],
    ])('accepts fallbackTarget %j', async (fallbackTarget, normalized) => {
      const res = await api
        .as()
        .put(path('/steps/stp_2/logic'))
        .send({ rules: [rule], fallbackTarget })
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['draft_revision', 'draft_updated_at', 'logic']);
      expect(res.body.logic).toMatchObject({ stepId: 'stp_2', fallbackTarget: normalized, rules: [{ stepId: 'stp_2', target: { type: 'end' } }] });
      expect((await draft()).workflow.fallbacks.stp_2).toEqual(normalized);
    });

    it('null removes the fallback; the rules of other steps stay', async () => {
      await api.as().put(path('/steps/stp_2/logic')).send({ rules: [], fallbackTarget: 'end' }).expect(200);
      const res = await api.as().put(path('/steps/stp_2/logic')).send({ rules: [], fallbackTarget: null }).expect(200);
      expect(res.body.logic).toEqual({ stepId: 'stp_2', rules: [], fallbackTarget: null });
      const after = await draft();
      expect(after.workflow.fallbacks).toEqual({});
      expect(after.workflow.rules.map((r) => r.id)).toEqual(['rul_person']);
    });

    it('400 for a target or condition that points nowhere; rules are required', async () => {
      const target = await api.as().put(path('/steps/stp_2/logic')).send({ rules: [], fallbackTarget: 'stp_missing' }).expect(400);
      expect(target.body.error.details.field).toBe('fallbackTarget');
      const condition = await api
        .as()
        .put(path('/steps/stp_2/logic'))
        .send({ rules: [{ ...rule, conditions: [{ subject: { type: 'field', fieldId: 'fld_missing' }, operator: 'equals', value: 'x' }] }] })
        .expect(400);
      expect(condition.body.error.details.field).toMatch(/^rules\[0\]\.conditions\[0\]/);
      const missing = await api.as().put(path('/steps/stp_2/logic')).send({ fallbackTarget: 'end' }).expect(400);
      expect(missing.body.error.details.field).toBe('rules');
      await api.as().put(path('/steps/stp_x/logic')).send({ rules: [] }).expect(404);
    });
  });

  describe('design', () => {
    it('merges the theme', async () => {
      const res = await api
        .as()
        .patch(path('/design'))
        .send({ theme: { primaryColor: '#ff0066', background: { value: '#101010' } }, draft_revision: 0 })
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['draft_revision', 'draft_updated_at', 'theme']);
      expect(res.body.theme).toMatchObject({ primaryColor: '#ff0066', background: { type: 'color', value: '#101010' } });
      expect((await draft()).theme).toEqual(res.body.theme);
    });

    it('400 names the bad theme property; theme is required', async () => {
      const res = await api
        .as()
        .patch(path('/design'))
        .send({ theme: { primaryColor: 'red; background: url(x)' } })
        .expect(400);
      expect(res.body.error.details.field).toBe('theme.primaryColor');
      await api.as().patch(path('/design')).send({}).expect(400);
    });
  });

  it('each edit needs its own scope', async () => {
    const fieldsOnly = await api.keyWith(api.main.ownerId, ['forms:read', 'forms:fields:write']);
    const res = await api.as(fieldsOnly).post(path('/steps')).send({ title: 'x' }).expect(403);
    expect(res.body.error.missing_scopes).toEqual(['forms:steps:write']);
    await api.as(fieldsOnly).patch(path('/design')).send({ theme: {} }).expect(403);
    await api.as(fieldsOnly).put(path('/steps/stp_1/logic')).send({ rules: [] }).expect(403);
    await api.as(fieldsOnly).post(path('/steps/stp_1/fields')).send({ type: 'text', label: 'ok' }).expect(201);
  });
});
