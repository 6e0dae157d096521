/**
 * Every draft write that can store a payment field (creating a form, replacing or patching the whole draft, publishing
 * with a draft, adding a step or a field, changing a field, cloning a form; MCP's tools run these routes) applies the
 * payment module's rules: a currency payments can be taken in, a fixed amount an order can hold, and a connected
 * provider when the write changes who collects the payment. The workspace here has connected no provider, so its
 * payment field is stored directly, as one added while a provider was connected.
 */
import { FormsPrisma } from '@forms/data-access';
import { formsApi, FormsApiHarness } from './helpers';
import { formWithStoredDraft } from './stored-draft.fixture';

const draft = (currency: string, payment: object = {}) => ({
  settings: { name: 'Deposit' },
  steps: [
    {
      id: 'stp_1',
      title: 'Pay',
      fields: [
        { id: 'fld_name', type: 'text', label: 'Name' },
        { id: 'fld_pay', type: 'payment', label: 'Deposit', currency, amount: { type: 'fixed', value: 1500 }, ...payment },
      ],
    },
  ],
});

describe('forms-api: payment fields through the generic edits', () => {
  let api: FormsApiHarness;
  let formId: string;

  beforeAll(async () => {
    api = await formsApi();
    // Pro, so that a publish reaches the payment rules.
    await api.app.get(FormsPrisma).workspace.update({ where: { id: api.main.workspaceId }, data: { plan: 'pro' } });
    formId = await formWithStoredDraft(api, draft('USD'));
  });
  afterAll(() => api?.close());

  const patch = (fieldId: string, body: object) => api.as().patch(`/api/v1/forms/${formId}/fields/${fieldId}`).send(body);
  const refusal = (body: { error: { code: string; field?: string; details?: { field?: string } } }) => [
    body.error.code,
    body.error.field ?? body.error.details?.field,
  ];

  it('refuses a field change the payment module would refuse, naming the property', async () => {
    expect(refusal((await patch('fld_pay', { currency: 'XAU' }).expect(400)).body)).toEqual(['unsupported_currency', 'fields.fld_pay.currency']);
    expect(refusal((await patch('fld_pay', { amount: 3_000_000_000 }).expect(400)).body)).toEqual(['too_large', 'fields.fld_pay.amount']);
    expect(refusal((await patch('fld_pay', { provider: 'razorpay' }).expect(409)).body)).toEqual(['payment_provider_not_connected', 'fields.fld_pay.provider']);
    const converted = await patch('fld_name', { type: 'payment', currency: 'EUR', amount: 100 }).expect(409);
    expect(refusal(converted.body)).toEqual(['payment_provider_not_connected', 'fields.fld_name.provider']);

    expect((await patch('fld_pay', { label: 'Booking deposit', amount: 2500 }).expect(200)).body.field).toMatchObject({
      label: 'Booking deposit',
      amount: { type: 'fixed', value: 2500 },
    });
  });

  it('refuses a clone whose payment fields the target workspace could not take', async () => {
    const bad = await formWithStoredDraft(api, draft('XXX'));
    expect(refusal((await api.as().post(`/api/v1/forms/${bad}/clone`).send({}).expect(400)).body)).toEqual(['unsupported_currency', 'fields.fld_pay.currency']);

    const { workspace_id: other } = await api.accounts.createWorkspace(api.main.ownerId, { name: 'Other' });
    const moved = await api.as().post(`/api/v1/forms/${formId}/clone`).send({ workspaceId: other }).expect(409);
    expect(refusal(moved.body)).toEqual(['payment_provider_not_connected', 'fields.fld_pay.provider']);

    await api.as().post(`/api/v1/forms/${formId}/clone`).send({}).expect(201);
  });

  it('refuses a new form, or one from a starter template, holding a payment field the workspace could not take', async () => {
    const create = (draftSchema: object) => api.as().post('/api/v1/forms').send({ workspaceId: api.main.workspaceId, draftSchema });
    expect(refusal((await create(draft('XAU')).expect(400)).body)).toEqual(['unsupported_currency', 'fields.fld_pay.currency']);
    expect(refusal((await create(draft('USD', { amount: { type: 'fixed', value: 3_000_000_000 } })).expect(400)).body)).toEqual([
      'too_large',
      'fields.fld_pay.amount',
    ]);
    expect(refusal((await create(draft('USD')).expect(409)).body)).toEqual(['payment_provider_not_connected', 'fields.fld_pay.provider']);
    // No starter template holds a payment field today; the same rules run over one that would.
    const templates = (await api.as().get('/api/v1/starter-templates').expect(200)).body.data as Array<{ id: string }>;
    await api.as().post(`/api/v1/starter-templates/${templates[0].id}/forms`).send({ workspaceId: api.main.workspaceId }).expect(201);
  });

  it('refuses a whole new draft (PUT draft, PATCH form, publish with a draft) by the payment fields it adds or changes', async () => {
    const form = `/api/v1/forms/${formId}`;
    const writes = [
      (draftSchema: object) => api.as().put(`${form}/draft`).send({ draftSchema }),
      (draftSchema: object) => api.as().patch(form).send({ draftSchema }),
      (draftSchema: object) => api.as().post(`${form}/publish`).send({ draftSchema }),
    ];
    for (const write of writes) {
      expect(refusal((await write(draft('XAU')).expect(400)).body)).toEqual(['unsupported_currency', 'fields.fld_pay.currency']);
      expect(refusal((await write(draft('USD', { provider: 'razorpay' })).expect(409)).body)).toEqual([
        'payment_provider_not_connected',
        'fields.fld_pay.provider',
      ]);
    }
    // The stored payment field, unchanged or with a new label, is the workspace's already.
    const kept = await api
      .as()
      .put(`${form}/draft`)
      .send({ draftSchema: draft('USD', { label: 'Booking deposit' }) })
      .expect(200);
    expect(kept.body.draft_schema.steps[0].fields[1]).toMatchObject({ id: 'fld_pay', label: 'Booking deposit', currency: 'USD' });
  });

  it('refuses a payment field added on its own or with a new step', async () => {
    const stepId = (await api.as().get(`/api/v1/forms/${formId}`).expect(200)).body.draft_schema.steps[0].id as string;
    const payment = { id: 'fld_more', type: 'payment', label: 'More', currency: 'EUR', amount: { type: 'fixed', value: 100 } };
    const added = await api.as().post(`/api/v1/forms/${formId}/steps/${stepId}/fields`).send(payment).expect(409);
    expect(refusal(added.body)).toEqual(['payment_provider_not_connected', 'fields.fld_more.provider']);
    const inStep = await api
      .as()
      .post(`/api/v1/forms/${formId}/steps`)
      .send({ title: 'More', fields: [{ ...payment, currency: 'XAU' }] })
      .expect(400);
    expect(refusal(inStep.body)).toEqual(['unsupported_currency', 'fields.fld_more.currency']);
    await api.as().post(`/api/v1/forms/${formId}/steps/${stepId}/fields`).send({ type: 'text', label: 'Notes' }).expect(201);
  });
});
