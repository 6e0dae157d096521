import { EmailPrisma } from '@email/data-access';
import { expectExactPages } from './exact-pages';
import { emailApi, EmailApiHarness } from './helpers';

describe('email-api: tags, custom fields, sender identities', () => {
  let h: EmailApiHarness;
  beforeAll(async () => {
    h = await emailApi();
  });
  afterAll(() => h?.close());

  /** A fresh workspace, so its lists start empty. */
  const freshWorkspace = async () => h.as((await h.newWorkspace('Pages')).api_key);

  describe('tags', () => {
    it('create, get, update, list, delete', async () => {
      const created = await h.as().post('/v1/tags').send({ name: 'Customers', description: 'Paying' }).expect(201);
      const tag = created.body.data;
      expect(tag).toEqual({
        self: `/v1/tags/${tag.id}`,
        id: expect.stringMatching(/^tag_/),
        name: 'Customers',
        description: 'Paying',
        gdpr_consent_purpose: null,
        subscriber_count: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect((await h.as().get(`/v1/tags/${tag.id}`).expect(200)).body.data).toEqual(tag);
      const updated = await h.as().put(`/v1/tags/${tag.id}`).send({ description: null }).expect(200);
      expect(updated.body.data).toMatchObject({ name: 'Customers', description: null });
      const list = await h.as().get('/v1/tags?search=custom').expect(200);
      expect(list.body).toEqual({ data: [expect.objectContaining({ id: tag.id })], pagination: { has_more: false, next_cursor: null } });
      await h.as().delete(`/v1/tags/${tag.id}`).expect(204);
      await h.as().get(`/v1/tags/${tag.id}`).expect(404);
      await h.as().delete(`/v1/tags/${tag.id}`).expect(404);
    });

    it('409 on a duplicate name in any case; 400 on bad bodies', async () => {
      await h.as().post('/v1/tags').send({ name: 'Unique' }).expect(201);
      const dup = await h.as().post('/v1/tags').send({ name: 'UNIQUE' }).expect(409);
      expect(dup.body.error).toMatchObject({ type: 'conflict', code: 'tag_name_taken', details: { field: 'name' } });
      const other = (await h.as().post('/v1/tags').send({ name: 'Other' }).expect(201)).body.data;
      await h.as().put(`/v1/tags/${other.id}`).send({ name: 'unique' }).expect(409);
      for (const [body, field] of [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: ' \t ' }, 'name'],
        [{ name: 'x', double_opt_in: true }, 'double_opt_in'],
        [{ name: 'x', description: 5 }, 'description'],
      ] as const) {
        const res = await h.as().post('/v1/tags').send(body);
        expect({ status: res.status, field: res.body.error?.details?.field }).toEqual({ status: 400, field });
      }
      const empty = await h.as().put(`/v1/tags/${other.id}`).send({}).expect(400);
      expect(empty.body.error.code).toBe('empty_update');
      for (const name of [null, '  ']) {
        const res = await h.as().put(`/v1/tags/${other.id}`).send({ name }).expect(400);
        expect(res.body.error).toMatchObject({ type: 'invalid_request', details: { field: 'name' } });
      }
      expect((await h.as().get(`/v1/tags/${other.id}`).expect(200)).body.data.name).toBe('Other');
    });

    it('has_more is false on an exactly full last page and true only when another row follows', async () => {
      const as = await freshWorkspace();
      await expectExactPages(as, '/v1/tags', (i) =>
        as
          .post('/v1/tags')
          .send({ name: `Paged ${i}` })
          .expect(201),
      );
    });

    it('marks the GDPR consent tags with their purpose', async () => {
      const res = await h.as().post('/v1/tags').send({ name: 'GDPR: Email Marketing' }).expect(201);
      expect(res.body.data.gdpr_consent_purpose).toBe('email_marketing');
    });

    it('keeps subscriber_count exact under concurrent tagging', async () => {
      const tag = (await h.as().post('/v1/tags').send({ name: 'Concurrent' }).expect(201)).body.data;
      const ids = await Promise.all(
        Array.from(
          { length: 12 },
          async (_, i) =>
            (
              await h
                .as()
                .post('/v1/subscribers')
                .send({ email: `c${i}@example.com` })
                .expect(201)
            ).body.data.id,
        ),
      );
      await Promise.all([...ids, ...ids].map((id) => h.as().put(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200)));
      expect((await h.as().get(`/v1/tags/${tag.id}`)).body.data.subscriber_count).toBe(12);
      const actual = await h.app.get(EmailPrisma).subscriberTag.count({ where: { tag_id: tag.id } });
      expect(actual).toBe(12);
      await Promise.all([...ids.slice(0, 5), ...ids.slice(0, 5)].map((id) => h.as().delete(`/v1/subscribers/${id}/tags/${tag.id}`).expect(200)));
      expect((await h.as().get(`/v1/tags/${tag.id}`)).body.data.subscriber_count).toBe(7);
    });

    it('scopes: tags:read cannot create', async () => {
      const key = await h.keyWith(['tags:read']);
      await h.as(key).get('/v1/tags').expect(200);
      const res = await h.as(key).post('/v1/tags').send({ name: 'x' }).expect(403);
      expect(res.body.error.missing_scopes).toEqual(['tags:write']);
    });
  });

  describe('custom fields', () => {
    it('create, get, update, list, delete with a computed personalization token', async () => {
      const res = await h
        .as()
        .post('/v1/custom-fields')
        .send({ label: 'Favorite color', type: 'Single Select', settings: { options: ['red', 'blue'] } })
        .expect(201);
      const field = res.body.data;
      expect(field).toEqual({
        self: `/v1/custom-fields/${field.id}`,
        id: expect.stringMatching(/^cf_/),
        label: 'Favorite color',
        type: 'Single Select',
        settings: { options: ['red', 'blue'] },
        personalization_token: '[Subscriber_Favorite_Color, fallback=""]',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const renamed = await h.as().put(`/v1/custom-fields/${field.id}`).send({ label: 'Main colour' }).expect(200);
      expect(renamed.body.data.personalization_token).toBe('[Subscriber_Main_Colour, fallback=""]');
      expect((await h.as().get(`/v1/custom-fields/${field.id}`).expect(200)).body.data.label).toBe('Main colour');
      const list = await h.as().get('/v1/custom-fields?search=colour').expect(200);
      expect(list.body.data.map((f: { id: string }) => f.id)).toEqual([field.id]);
      await h.as().delete(`/v1/custom-fields/${field.id}`).expect(204);
      await h.as().get(`/v1/custom-fields/${field.id}`).expect(404);
    });

    it('accepts all eight types', async () => {
      for (const type of ['Text', 'Number', 'Date', 'Select (Dropdown)', 'Single Select', 'Multi Select', 'Text Area', 'Checkbox']) {
        const needsOptions = type.includes('Select');
        await h
          .as()
          .post('/v1/custom-fields')
          .send({ label: `Type ${type}`, type, ...(needsOptions ? { settings: { options: ['a'] } } : {}) })
          .expect(201);
      }
    });

    it('400 for bad definitions, 409 for duplicate labels and type changes of fields in use', async () => {
      for (const [body, field] of [
        [{ type: 'Text' }, 'label'],
        [{ label: '   ', type: 'Text' }, 'label'],
        [{ label: 'x', type: 'Colour' }, 'type'],
        [{ label: 'x', type: 'Single Select' }, 'settings.options'],
        [{ label: 'x', type: 'Text', settings: { options: [1] } }, 'settings.options'],
        [{ label: 'x', type: 'Text', extra: true }, 'extra'],
      ] as const) {
        const res = await h.as().post('/v1/custom-fields').send(body);
        expect({ body, status: res.status, field: res.body.error?.details?.field }).toEqual({ body, status: 400, field });
      }
      const plan = (await h.as().post('/v1/custom-fields').send({ label: 'Plan', type: 'Text' }).expect(201)).body.data;
      await h.as().post('/v1/custom-fields').send({ label: 'plan', type: 'Number' }).expect(409);
      await h.as().put(`/v1/custom-fields/${plan.id}`).send({}).expect(400);
      await h.as().put(`/v1/custom-fields/${plan.id}`).send({ type: 'Number' }).expect(200);
      await h
        .as()
        .post('/v1/subscribers')
        .send({ email: 'plan@example.com', custom_fields: { [plan.id]: 3 } })
        .expect(201);
      const inUse = await h.as().put(`/v1/custom-fields/${plan.id}`).send({ type: 'Date' }).expect(409);
      expect(inUse.body.error.code).toBe('custom_field_in_use');
    });

    it('applies the option rules through create and through update', async () => {
      const text = (await h.as().post('/v1/custom-fields').send({ label: 'Options rules', type: 'Text' }).expect(201)).body.data;
      const cases: Array<[object, string]> = [
        [{ type: 'Single Select' }, 'settings.options'],
        [{ type: 'Multi Select', settings: { options: ['  '] } }, 'settings.options'],
        [{ type: 'Multi Select', settings: { options: ['a,b'] } }, 'settings.options'],
        [{ type: 'Colour' }, 'type'],
      ];
      for (const [body, field] of cases) {
        const viaCreate = await h
          .as()
          .post('/v1/custom-fields')
          .send({ label: 'Options rules 2', ...body });
        const viaUpdate = await h.as().put(`/v1/custom-fields/${text.id}`).send(body);
        const outcome = (res: typeof viaUpdate) => ({ status: res.status, field: res.body.error?.details?.field });
        expect({ body, create: outcome(viaCreate), update: outcome(viaUpdate) }).toEqual({
          body,
          create: { status: 400, field },
          update: { status: 400, field },
        });
      }
    });

    it('rejects null for properties that are not nullable, on create and update', async () => {
      const field = (
        await h
          .as()
          .post('/v1/custom-fields')
          .send({ label: 'Nullable?', type: 'Single Select', settings: { options: ['a'] } })
          .expect(201)
      ).body.data;
      const cases: Array<[string, object, string]> = [
        ['post', { label: 'N', type: 'Text', settings: null }, 'settings'],
        ['post', { label: 'N', type: 'Single Select', settings: { options: null } }, 'settings.options'],
        ['put', { label: null }, 'label'],
        ['put', { type: null }, 'type'],
        ['put', { settings: null }, 'settings'],
        ['put', { settings: { options: null } }, 'settings.options'],
      ];
      for (const [method, body, named] of cases) {
        const res = method === 'post' ? await h.as().post('/v1/custom-fields').send(body) : await h.as().put(`/v1/custom-fields/${field.id}`).send(body);
        expect({ method, body, status: res.status, field: res.body.error?.details?.field }).toEqual({ method, body, status: 400, field: named });
      }
      expect((await h.as().get(`/v1/custom-fields/${field.id}`).expect(200)).body.data).toEqual(field);
    });

    it('has_more is false on an exactly full last page and true only when another row follows', async () => {
      const as = await freshWorkspace();
      await expectExactPages(as, '/v1/custom-fields', (i) =>
        as
          .post('/v1/custom-fields')
          .send({ label: `Paged ${i}`, type: 'Text' })
          .expect(201),
      );
    });

    it('concurrent creates and renames to one label (any case) give one success and 409s, never two fields', async () => {
      for (let round = 0; round < 5; round++) {
        const label = `Race ${round}`;
        const creates = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            h
              .as()
              .post('/v1/custom-fields')
              .send({ label: i % 2 ? label : label.toUpperCase(), type: 'Text' }),
          ),
        );
        expect(creates.map((r) => r.status).sort()).toEqual([201, ...Array(11).fill(409)]);
        expect(creates.filter((r) => r.status === 409).every((r) => r.body.error.code === 'custom_field_label_taken')).toBe(true);
        const others = await Promise.all(
          Array.from(
            { length: 6 },
            async (_, i) =>
              (
                await h
                  .as()
                  .post('/v1/custom-fields')
                  .send({ label: `Rename ${round}.${i}`, type: 'Text' })
                  .expect(201)
              ).body.data,
          ),
        );
        const renames = await Promise.all(
          others.map((f, i) =>
            h
              .as()
              .put(`/v1/custom-fields/${f.id}`)
              .send({ label: i % 2 ? `Renamed ${round}` : `RENAMED ${round}` }),
          ),
        );
        expect(renames.map((r) => r.status).sort()).toEqual([200, ...Array(5).fill(409)]);
      }
      const labels = await h.app.get(EmailPrisma).customField.findMany({ where: { workspace_id: h.workspaceId }, select: { label: true } });
      const keys = labels.map((l) => l.label.toLowerCase());
      expect(keys.length).toBe(new Set(keys).size);
    });

    it("refuses a label whose token another field's label, or the subscriber's own name or email, already gives", async () => {
      const create = (label: string) => h.as().post('/v1/custom-fields').send({ label, type: 'Text' });
      const tier = (await create('Loyalty tier').expect(201)).body.data;
      expect(tier.personalization_token).toBe('[Subscriber_Loyalty_Tier, fallback=""]');
      expect((await create('Café').expect(201)).body.data.personalization_token).toBe('[Subscriber_Café, fallback=""]');
      for (const label of ['loyalty_tier', 'LOYALTY-TIER', ' Loyalty   tier!', 'Cafe\u0301', 'Name', 'EMAIL']) {
        const refused = await create(label).expect(409);
        expect(refused.body.error).toMatchObject({ code: 'custom_field_label_taken', details: { field: 'label' } });
      }
      const other = (await create('Region').expect(201)).body.data;
      await h.as().put(`/v1/custom-fields/${other.id}`).send({ label: 'Loyalty-Tier' }).expect(409);
      for (const label of ['!!!', '🎉']) {
        const refused = await create(label).expect(400);
        expect(refused.body.error).toMatchObject({ code: 'validation_failed', details: { field: 'label' } });
      }
    });

    it('deleting a field removes its values from subscribers', async () => {
      const field = (await h.as().post('/v1/custom-fields').send({ label: 'Temporary', type: 'Text' }).expect(201)).body.data;
      const sub = (
        await h
          .as()
          .post('/v1/subscribers')
          .send({ email: 'temp@example.com', custom_fields: { [field.id]: 'x' } })
          .expect(201)
      ).body.data;
      await h.as().delete(`/v1/custom-fields/${field.id}`).expect(204);
      expect((await h.as().get(`/v1/subscribers/${sub.id}`)).body.data.custom_fields).toEqual({});
    });
  });

  describe('sender identities', () => {
    it('lists only enabled delivery connections, without provider settings', async () => {
      const prisma = h.app.get(EmailPrisma);
      expect((await h.as().get('/v1/sender-identities').expect(200)).body).toEqual({ data: [], pagination: { has_more: false, next_cursor: null } });
      await prisma.deliveryConnection.createMany({
        data: [
          {
            id: 'edc_on',
            workspace_id: h.workspaceId,
            name: 'Main',
            provider: 'custom-smtp',
            from_email: 'news@example.com',
            from_name: 'News',
            enabled: true,
            provider_config: { host: 'smtp.example.com' },
          },
          { id: 'edc_off', workspace_id: h.workspaceId, name: 'Off', provider: 'postmark', from_email: 'off@example.com', from_name: 'Off', enabled: false },
        ],
      });
      const list = await h.as().get('/v1/sender-identities').expect(200);
      expect(list.body.data).toEqual([
        {
          self: '/v1/sender-identities/edc_on',
          id: 'edc_on',
          name: 'Main',
          provider: 'custom-smtp',
          from_name: 'News',
          from_email: 'news@example.com',
          ready_for_selection: true,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ]);
      await h.as().get('/v1/sender-identities/edc_on').expect(200);
      await h.as().get('/v1/sender-identities/edc_off').expect(404);
      const key = await h.keyWith(['subscribers:read']);
      const denied = await h.as(key).get('/v1/sender-identities').expect(403);
      expect(denied.body.error.required_scopes).toEqual(['workspace:read']);
    });
  });
});
