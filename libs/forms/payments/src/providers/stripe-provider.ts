import Stripe from 'stripe';
import {
  headerValue,
  PaymentProvider,
  PaymentProviderFailure,
  PaymentWebhookEvent,
  ProviderCredentials,
  type CreatedOrder,
  type OrderRequest,
  type ProviderEndpoint,
  type VerifiedPayment,
} from './payment-provider';

/**
 * Stripe PaymentIntents through the official SDK: the intent is created with the secret key, the browser confirms it
 * with Stripe.js and its client secret, and the check reads the intent back with the secret key (Stripe gives the
 * browser no signature: the intent's own status is the proof). Webhooks are verified with `webhooks.constructEvent`.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly client: Stripe;

  constructor(
    private readonly credentials: ProviderCredentials,
    endpoint: ProviderEndpoint,
  ) {
    const url = new URL(endpoint.baseUrl);
    this.client = new Stripe(credentials.secretKey, {
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      protocol: url.protocol === 'http:' ? 'http' : 'https',
      timeout: endpoint.timeoutMs,
      maxNetworkRetries: 1,
      telemetry: false,
    });
  }

  async createOrder(order: OrderRequest): Promise<CreatedOrder> {
    try {
      const intent = await this.client.paymentIntents.create(
        { amount: order.amount, currency: order.currency.toLowerCase(), metadata: order.metadata, automatic_payment_methods: { enabled: true } },
        { idempotencyKey: order.reference },
      );
      return { orderId: intent.id, clientSecret: intent.client_secret };
    } catch (error) {
      throw providerFailure(error);
    }
  }

  async verifyCheckout(orderId: string, report: Record<string, unknown>): Promise<VerifiedPayment> {
    if (report.payment_intent !== orderId) {
      throw new PaymentProviderFailure('signature', 'The checkout report names another PaymentIntent than this order.');
    }
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.client.paymentIntents.retrieve(orderId);
    } catch (error) {
      throw providerFailure(error);
    }
    if (intent.status !== 'succeeded') {
      throw new PaymentProviderFailure('not_completed', `Stripe reports the payment as ${intent.status}.`, intent.status);
    }
    return { paymentId: chargeId(intent) ?? intent.id, amount: intent.amount_received || intent.amount, currency: intent.currency.toUpperCase() };
  }

  readWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentWebhookEvent {
    const signature = headerValue(headers, 'stripe-signature');
    const secret = this.credentials.webhookSecret;
    let event: Stripe.Event;
    try {
      if (!signature || !secret) throw new Error('no signature or secret');
      event = this.client.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw new PaymentProviderFailure('signature', 'Stripe-Signature is missing or does not match the body.');
    }
    const object = event.data.object as Partial<Stripe.PaymentIntent>;
    const isIntent = object.object === 'payment_intent';
    const outcome = event.type === 'payment_intent.succeeded' ? 'paid' : event.type === 'payment_intent.payment_failed' ? 'failed' : 'ignored';
    return {
      eventId: event.id,
      type: event.type,
      outcome: isIntent ? outcome : 'ignored',
      orderId: isIntent && typeof object.id === 'string' ? object.id : null,
      paymentId: isIntent ? (chargeId(object) ?? object.id ?? null) : null,
      amount: isIntent && typeof object.amount === 'number' ? object.amount : null,
      currency: isIntent && typeof object.currency === 'string' ? object.currency.toUpperCase() : null,
      failureReason: object.last_payment_error?.message ?? object.last_payment_error?.code ?? null,
    };
  }
}

function chargeId(intent: Partial<Stripe.PaymentIntent>): string | null {
  const charge = intent.latest_charge;
  return typeof charge === 'string' ? charge : (charge?.id ?? null);
}

function providerFailure(error: unknown): PaymentProviderFailure {
  if (error instanceof Stripe.errors.StripeError) {
    if (error instanceof Stripe.errors.StripeConnectionError) return new PaymentProviderFailure('provider', 'Stripe could not be reached.', 'unreachable');
    return new PaymentProviderFailure(
      'provider',
      `Stripe refused the request (${error.statusCode ?? 'no status'}): ${error.message}`,
      error.code ?? error.type,
    );
  }
  return new PaymentProviderFailure('provider', 'Stripe could not be reached.', 'unreachable');
}
