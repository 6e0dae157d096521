import { createHash } from 'node:crypto';
import Razorpay from 'razorpay';
import { validatePaymentVerification, validateWebhookSignature } from 'razorpay/dist/utils/razorpay-utils';
import {
  headerValue,
  PaymentProvider,
  PaymentProviderFailure,
  PaymentWebhookEvent,
  ProviderCredentials,
  type CreatedOrder,
  type ProviderEndpoint,
  type OrderRequest,
  type VerifiedPayment,
} from './payment-provider';

interface RazorpayEventPayload {
  event?: unknown;
  payload?: { payment?: { entity?: Record<string, unknown> }; order?: { entity?: Record<string, unknown> } };
}

const PAID_EVENTS = new Set(['payment.captured', 'order.paid']);

/**
 * Razorpay's orders → Checkout → signature flow through the official SDK: an order is created with the key id and
 * secret, the browser's Checkout returns `razorpay_payment_id`, `razorpay_order_id` and `razorpay_signature`, and the
 * signature is HMAC-SHA256(`order_id|payment_id`, key secret). Webhooks carry `X-Razorpay-Signature` (HMAC-SHA256 of
 * the raw body with the webhook secret) and `X-Razorpay-Event-Id`.
 */
export class RazorpayProvider implements PaymentProvider {
  readonly name = 'razorpay' as const;
  private readonly client: Razorpay;

  constructor(
    private readonly credentials: ProviderCredentials,
    endpoint: ProviderEndpoint,
  ) {
    this.client = new Razorpay({ key_id: credentials.publicKey, key_secret: credentials.secretKey });
    // The SDK names no base URL option; its requests go through this axios instance.
    const http = (this.client as unknown as { api: { rq: { defaults: { baseURL?: string; timeout?: number } } } }).api.rq;
    http.defaults.baseURL = endpoint.baseUrl;
    http.defaults.timeout = endpoint.timeoutMs;
  }

  async createOrder(order: OrderRequest): Promise<CreatedOrder> {
    try {
      const created = await this.client.orders.create({ amount: order.amount, currency: order.currency, receipt: order.reference, notes: order.metadata });
      return { orderId: created.id, clientSecret: null };
    } catch (error) {
      throw providerFailure(error);
    }
  }

  async verifyCheckout(orderId: string, report: Record<string, unknown>): Promise<VerifiedPayment> {
    const paymentId = report.razorpay_payment_id;
    const signature = report.razorpay_signature;
    if (typeof paymentId !== 'string' || typeof signature !== 'string' || report.razorpay_order_id !== orderId) {
      throw new PaymentProviderFailure('signature', 'The checkout report lacks the order id, payment id or signature of this order.');
    }
    if (!validatePaymentVerification({ order_id: orderId, payment_id: paymentId }, signature, this.credentials.secretKey)) {
      throw new PaymentProviderFailure('signature', 'The payment signature does not match this order and payment.');
    }
    return { paymentId, amount: null, currency: null };
  }

  readWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentWebhookEvent {
    const signature = headerValue(headers, 'x-razorpay-signature');
    const body = rawBody.toString('utf8');
    const secret = this.credentials.webhookSecret;
    if (!signature || !secret || !safeValidate(body, signature, secret)) {
      throw new PaymentProviderFailure('signature', 'X-Razorpay-Signature is missing or does not match the body.');
    }
    const event = JSON.parse(body) as RazorpayEventPayload;
    const type = typeof event.event === 'string' ? event.event : 'unknown';
    const payment = event.payload?.payment?.entity ?? {};
    const orderId = stringOrNull(payment.order_id) ?? stringOrNull(event.payload?.order?.entity?.id);
    return {
      // Razorpay's event id header; a body hash stands in for deliveries without one (the same body is the same event).
      eventId: headerValue(headers, 'x-razorpay-event-id') ?? `sha256:${createHash('sha256').update(rawBody).digest('hex')}`,
      type,
      outcome: PAID_EVENTS.has(type) ? 'paid' : type === 'payment.failed' ? 'failed' : 'ignored',
      orderId,
      paymentId: stringOrNull(payment.id),
      amount: typeof payment.amount === 'number' ? payment.amount : null,
      currency: stringOrNull(payment.currency),
      failureReason: stringOrNull(payment.error_description) ?? stringOrNull(payment.error_code),
    };
  }
}

function safeValidate(body: string, signature: string, secret: string): boolean {
  try {
    return validateWebhookSignature(body, signature, secret);
  } catch {
    return false;
  }
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The SDK rejects with `{statusCode, error: {code, description}}` for an API answer, or the transport's error. */
function providerFailure(error: unknown): PaymentProviderFailure {
  const answered = error as { statusCode?: unknown; error?: { code?: unknown; description?: unknown } };
  if (typeof answered?.statusCode === 'number') {
    const code = typeof answered.error?.code === 'string' ? answered.error.code : null;
    const description = typeof answered.error?.description === 'string' ? answered.error.description : 'no description';
    return new PaymentProviderFailure('provider', `Razorpay refused the request (${answered.statusCode}): ${description}`, code);
  }
  return new PaymentProviderFailure('provider', 'Razorpay could not be reached.', 'unreachable');
}
