/**
 * Payments through the API against local fakes of Razorpay and Stripe (their official SDKs aimed at the fakes' base
 * URLs): workspace integrations with sealed secrets, orders priced on the server, checkout verification, submissions
 * that need a verified payment, and the providers' webhooks (signature, idempotency, late and failed payments).
 */
import { FormsPrisma } from '@forms/data-access';
import { FAKE_RAZORPAY_KEY, FAKE_RAZORPAY_WEBHOOK_SECRET, FakeRazorpay } from '../../../libs/forms/payments/src/testing/fake-razorpay.fixture';
import { FAKE_STRIPE_KEYS, FakeStripe, STRIPE_CARDS } from '../../../libs/forms/payments/src/testing/fake-stripe.fixture';
import { PaymentFakes, startPaymentFakes } from '../../../libs/forms/payments/src/testing/payment-fakes.fixture';
import { formsApi, FormsApiHarness } from './helpers';
import { formWithStoredDraft } from './stored-draft.fixture';

const paymentDraft = (provider: 'razorpay' | 'stripe', currency: string, required: boolean) => ({
  settings: { name: `Tickets (${provider})` },
  steps: [
    { id: 'stp_order', title: 'Order', fields: [{ id: 'fld_tickets', type: 'number', label: 'Tickets', required: true, min: 1 }] },
    {
      id: 'stp_pay',
      title: 'Payment',
      fields: [{ id: 'fld_pay', type: 'payment', label: 'Pay', required, provider, currency, amount: { type: 'field', fieldId: 'fld_tickets' } }],
    },
  ],
});

describe('forms-api: payments', () => {
  let api: FormsApiHarness;
  let fakes: PaymentFakes;
  let razorpay: FakeRazorpay;
  let stripe: FakeStripe;
  let workspaceId: string;

  beforeAll(async () => {
    fakes = await startPaymentFakes();
    ({ razorpay, stripe } = fakes);
    api = await formsApi(fakes.env);
    workspaceId = (await api.accounts.createWorkspace(api.main.ownerId, { name: 'Paid', plan: 'pro' })).workspace_id;
  });

  afterAll(async () => {
    await api?.close();
    await fakes?.stop();
  });

  const integration = (provider: string, ws = workspaceId) => `/api/workspaces/${ws}/integrations/${provider}`;
  const connectRazorpay = (ws = workspaceId) =>
    api
      .as()
      .put(integration('razorpay', ws))
      .send({ key_id: FAKE_RAZORPAY_KEY.keyId, key_secret: FAKE_RAZORPAY_KEY.keySecret, webhook_secret: FAKE_RAZORPAY_WEBHOOK_SECRET })
      .expect(200);
  const connectStripe = () =>
    api
      .as()
      .put(integration('stripe'))
      .send({ publishable_key: FAKE_STRIPE_KEYS.publishableKey, secret_key: FAKE_STRIPE_KEYS.secretKey, webhook_secret: FAKE_STRIPE_KEYS.webhookSecret })
      .expect(200);

  async function publish(draft: object, ws = workspaceId): Promise<string> {
    const { body } = await api.as().post('/api/v1/forms').send({ workspaceId: ws, draftSchema: draft }).expect(201);
    const published = await api.as().post(`/api/v1/forms/${body.data.id}/publish`).send({}).expect(200);
    return published.body.data.public_id as string;
  }
  const order = (publicId: string, provider: string, tickets: number) =>
    api
      .as('')
      .post(`/api/public/forms/${publicId}/payments/${provider}/order`)
      .send({ values: { fld_tickets: tickets } });
  const submit = (publicId: string, body: object) => api.as('').post(`/api/public/forms/${publicId}/submissions`).send(body);

  describe('workspace integrations', () => {
    it('seals the secrets, shows only has_* flags, and needs the secret the first time', async () => {
      await api.as().put(integration('razorpay')).send({ key_id: FAKE_RAZORPAY_KEY.keyId }).expect(400);
      const { body } = await connectRazorpay();
      expect(body.data).toMatchObject({ provider: 'razorpay', key_id: FAKE_RAZORPAY_KEY.keyId, has_key_secret: true, has_webhook_secret: true });
      expect(body.data.webhook_url).toContain(`/api/payments/razorpay/webhook?workspace_id=${workspaceId}`);
      const read = await api.as().get(integration('razorpay')).expect(200);
      for (const text of [JSON.stringify(body), JSON.stringify(read.body)]) {
        expect(text).not.toContain(FAKE_RAZORPAY_KEY.keySecret);
        expect(text).not.toContain(FAKE_RAZORPAY_WEBHOOK_SECRET);
      }
      const stored = await api.app.get(FormsPrisma).paymentIntegration.findFirstOrThrow({ where: { workspace_id: workspaceId } });
      expect(stored.secrets).not.toContain(FAKE_RAZORPAY_KEY.keySecret);
      // An update without secrets keeps the stored ones.
      await api.as().put(integration('razorpay')).send({ key_id: FAKE_RAZORPAY_KEY.keyId }).expect(200);
      expect((await api.as().get(integration('razorpay')).expect(200)).body.data.has_webhook_secret).toBe(true);
    });

    it('refuses unknown providers, bad keys, other tenants and non-owners', async () => {
      expect((await api.as().get(integration('paypal')).expect(404)).body.error.code).toBe('unknown_payment_provider');
      const bad = await api.as().put(integration('stripe')).send({ publishable_key: 'sk_test_wrongkind', secret_key: FAKE_STRIPE_KEYS.secretKey }).expect(400);
      expect(bad.body.error.details.field).toBe('publishable_key');
      const other = await api.newAccount('other@example.com');
      expect((await api.as(other.key).get(integration('razorpay')).expect(404)).body.error.code).toBe('workspace_not_found');
      await api.app.get(FormsPrisma).membership.create({ data: { workspace_id: workspaceId, owner_id: other.ownerId, role: 'editor' } });
      expect((await api.as(other.key).get(integration('razorpay')).expect(403)).body.error.code).toBe('insufficient_role');
      await api.as().get('/api/workspaces/ws_missing/integrations/razorpay').expect(404);
    });

    it('need forms:read to read a connection and forms:publish to change it: any other key is 403 insufficient_scope', async () => {
      await connectRazorpay();
      const [responsesOnly, reader, publisher] = await Promise.all(
        [['submissions:read'], ['forms:read'], ['forms:publish']].map((scopes) => api.keyWith(api.main.ownerId, scopes)),
      );
      const refused = await api.as(responsesOnly).get(integration('razorpay')).expect(403);
      expect(refused.body.error).toMatchObject({
        type: 'permission_error',
        code: 'insufficient_scope',
        required_scopes: ['forms:read'],
        missing_scopes: ['forms:read'],
      });
      await api.as(reader).get(integration('razorpay')).expect(200);
      const replaced = { key_id: 'rzp_test_attacker1', key_secret: 'attacker_secret_0123456789' };
      for (const key of [responsesOnly, reader]) {
        for (const attempt of [api.as(key).put(integration('razorpay')).send(replaced), api.as(key).delete(integration('razorpay'))]) {
          const { body } = await attempt.expect(403);
          expect(body.error).toMatchObject({ code: 'insufficient_scope', required_scopes: ['forms:publish'], missing_scopes: ['forms:publish'] });
        }
      }
      expect((await api.as(reader).get(integration('razorpay')).expect(200)).body.data.key_id).toBe(FAKE_RAZORPAY_KEY.keyId);
      await api.as(publisher).put(integration('razorpay')).send({ key_id: FAKE_RAZORPAY_KEY.keyId }).expect(200);
    });

    it('deletes a connection', async () => {
      await connectStripe();
      await api.as().delete(integration('stripe')).expect(200);
      expect((await api.as().get(integration('stripe')).expect(404)).body.error.code).toBe('payment_integration_not_found');
      await api.as().delete(integration('stripe')).expect(404);
    });
  });

  describe('orders', () => {
    it('need the Pro plan and the field’s provider connected', async () => {
      const free = api.main.workspaceId;
      await api.app.get(FormsPrisma).workspace.update({ where: { id: free }, data: { plan: 'pro' } });
      // Stored as it is: the API would refuse a payment field whose provider the workspace has not connected.
      const formId = await formWithStoredDraft(api, paymentDraft('stripe', 'USD', true), free);
      const publicId = (await api.as().post(`/api/v1/forms/${formId}/publish`).send({}).expect(200)).body.data.public_id as string;
      await api.app.get(FormsPrisma).workspace.update({ where: { id: free }, data: { plan: 'free' } });
      expect((await order(publicId, 'stripe', 2).expect(403)).body.error.code).toBe('payments_require_pro');
      await api.app.get(FormsPrisma).workspace.update({ where: { id: free }, data: { plan: 'pro' } });
      expect((await order(publicId, 'stripe', 2).expect(409)).body.error.code).toBe('payment_provider_not_connected');
      expect((await order(publicId, 'razorpay', 2).expect(409)).body.error.code).toBe('payment_provider_not_connected');
    });

    it('price the order on the server in the currency’s minor unit (JPY has none)', async () => {
      await connectStripe();
      const publicId = await publish(paymentDraft('stripe', 'JPY', true));
      const { body } = await order(publicId, 'stripe', 1500).expect(201);
      expect(body.data).toMatchObject({ provider: 'stripe', amount: 1500, currency: 'JPY', minor_digits: 0 });
      expect(stripe.intents.get(body.data.order_id)).toMatchObject({ amount: 1500, currency: 'jpy' });
      expect(body.data.checkout).toMatchObject({ provider: 'stripe', publishable_key: FAKE_STRIPE_KEYS.publishableKey, script_url: stripe.stripeJsUrl });
      expect(JSON.stringify(body)).not.toContain(FAKE_STRIPE_KEYS.secretKey);
      // Nothing due without an amount; answers are checked as a submission's are.
      expect((await order(publicId, 'stripe', 0).expect(400)).body.error.details.field).toBe('values.fld_tickets');
    });

    it('open the hosted page’s CSP to the configured checkout origins on payment forms only', async () => {
      const paid = await api
        .as('')
        .get(`/f/${await publish(paymentDraft('razorpay', 'INR', true))}`)
        .expect(200);
      const csp = paid.headers['content-security-policy'];
      expect(csp).toContain(`script-src 'self' ${razorpay.baseUrl} ${stripe.baseUrl}`);
      expect(csp).toContain(`frame-src ${razorpay.baseUrl} ${stripe.baseUrl}`);
      const plain = { steps: [{ title: 'One', fields: [{ id: 'fld_name', type: 'text', label: 'Name' }] }] };
      const unpaid = await api
        .as('')
        .get(`/f/${await publish(plain)}`)
        .expect(200);
      expect(unpaid.headers['content-security-policy']).toContain("script-src 'self';");
      expect(unpaid.headers['content-security-policy']).not.toContain('frame-src');
    });

    it('answer a provider refusal as 502 with its code, never the credentials', async () => {
      const ws = (await api.accounts.createWorkspace(api.main.ownerId, { name: 'Wrong key', plan: 'pro' })).workspace_id;
      await api.as().put(integration('razorpay', ws)).send({ key_id: FAKE_RAZORPAY_KEY.keyId, key_secret: 'not_the_right_secret' }).expect(200);
      const publicId = await publish(paymentDraft('razorpay', 'INR', true), ws);
      const { body } = await order(publicId, 'razorpay', 5).expect(502);
      expect(body.error).toMatchObject({ code: 'payment_provider_error', details: { reason: 'BAD_REQUEST_ERROR' } });
      expect(JSON.stringify(body)).not.toContain('not_the_right_secret');
    });
  });

  describe('Razorpay checkout', () => {
    let publicId: string;
    beforeAll(async () => {
      await connectRazorpay();
      publicId = await publish(paymentDraft('razorpay', 'INR', true));
    });

    it('verifies the signature, then the submission records the payment as paid, once', async () => {
      const created = (await order(publicId, 'razorpay', 12.5).expect(201)).body.data;
      expect(created).toMatchObject({ amount: 1250, currency: 'INR', checkout: { provider: 'razorpay', key_id: FAKE_RAZORPAY_KEY.keyId } });
      const verifyUrl = `/api/public/forms/${publicId}/payments/razorpay/verify`;
      // Submitting before paying is refused, naming the payment field.
      const unpaid = await submit(publicId, { values: { fld_tickets: 12.5 }, payments: { fld_pay: created.payment_id } }).expect(402);
      expect(unpaid.body.error).toMatchObject({ code: 'payment_required', details: { field: 'payments.fld_pay' } });
      expect((await submit(publicId, { values: { fld_tickets: 12.5 } }).expect(402)).body.error.code).toBe('payment_required');

      const payment = razorpay.capture(created.order_id);
      const forged = {
        payment_id: created.payment_id,
        razorpay_order_id: created.order_id,
        razorpay_payment_id: payment.id,
        razorpay_signature: 'f'.repeat(64),
      };
      expect((await api.as('').post(verifyUrl).send(forged).expect(400)).body.error.code).toBe('payment_signature_invalid');
      const signed = { ...forged, razorpay_signature: razorpay.signature(created.order_id, payment.id) };
      const verified = await api.as('').post(verifyUrl).send(signed).expect(200);
      expect(verified.body.data).toMatchObject({ status: 'paid', amount: 1250, currency: 'INR' });

      // The answers must still lead to the amount paid.
      const changed = await submit(publicId, { values: { fld_tickets: 20 }, payments: { fld_pay: created.payment_id } }).expect(409);
      expect(changed.body.error.code).toBe('payment_amount_mismatch');
      const stored = await submit(publicId, { values: { fld_tickets: 12.5 }, payments: { fld_pay: created.payment_id } }).expect(201);
      expect(stored.body.submission.payments).toEqual([
        expect.objectContaining({
          fieldId: 'fld_pay',
          status: 'paid',
          provider: 'razorpay',
          amount: 1250,
          currency: 'INR',
          orderId: created.order_id,
          paymentId: payment.id,
        }),
      ]);
      const again = await submit(publicId, { values: { fld_tickets: 12.5 }, payments: { fld_pay: created.payment_id } }).expect(409);
      expect(again.body.error.code).toBe('payment_already_used');
    });
  });

  describe('Stripe checkout', () => {
    it('reads the PaymentIntent back before the submission is accepted', async () => {
      await connectStripe();
      const publicId = await publish(paymentDraft('stripe', 'USD', true));
      const created = (await order(publicId, 'stripe', 19.99).expect(201)).body.data;
      expect(created.amount).toBe(1999);
      const verifyUrl = `/api/public/forms/${publicId}/payments/stripe/verify`;
      const early = await api.as('').post(verifyUrl).send({ payment_id: created.payment_id, payment_intent: created.order_id }).expect(402);
      expect(early.body.error).toMatchObject({ code: 'payment_not_completed', details: { reason: 'requires_payment_method' } });
      // What Stripe.js does in the browser: confirm with the publishable key and the client secret.
      const confirm = await fetch(`${stripe.baseUrl}/v1/payment_intents/${created.order_id}/confirm`, {
        method: 'POST',
        headers: { authorization: `Bearer ${FAKE_STRIPE_KEYS.publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_secret: created.checkout.client_secret, 'payment_method_data[card][number]': STRIPE_CARDS.succeeds }),
      });
      expect(confirm.status).toBe(200);
      await api.as('').post(verifyUrl).send({ payment_id: created.payment_id, payment_intent: created.order_id }).expect(200);
      const stored = await submit(publicId, { values: { fld_tickets: 19.99 }, payments: { fld_pay: created.payment_id } }).expect(201);
      expect(stored.body.submission.payments[0]).toMatchObject({ status: 'paid', provider: 'stripe', amount: 1999, currency: 'USD' });
    });
  });

  describe('webhooks', () => {
    const post = (provider: string, body: string, headers: Record<string, string>, ws = workspaceId) =>
      api
        .as('')
        .post(`/api/payments/${provider}/webhook?workspace_id=${ws}`)
        .set({ 'content-type': 'application/json', ...headers })
        .send(body);

    async function pendingSubmission(provider: 'razorpay' | 'stripe') {
      const publicId = await publish(paymentDraft(provider, provider === 'razorpay' ? 'INR' : 'EUR', false));
      const created = (await order(publicId, provider, 3).expect(201)).body.data;
      const { body } = await submit(publicId, { values: { fld_tickets: 3 }, payments: { fld_pay: created.payment_id } }).expect(201);
      expect(body.submission.payments[0]).toMatchObject({ status: 'pending', amount: 300 });
      return { created, submissionId: body.submission.id as string };
    }
    const recordedPayment = async (submissionId: string) => {
      const row = await api.app.get(FormsPrisma).formSubmission.findUniqueOrThrow({ where: { id: submissionId } });
      return (row.record as { submission: { payments: Array<Record<string, unknown>> } }).submission.payments[0];
    };

    it('marks a late Razorpay payment paid once, and refuses a wrong signature', async () => {
      await connectRazorpay();
      const { created, submissionId } = await pendingSubmission('razorpay');
      const payment = razorpay.capture(created.order_id);
      const event = razorpay.webhook('payment.captured', created.order_id, payment.id);
      const wrong = await post('razorpay', event.body, {
        'x-razorpay-signature': razorpay.webhook('payment.captured', created.order_id, payment.id, 'another_secret').signature,
        'x-razorpay-event-id': 'evt_rzp_1',
      }).expect(400);
      expect(wrong.body.error.code).toBe('payment_webhook_signature_invalid');
      expect(await recordedPayment(submissionId)).toMatchObject({ status: 'pending' });

      const first = await post('razorpay', event.body, { 'x-razorpay-signature': event.signature, 'x-razorpay-event-id': 'evt_rzp_1' }).expect(200);
      expect(first.body.data).toEqual({ received: true, duplicate: false, outcome: 'paid' });
      expect(await recordedPayment(submissionId)).toMatchObject({ status: 'paid', paymentId: payment.id });
      const replay = await post('razorpay', event.body, { 'x-razorpay-signature': event.signature, 'x-razorpay-event-id': 'evt_rzp_1' }).expect(200);
      expect(replay.body.data.duplicate).toBe(true);
      // A failure notice after the payment changes nothing.
      const late = razorpay.webhook('payment.failed', created.order_id, 'pay_other');
      await post('razorpay', late.body, { 'x-razorpay-signature': late.signature, 'x-razorpay-event-id': 'evt_rzp_2' }).expect(200);
      expect(await recordedPayment(submissionId)).toMatchObject({ status: 'paid' });
    });

    it('marks a failed Stripe payment failed, and a replayed event has no second effect', async () => {
      await connectStripe();
      const { created, submissionId } = await pendingSubmission('stripe');
      const failed = stripe.webhook('payment_intent.payment_failed', created.order_id, FAKE_STRIPE_KEYS.webhookSecret, 'evt_stripe_failed');
      await post('stripe', failed.body, { 'stripe-signature': failed.signature }).expect(200);
      expect(await recordedPayment(submissionId)).toMatchObject({ status: 'failed' });
      // Then the respondent pays after all: the success event settles it.
      stripe.succeed(created.order_id);
      const paid = stripe.webhook('payment_intent.succeeded', created.order_id, FAKE_STRIPE_KEYS.webhookSecret, 'evt_stripe_paid');
      await post('stripe', paid.body, { 'stripe-signature': paid.signature }).expect(200);
      expect(await recordedPayment(submissionId)).toMatchObject({ status: 'paid' });
      const replayFailed = await post('stripe', failed.body, { 'stripe-signature': failed.signature }).expect(200);
      expect(replayFailed.body.data.duplicate).toBe(true);
      expect(await recordedPayment(submissionId)).toMatchObject({ status: 'paid' });
      const events = await api.app.get(FormsPrisma).paymentWebhookEvent.count({ where: { provider: 'stripe' } });
      expect(events).toBe(2);
      const tampered = await post('stripe', paid.body.replace('"succeeded"', '"canceled"'), { 'stripe-signature': paid.signature }).expect(400);
      expect(tampered.body.error.code).toBe('payment_webhook_signature_invalid');
    });

    it('needs the workspace’s configured webhook secret', async () => {
      const ws = (await api.accounts.createWorkspace(api.main.ownerId, { name: 'No hook', plan: 'pro' })).workspace_id;
      await api
        .as()
        .put(integration('stripe', ws))
        .send({ publishable_key: FAKE_STRIPE_KEYS.publishableKey, secret_key: FAKE_STRIPE_KEYS.secretKey })
        .expect(200);
      const event = stripe.webhook('payment_intent.succeeded', 'pi_unknown');
      expect((await post('stripe', event.body, { 'stripe-signature': event.signature }, ws).expect(404)).body.error.code).toBe(
        'payment_webhook_not_configured',
      );
      expect((await api.as('').post('/api/payments/stripe/webhook').send({}).expect(400)).body.error.details.field).toBe('workspace_id');
    });
  });
});
