/**
 * Paid forms completed in headless Chromium through each provider's checkout, here the local fakes' stand-ins for
 * Razorpay Checkout and Stripe.js (the page loads them from the configured URLs; nothing leaves loopback): the
 * server verifies the payment and the submission is recorded paid. A declined and an abandoned payment are submitted
 * pending and then settled by the provider's webhook. Screenshots of the payment step go to SCREENSHOT_DIR.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { FormsPrisma } from '@forms/data-access';
import { launchChromium, listenOnLoopback } from '@shared/testing';
import { FAKE_RAZORPAY_KEY, FAKE_RAZORPAY_WEBHOOK_SECRET, FakeRazorpay } from '../../../libs/forms/payments/src/testing/fake-razorpay.fixture';
import { FAKE_STRIPE_KEYS, FakeStripe, STRIPE_CARDS } from '../../../libs/forms/payments/src/testing/fake-stripe.fixture';
import { PaymentFakes, startPaymentFakes } from '../../../libs/forms/payments/src/testing/payment-fakes.fixture';
import { formsApi, FormsApiHarness } from './helpers';

const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), 'postline-payment-screens');

const ticketDraft = (provider: 'razorpay' | 'stripe', currency: string, required: boolean) => ({
  settings: { name: `Workshop order (${provider})`, submitButtonLabel: 'Send my order' },
  steps: [
    {
      id: 'stp_order',
      title: 'Your order',
      fields: [
        { id: 'fld_name', type: 'text', label: 'Your name', required: true },
        { id: 'fld_tickets', type: 'number', label: 'Tickets', required: true, min: 1, max: 10 },
      ],
    },
    {
      id: 'stp_pay',
      title: 'Payment',
      fields: [
        {
          id: 'fld_pay',
          type: 'payment',
          label: 'Ticket price',
          description: 'One unit of the currency per ticket, charged once.',
          required,
          provider,
          currency,
          amount: { type: 'field', fieldId: 'fld_tickets' },
        },
      ],
    },
  ],
});

describe('hosted page: paid forms through the providers’ checkouts', () => {
  let api: FormsApiHarness;
  let fakes: PaymentFakes;
  let razorpay: FakeRazorpay;
  let stripe: FakeStripe;
  let browser: Browser;
  let origin: string;
  let workspaceId: string;
  const offLoopback: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    fakes = await startPaymentFakes();
    ({ razorpay, stripe } = fakes);
    api = await formsApi(fakes.env);
    origin = await listenOnLoopback(api.app);
    workspaceId = (await api.accounts.createWorkspace(api.main.ownerId, { name: 'Workshops', plan: 'pro' })).workspace_id;
    await api
      .as()
      .put(`/api/workspaces/${workspaceId}/integrations/razorpay`)
      .send({ key_id: FAKE_RAZORPAY_KEY.keyId, key_secret: FAKE_RAZORPAY_KEY.keySecret, webhook_secret: FAKE_RAZORPAY_WEBHOOK_SECRET })
      .expect(200);
    await api
      .as()
      .put(`/api/workspaces/${workspaceId}/integrations/stripe`)
      .send({ publishable_key: FAKE_STRIPE_KEYS.publishableKey, secret_key: FAKE_STRIPE_KEYS.secretKey, webhook_secret: FAKE_STRIPE_KEYS.webhookSecret })
      .expect(200);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await fakes?.stop();
    expect(offLoopback).toEqual([]);
  });

  async function publish(draft: object): Promise<string> {
    const { body } = await api.as().post('/api/v1/forms').send({ workspaceId, draftSchema: draft }).expect(201);
    return (await api.as().post(`/api/v1/forms/${body.data.id}/publish`).send({}).expect(200)).body.data.public_id as string;
  }

  /** Opens the form, answers the first step and moves to the payment step. */
  async function toPaymentStep(publicId: string, tickets: string, width = 1024): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 800 }, reducedMotion: 'reduce' });
    page.on('request', (request) => {
      if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(request.url())) offLoopback.push(request.url());
    });
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${origin}/f/${publicId}`);
    await page.getByRole('textbox', { name: 'Your name' }).fill('Ada Lovelace');
    await page.getByRole('spinbutton', { name: 'Tickets' }).fill(tickets);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(errors).toEqual([]);
    return page;
  }

  const status = (page: Page) => page.locator('[data-field="fld_pay"] .payment-status');

  async function submitted(page: Page): Promise<Record<string, unknown>> {
    await page.getByRole('button', { name: 'Send my order' }).click();
    await page.locator('#hosted-form').waitFor({ state: 'hidden' });
    const rows = await api.app.get(FormsPrisma).formSubmission.findMany({ orderBy: { created_at: 'desc' }, take: 1 });
    return (rows[0].record as { submission: { payments: Array<Record<string, unknown>> } }).submission.payments[0];
  }

  async function recorded(orderId: string): Promise<Record<string, unknown>> {
    const payment = await api.app.get(FormsPrisma).formPayment.findFirstOrThrow({ where: { provider_order_id: orderId } });
    const row = await api.app.get(FormsPrisma).formSubmission.findUniqueOrThrow({ where: { id: payment.submission_id ?? '' } });
    return (row.record as { submission: { payments: Array<Record<string, unknown>> } }).submission.payments[0];
  }

  it('Razorpay: the checkout’s signature is verified and the submission is recorded paid', async () => {
    const page = await toPaymentStep(await publish(ticketDraft('razorpay', 'INR', true)), '3');
    await expect(page.locator('[data-field="fld_pay"] .payment-amount').textContent()).resolves.toBe('₹3.00');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'payment-step-razorpay.png') });
    // A required payment holds the form back until it is made.
    await page.getByRole('button', { name: 'Send my order' }).click();
    await page.locator('[id="f.fld_pay.error"]', { hasText: 'Please complete the payment to continue.' }).waitFor();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.locator('#fake-razorpay-checkout').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'payment-razorpay-checkout.png') });
    await page.locator('#fake-razorpay-checkout').getByRole('button', { name: 'Pay' }).click();
    await status(page).filter({ hasText: 'Payment received. Thank you!' }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'payment-step-paid.png') });
    const payment = await submitted(page);
    expect(payment).toMatchObject({ status: 'paid', provider: 'razorpay', amount: 300, currency: 'INR' });
    expect(razorpay.payments.get(payment.paymentId as string)?.status).toBe('captured');
    await page.close();
  });

  it('Stripe: the confirmed PaymentIntent is read back and the submission is recorded paid', async () => {
    const page = await toPaymentStep(await publish(ticketDraft('stripe', 'JPY', true)), '2');
    await expect(page.locator('[data-field="fld_pay"] .payment-amount').textContent()).resolves.toBe('¥2');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await status(page).filter({ hasText: 'Enter your card details, then confirm the payment.' }).waitFor();
    await page.locator('#fake-stripe-card').fill(STRIPE_CARDS.succeeds);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'payment-stripe-card.png') });
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    await status(page).filter({ hasText: 'Payment received. Thank you!' }).waitFor();
    const payment = await submitted(page);
    expect(payment).toMatchObject({ status: 'paid', provider: 'stripe', amount: 2, currency: 'JPY' });
    expect(stripe.intents.get(payment.orderId as string)?.status).toBe('succeeded');
    await page.close();
  });

  it('a declined Stripe payment is submitted pending, and the failure webhook marks it failed', async () => {
    const page = await toPaymentStep(await publish(ticketDraft('stripe', 'EUR', false)), '4', 390);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'payment-step-mobile.png'), fullPage: true });
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.locator('#fake-stripe-card').fill(STRIPE_CARDS.declined);
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    await status(page).filter({ hasText: 'Your card was declined.' }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'payment-declined.png') });
    const payment = await submitted(page);
    expect(payment).toMatchObject({ status: 'pending', provider: 'stripe', amount: 400 });
    const event = stripe.webhook('payment_intent.payment_failed', payment.orderId as string);
    const url = `/api/payments/stripe/webhook?workspace_id=${workspaceId}`;
    await api.as('').post(url).set({ 'content-type': 'application/json', 'stripe-signature': event.signature }).send(event.body).expect(200);
    await api.as('').post(url).set({ 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }).send(event.body).expect(400);
    expect(await recorded(payment.orderId as string)).toMatchObject({ status: 'failed' });
    await page.close();
  });

  it('a Razorpay payment made after the respondent gave up is settled paid by the webhook, once', async () => {
    const page = await toPaymentStep(await publish(ticketDraft('razorpay', 'INR', false)), '5');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.locator('#fake-razorpay-checkout').getByRole('button', { name: 'Close' }).click();
    await status(page).filter({ hasText: 'The payment window was closed before paying.' }).waitFor();
    const payment = await submitted(page);
    expect(payment).toMatchObject({ status: 'pending', provider: 'razorpay', amount: 500 });
    // The money arrives later (UPI approved on the phone): Razorpay captures it and calls the webhook, twice.
    const captured = razorpay.capture(payment.orderId as string);
    const event = razorpay.webhook('payment.captured', payment.orderId as string, captured.id);
    const headers = { 'content-type': 'application/json', 'x-razorpay-signature': event.signature, 'x-razorpay-event-id': 'evt_late_1' };
    const url = `/api/payments/razorpay/webhook?workspace_id=${workspaceId}`;
    expect((await api.as('').post(url).set(headers).send(event.body).expect(200)).body.data.duplicate).toBe(false);
    expect((await api.as('').post(url).set(headers).send(event.body).expect(200)).body.data.duplicate).toBe(true);
    expect(await recorded(payment.orderId as string)).toMatchObject({ status: 'paid', paymentId: captured.id });
    await page.close();
  });
});
