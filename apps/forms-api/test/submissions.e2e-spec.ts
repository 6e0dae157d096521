import request from 'supertest';
import { FormsPrisma } from '@forms/data-access';
import { formsApi, FormsApiHarness } from './helpers';
import { formWithStoredDraft } from './stored-draft.fixture';

/** A quiz-style form: a choice that routes, a rating, a hidden field and a match quiz with two endings. */
const quizDraft = () => ({
  settings: {
    name: 'Plan finder',
    submitButtonLabel: 'See my plan',
    submissions: {
      thankYou: { title: 'Thanks!' },
      thankYouScreens: [
        { id: 'tys_basic', title: 'Basic suits you' },
        { id: 'tys_pro', title: 'Pro suits you', redirectUrl: 'https://example.test/pro' },
      ],
    },
  },
  steps: [
    {
      id: 'stp_team',
      title: 'Your team',
      fields: [
        {
          id: 'fld_size',
          type: 'single_choice',
          label: 'Team size',
          required: true,
          options: [
            { label: 'Just me', value: 'solo' },
            { label: 'Many', value: 'team' },
          ],
        },
        { id: 'fld_source', type: 'hidden', label: 'Source', name: 'utm_source', dataType: 'text' },
      ],
    },
    { id: 'stp_team_details', title: 'Team details', fields: [{ id: 'fld_seats', type: 'number', label: 'Seats', required: true, min: 2 }] },
    {
      id: 'stp_contact',
      title: 'Contact',
      fields: [
        { id: 'fld_email', type: 'email', label: 'Email', required: true },
        { id: 'fld_score', type: 'rating', label: 'How sure are you?' },
      ],
    },
  ],
  workflow: {
    enabled: true,
    rules: [
      {
        id: 'rul_solo',
        stepId: 'stp_team',
        match: 'all',
        conditions: [{ id: 'cnd_solo', subject: { type: 'field', fieldId: 'fld_size' }, operator: 'equals', value: 'solo' }],
        actions: [],
        target: { type: 'step', stepId: 'stp_contact' },
      },
    ],
  },
  quiz: {
    enabled: true,
    type: 'match',
    mode: 'match',
    endings: [
      { id: 'end_basic', screenId: 'tys_basic' },
      { id: 'end_pro', screenId: 'tys_pro' },
    ],
    mappings: [
      { id: 'map_solo', fieldId: 'fld_size', optionValue: 'solo', endingId: 'end_basic', points: 1 },
      { id: 'map_team', fieldId: 'fld_size', optionValue: 'team', endingId: 'end_pro', points: 1 },
    ],
  },
});

describe('forms-api: publish, submissions and the hosted page', () => {
  let api: FormsApiHarness;
  let formId: string;
  let publicId: string;

  beforeAll(async () => {
    api = await formsApi({ FORMS_PUBLIC_BASE_URL: 'https://forms.example.test' });
    const res = await api.as().post('/api/v1/forms').send({ draftSchema: quizDraft() }).expect(201);
    formId = res.body.data.id;
    publicId = res.body.data.public_id;
  });
  afterAll(() => api?.close());

  const submit = (body: object, key?: string) => api.as(key).post(`/api/v1/forms/${formId}/submissions`).send(body);

  describe('publish', () => {
    it('a never-published form takes no submissions (403) and has no hosted page (404)', async () => {
      const res = await submit({ fld_size: 'solo', fld_email: 'a@example.com' }).expect(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'form_not_published' });
      await request(api.app.getHttpServer()).get(`/f/${publicId}`).expect(404);
    });

    it('400 when the draft is not publishable, naming the problem', async () => {
      const { body } = await api
        .as()
        .post('/api/v1/forms')
        .send({ draftSchema: { steps: [{ title: 'A', fields: [{ type: 'dropdown', label: 'Empty', options: [] }] }] } })
        .expect(201);
      const res = await api.as().post(`/api/v1/forms/${body.data.id}/publish`).send({}).expect(400);
      expect(res.body.error).toMatchObject({
        code: 'draft_not_publishable',
        details: { field: expect.stringMatching(/^draftSchema\.steps\[0\]\.fields\[0\]/) },
      });
      expect((await api.as().get(`/api/v1/forms/${body.data.id}`)).body.published_schema).toBeNull();
    });

    it('payment fields need the Pro plan', async () => {
      const draft = { steps: [{ title: 'Pay', fields: [{ type: 'payment', label: 'Pay', currency: 'EUR', amount: { type: 'fixed', value: 1500 } }] }] };
      // Stored as it is: the API would refuse a payment field whose provider the workspace has not connected.
      const formId = await formWithStoredDraft(api, draft);
      const res = await api.as().post(`/api/v1/forms/${formId}/publish`).send({}).expect(400);
      expect(res.body.error.issues.map((i: { code: string }) => i.code)).toContain('payment_requires_pro');
    });

    it('on the Pro plan a payment form publishes, and each submission records the amount the server computed', async () => {
      const pro = await api.accounts.createWorkspace(api.main.ownerId, { name: 'Paid', plan: 'pro' });
      const draft = {
        steps: [
          {
            title: 'Order',
            fields: [
              { id: 'fld_tickets', type: 'number', label: 'Tickets', required: true, min: 1 },
              { id: 'fld_pay', type: 'payment', label: 'Pay', currency: 'EUR', amount: { type: 'field', fieldId: 'fld_tickets' } },
            ],
          },
        ],
      };
      const paid = await formWithStoredDraft(api, draft, pro.workspace_id);
      await api.as().post(`/api/v1/forms/${paid}/publish`).send({}).expect(200);
      // The client cannot price the order: a payment answer is refused, the amount comes from the tickets answer.
      const priced = await api.as().post(`/api/v1/forms/${paid}/submissions`).send({ fld_tickets: 3 }).expect(201);
      expect(priced.body.submission.payments).toEqual([{ fieldId: 'fld_pay', amount: 300, currency: 'EUR', status: 'unpaid' }]);
      const tampered = await api.as().post(`/api/v1/forms/${paid}/submissions`).send({ fld_tickets: 3, fld_pay: 1 }).expect(400);
      expect(tampered.body.error.details.field).toBe('fld_pay');
    });

    it('publishes the draft as an immutable snapshot', async () => {
      const stale = await api.as().post(`/api/v1/forms/${formId}/publish`).send({ draft_revision: 5 }).expect(409);
      expect(stale.body.error.code).toBe('stale_draft_revision');
      const res = await api.as().post(`/api/v1/forms/${formId}/publish`).send({ draft_revision: 0 }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'draft_schema', 'public_url', 'published_at', 'published_schema']);
      expect(res.body.data).toMatchObject({ status: 'published', published_version: 1, draft_revision: 0 });
      expect(res.body.published_at).toBe(res.body.data.published_at);
      expect(res.body.public_url).toBe(`https://forms.example.test/f/${publicId}`);
      expect(res.body.published_schema).toEqual(res.body.draft_schema);

      // Later draft edits do not touch the published snapshot.
      await api.as().patch(`/api/v1/forms/${formId}/steps/stp_contact`).send({ title: 'Changed in draft' }).expect(200);
      const read = await api.as().get(`/api/v1/forms/${formId}`).expect(200);
      expect(read.body.draft_schema.steps[2].title).toBe('Changed in draft');
      expect(read.body.published_schema.steps[2].title).toBe('Contact');
    });

    it('a viewer cannot publish; a key without forms:publish gets 403', async () => {
      const noPublish = await api.keyWith(api.main.ownerId, ['forms:read', 'forms:update']);
      const res = await api.as(noPublish).post(`/api/v1/forms/${formId}/publish`).send({}).expect(403);
      expect(res.body.error.missing_scopes).toEqual(['forms:publish']);
    });
  });

  describe('POST submissions', () => {
    it('accepts a plain field map, routes, scores the quiz and returns the thank-you screen', async () => {
      const res = await submit({ fld_size: 'solo', fld_email: 'Solo@Example.com', fld_score: 4 }).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(['submission', 'thank_you']);
      expect(res.body.thank_you).toMatchObject({ id: 'tys_basic', title: 'Basic suits you' });
      expect(res.body.submission).toMatchObject({
        id: expect.stringMatching(/^sbm_/),
        formId,
        completedStepIds: ['stp_team', 'stp_contact'],
        quiz: { endingId: 'end_basic' },
      });
    });

    it('accepts the wrapper with hidden values and returns redirect_to for a redirecting screen', async () => {
      const res = await submit({
        values: { fld_size: 'team', fld_seats: 12, fld_email: 'team@example.com' },
        hiddenValues: { utm_source: 'newsletter' },
        completedStepIds: ['stp_team', 'stp_team_details', 'stp_contact'],
        analyticsSessionId: 'ses_wrapper_1',
        marketingTrackingAllowed: true,
        viewerCountry: 'de',
      }).expect(201);
      expect(res.body).toMatchObject({ thank_you: { id: 'tys_pro' }, redirect_to: 'https://example.test/pro' });
      const stored = await api.as().get(`/api/v1/forms/${formId}/submissions/${res.body.submission.id}`).expect(200);
      const record = stored.body.data;
      expect(Object.keys(record).sort()).toEqual(['answers', 'answersByFieldId', 'event', 'eventId', 'fields', 'form', 'meta', 'submission']);
      expect(record.answersByFieldId).toEqual({ fld_size: 'team', fld_source: 'newsletter', fld_seats: 12, fld_email: 'team@example.com' });
      expect(record.meta).toMatchObject({
        source: 'api',
        analyticsSessionId: 'ses_wrapper_1',
        marketingTrackingAllowed: true,
        viewerCountry: 'DE',
        hiddenValues: { utm_source: 'newsletter' },
      });
      expect(record.answers.find((a: { fieldId: string }) => a.fieldId === 'fld_size')).toMatchObject({
        label: 'Team size',
        type: 'single_choice',
        value: 'team',
        text: 'Many',
      });
      expect(record.form).toMatchObject({ id: formId, publicId, publishedVersion: 1 });
    });

    it('validates answers against the published fields, naming the field', async () => {
      const email = await submit({ values: { fld_size: 'solo', fld_email: 'not-an-email' } }).expect(400);
      expect(email.body.error.details.field).toBe('values.fld_email');
      const option = await submit({ fld_size: 'enterprise', fld_email: 'a@example.com' }).expect(400);
      expect(option.body.error.details.field).toBe('fld_size');
      const unknown = await submit({ fld_size: 'solo', fld_email: 'a@example.com', fld_made_up: 1 }).expect(400);
      expect(unknown.body.error).toMatchObject({ code: 'unknown_field', details: { field: 'fld_made_up' } });
      const hidden = await submit({ values: { fld_size: 'solo', fld_email: 'a@example.com' }, hiddenValues: { nope: 'x' } }).expect(400);
      expect(hidden.body.error.details.field).toBe('hiddenValues.nope');
      const country = await submit({ values: { fld_size: 'solo', fld_email: 'a@example.com' }, viewerCountry: 'Germany' }).expect(400);
      expect(country.body.error.details.field).toBe('viewerCountry');
    });

    it('requires answers only on the steps the respondent passes through', async () => {
      const missing = await submit({ fld_size: 'team', fld_email: 'a@example.com' }).expect(400);
      expect(missing.body.error).toMatchObject({ code: 'answer_required', details: { field: 'fld_seats' } });
      const noEmail = await submit({ values: { fld_size: 'solo' } }).expect(400);
      expect(noEmail.body.error.details.field).toBe('values.fld_email');
    });

    it('409 for a second submission from the same analytics session', async () => {
      const body = { values: { fld_size: 'solo', fld_email: 'dup@example.com' }, analyticsSessionId: 'ses_dup' };
      await submit(body).expect(201);
      const res = await submit(body).expect(409);
      expect(res.body.error).toMatchObject({ type: 'conflict', code: 'duplicate_submission' });
    });

    it('a viewer key cannot submit; submissions:create is required', async () => {
      const viewer = await api.newAccount('viewer@example.com');
      await api.accounts.setMembership(api.main.workspaceId, viewer.ownerId, 'viewer');
      const res = await submit({ fld_size: 'solo', fld_email: 'v@example.com' }, viewer.key).expect(403);
      expect(res.body.error.code).toBe('insufficient_role');
      const readOnly = await api.keyWith(api.main.ownerId, ['submissions:read']);
      await submit({ fld_size: 'solo', fld_email: 'v@example.com' }, readOnly).expect(403);
      const stranger = await api.newAccount('stranger@example.com');
      await submit({ fld_size: 'solo', fld_email: 'v@example.com' }, stranger.key).expect(404);
      // A viewer may read responses.
      await api.as(viewer.key).get(`/api/v1/forms/${formId}/submissions`).expect(200);
    });
  });

  describe('GET submissions', () => {
    it('lists oldest first with limit and an after bound; counts responses on the form', async () => {
      const all = await api.as().get(`/api/v1/forms/${formId}/submissions?limit=100`).expect(200);
      expect(all.body.next_cursor).toBeNull();
      expect(all.body.data.length).toBeGreaterThanOrEqual(3);
      const times = all.body.data.map((r: { submission: { createdAt: string } }) => r.submission.createdAt);
      expect([...times].sort()).toEqual(times);
      const first = await api.as().get(`/api/v1/forms/${formId}/submissions?limit=1`).expect(200);
      expect(first.body.data).toHaveLength(1);
      const after = await api
        .as()
        .get(`/api/v1/forms/${formId}/submissions?after=${encodeURIComponent(times[0])}&limit=100`)
        .expect(200);
      expect(after.body.data.every((r: { submission: { createdAt: string } }) => r.submission.createdAt > times[0])).toBe(true);
      const form = await api.as().get(`/api/v1/forms/${formId}`).expect(200);
      expect(form.body.data.responses_count).toBe(all.body.data.length);
    });

    it('400 for bad limit or after, or a parameter the list does not have; 404 for unknown submission or foreign form', async () => {
      await api.as().get(`/api/v1/forms/${formId}/submissions?limit=101`).expect(400);
      const after = await api.as().get(`/api/v1/forms/${formId}/submissions?after=yesterday`).expect(400);
      expect(after.body.error.details.field).toBe('after');
      for (const name of ['cursor', 'status']) {
        const unknown = await api.as().get(`/api/v1/forms/${formId}/submissions?${name}=x`).expect(400);
        expect(unknown.body.error.details).toEqual({ field: name, reason: 'unknown_property' });
      }
      const missing = await api.as().get(`/api/v1/forms/${formId}/submissions/sbm_nope`).expect(404);
      expect(missing.body.error.code).toBe('submission_not_found');
      const stranger = await api.newAccount('stranger2@example.com');
      await api.as(stranger.key).get(`/api/v1/forms/${formId}/submissions`).expect(404);
      await api.as('').get(`/api/v1/forms/${formId}/submissions`).expect(401);
    });
  });

  describe('hosted page and public submissions', () => {
    it('serves the published snapshot as a page with a strict CSP and its script', async () => {
      const server = api.app.getHttpServer();
      const page = await request(server).get(`/f/${publicId}`).expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.text).toContain('Plan finder');
      expect(page.text).toContain('Team size');
      const scriptPath = /<script[^>]+src="([^"]+)"/.exec(page.text)?.[1];
      expect(scriptPath).toMatch(/^\/f\/assets\/form\.[0-9a-f]{8}\.js$/);
      const script = await request(server).get(scriptPath!).expect(200);
      expect(script.headers['cache-control']).toContain('immutable');
      // Compressed for clients that accept it (supertest inflates it again), plain otherwise.
      const zipped = await request(server).get(`/f/${publicId}`).set('accept-encoding', 'gzip, br').expect(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.text).toBe(page.text);
      const plain = await request(server).get(`/f/${publicId}`).set('accept-encoding', 'identity').expect(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      expect(plain.text).toBe(page.text);
      const zippedScript = await request(server).get(scriptPath!).set('accept-encoding', 'gzip').expect(200);
      expect(zippedScript.headers['content-encoding']).toBe('gzip');
      expect(zippedScript.text).toBe(script.text);
      await request(server).get('/f/assets/form.00000000.js').expect(404);
      await request(server).get('/f/pub_unknown').expect(404);
    });

    it('republishing invalidates the cached page', async () => {
      const server = api.app.getHttpServer();
      await api.as().patch(`/api/v1/forms/${formId}/fields/fld_size`).send({ label: 'How big is your team?' }).expect(200);
      expect((await request(server).get(`/f/${publicId}`)).text).not.toContain('How big is your team?');
      await api.as().post(`/api/v1/forms/${formId}/publish`).send({}).expect(200);
      expect((await request(server).get(`/f/${publicId}`)).text).toContain('How big is your team?');
    });

    it('accepts public submissions without a key, recorded as hosted_form', async () => {
      const server = api.app.getHttpServer();
      const res = await request(server)
        .post(`/api/public/forms/${publicId}/submissions`)
        .send({ values: { fld_size: 'solo', fld_email: 'pub@example.com' } })
        .expect(201);
      const stored = await api.as().get(`/api/v1/forms/${formId}/submissions/${res.body.submission.id}`).expect(200);
      expect(stored.body.data.meta.source).toBe('hosted_form');
      expect(stored.body.data.form.publishedVersion).toBe(2);
      await request(server).post('/api/public/forms/pub_unknown/submissions').send({}).expect(404);
    });

    it('a form-encoded public submission is 415 unsupported_media_type, not read as answers; nothing is stored', async () => {
      const stored = () => api.app.get(FormsPrisma).formSubmission.count({ where: { form_id: formId } });
      const before = await stored();
      const res = await request(api.app.getHttpServer())
        .post(`/api/public/forms/${publicId}/submissions`)
        .type('form')
        .send('fld_size=solo&fld_email=encoded%40example.com');
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 415,
        error: expect.objectContaining({ type: 'invalid_request', code: 'unsupported_media_type' }),
      });
      expect(await stored()).toBe(before);
    });

    it('a closed form answers 403 and shows a closed page; reopening restores it', async () => {
      const server = api.app.getHttpServer();
      const closed = await api.as().post(`/api/v1/forms/${formId}/close`).send().expect(200);
      expect(closed.body.data.status).toBe('closed');
      const res = await request(server).post(`/api/public/forms/${publicId}/submissions`).send({ fld_size: 'solo', fld_email: 'c@example.com' }).expect(403);
      expect(res.body.error.code).toBe('form_closed');
      await submit({ fld_size: 'solo', fld_email: 'c@example.com' }).expect(403);
      expect((await request(server).get(`/f/${publicId}`)).text).toContain('closed');
      await api.as().post(`/api/v1/forms/${formId}/reopen`).send().expect(200);
      await submit({ fld_size: 'solo', fld_email: 'c@example.com' }).expect(201);
    });

    // Another replica's cache can miss the invalidation message: the database must still refuse the submission.
    it('a form closed or deleted behind the cache (directly in the database) takes no submission, and nothing is stored', async () => {
      const server = api.app.getHttpServer();
      const prisma = api.app.get(FormsPrisma);
      const { body } = await api.as().post('/api/v1/forms').send({ workspaceId: api.main.workspaceId, draftSchema: quizDraft() }).expect(201);
      await api.as().post(`/api/v1/forms/${body.data.id}/publish`).send({}).expect(200);
      const publicSubmit = () =>
        request(server).post(`/api/public/forms/${body.data.public_id}/submissions`).send({ fld_size: 'solo', fld_email: 'late@example.com' });
      await publicSubmit().expect(201);
      const stored = () => prisma.formSubmission.count({ where: { form_id: body.data.id } });
      expect(await stored()).toBe(1);

      await prisma.form.update({ where: { id: body.data.id }, data: { status: 'closed' } });
      for (let i = 0; i < 3; i++) expect((await publicSubmit().expect(403)).body.error).toMatchObject({ type: 'permission_error', code: 'form_closed' });
      await api.as().post(`/api/v1/forms/${body.data.id}/submissions`).send({ fld_size: 'solo', fld_email: 'late@example.com' }).expect(403);
      expect(await stored()).toBe(1);

      await api.as().post(`/api/v1/forms/${body.data.id}/reopen`).send().expect(200);
      await publicSubmit().expect(201);
      await prisma.form.delete({ where: { id: body.data.id } });
      expect((await publicSubmit().expect(404)).body.error).toMatchObject({ type: 'not_found', code: 'form_not_found' });
    });
  });
});
