import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { loadConfig } from '@shared/config';
import { createPaymentProvider } from './create-provider';
import { PaymentProviderFailure } from './payment-provider';
import { RazorpayProvider } from './razorpay-provider';
import { StripeProvider } from './stripe-provider';

const endpoint = { baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 };
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

describe('RazorpayProvider', () => {
  const provider = new RazorpayProvider({ publicKey: 'rzp_test_abcdef', secretKey: 'key_secret_1', webhookSecret: 'hook_secret_1' }, endpoint);

  it('accepts the checkout signature HMAC-SHA256(order_id|payment_id, key secret) and nothing else', async () => {
    const report = { razorpay_order_id: 'order_1', razorpay_payment_id: 'pay_1', razorpay_signature: hmac('key_secret_1', 'order_1|pay_1') };
    await expect(provider.verifyCheckout('order_1', report)).resolves.toEqual({ paymentId: 'pay_1', amount: null, currency: null });
    const refusals = [
      { ...report, razorpay_signature: hmac('another_secret', 'order_1|pay_1') },
      { ...report, razorpay_payment_id: 'pay_2' },
      { ...report, razorpay_order_id: 'order_2', razorpay_signature: hmac('key_secret_1', 'order_2|pay_1') },
      { razorpay_order_id: 'order_1', razorpay_payment_id: 'pay_1' },
    ];
    for (const forged of refusals) {
      await expect(provider.verifyCheckout('order_1', forged)).rejects.toMatchObject({ kind: 'signature' });
    }
  });

  it('reads a signed webhook and refuses one signed with another secret or altered', () => {
    const body = JSON.stringify({
      event: 'payment.captured',
      payload: { payment: { entity: { id: 'pay_1', order_id: 'order_1', amount: 500, currency: 'INR' } } },
    });
    const headers = { 'x-razorpay-signature': hmac('hook_secret_1', body), 'x-razorpay-event-id': 'evt_1' };
    expect(provider.readWebhook(Buffer.from(body), headers)).toMatchObject({
      eventId: 'evt_1',
      outcome: 'paid',
      orderId: 'order_1',
      paymentId: 'pay_1',
      amount: 500,
    });
    expect(() => provider.readWebhook(Buffer.from(body), { ...headers, 'x-razorpay-signature': hmac('other', body) })).toThrow(PaymentProviderFailure);
    expect(() => provider.readWebhook(Buffer.from(body.replace('500', '5')), headers)).toThrow(PaymentProviderFailure);
    expect(() => provider.readWebhook(Buffer.from(body), { 'x-razorpay-event-id': 'evt_1' })).toThrow(PaymentProviderFailure);
  });
});

describe('StripeProvider', () => {
  const provider = new StripeProvider({ publicKey: 'pk_test_abcdef', secretKey: 'sk_test_abcdef', webhookSecret: 'whsec_test_secret' }, endpoint);
  const intent = { id: 'pi_1', object: 'payment_intent', amount: 1999, currency: 'usd', latest_charge: 'ch_1', last_payment_error: null };
  const event = (type: string, object: object) => JSON.stringify({ id: 'evt_1', object: 'event', type, data: { object } });

  it('verifies webhooks with stripe.webhooks.constructEvent', () => {
    const body = event('payment_intent.succeeded', intent);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_test_secret' });
    expect(provider.readWebhook(Buffer.from(body), { 'stripe-signature': signature })).toMatchObject({
      eventId: 'evt_1',
      outcome: 'paid',
      orderId: 'pi_1',
      paymentId: 'ch_1',
      amount: 1999,
      currency: 'USD',
    });
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_other' });
    expect(() => provider.readWebhook(Buffer.from(body), { 'stripe-signature': wrong })).toThrow(PaymentProviderFailure);
    expect(() => provider.readWebhook(Buffer.from(body), {})).toThrow(PaymentProviderFailure);
  });

  it('maps failures and ignores events about other objects', () => {
    const failed = event('payment_intent.payment_failed', { ...intent, last_payment_error: { message: 'Your card was declined.' } });
    const signed = (body: string) => ({ 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_test_secret' }) });
    expect(provider.readWebhook(Buffer.from(failed), signed(failed))).toMatchObject({ outcome: 'failed', failureReason: 'Your card was declined.' });
    const charge = event('charge.succeeded', { id: 'ch_1', object: 'charge' });
    expect(provider.readWebhook(Buffer.from(charge), signed(charge))).toMatchObject({ outcome: 'ignored', orderId: null });
  });

  it('refuses a checkout report for another intent before asking Stripe', async () => {
    await expect(provider.verifyCheckout('pi_1', { payment_intent: 'pi_2' })).rejects.toMatchObject({ kind: 'signature' });
  });
});

describe('createPaymentProvider', () => {
  const credentials = { publicKey: 'pk_test_1', secretKey: 'sk_test_1', webhookSecret: null };
  const settings = loadConfig({ NODE_ENV: 'test' }).payments;

  it('outside production refuses a provider API off loopback (the public defaults), before any request', async () => {
    for (const name of ['stripe', 'razorpay'] as const) {
      await expect(createPaymentProvider(name, credentials, settings, false)).rejects.toMatchObject({
        code: 'payment_provider_error',
        details: { reason: 'non_loopback_host_refused' },
      });
      await expect(createPaymentProvider(name, credentials, settings, true)).resolves.toBeDefined();
    }
    const local = { ...settings, stripeApiBaseUrl: 'http://127.0.0.1:9', razorpayApiBaseUrl: 'http://localhost:9' };
    await expect(createPaymentProvider('stripe', credentials, local, false)).resolves.toBeInstanceOf(StripeProvider);
    await expect(createPaymentProvider('razorpay', credentials, local, false)).resolves.toBeInstanceOf(RazorpayProvider);
  });
});
