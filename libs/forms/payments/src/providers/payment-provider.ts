import { PAYMENT_PROVIDERS, type PaymentProviderName } from '@forms/draft-schema';

export type { PaymentProviderName };

export const isPaymentProvider = (value: string): value is PaymentProviderName => (PAYMENT_PROVIDERS as readonly string[]).includes(value);

/** A workspace's credentials for one provider, opened from their sealed form only for the call that needs them. */
export interface ProviderCredentials {
  /** Razorpay key id or Stripe publishable key: the browser's checkout uses it. */
  publicKey: string;
  /** Razorpay key secret or Stripe secret key. */
  secretKey: string;
  webhookSecret: string | null;
}

export interface OrderRequest {
  /** Minor units of `currency`. */
  amount: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** Our payment id: the provider's receipt / idempotency key, so a retried create makes one order. */
  reference: string;
  metadata: Record<string, string>;
}

export interface CreatedOrder {
  /** Razorpay order id or Stripe PaymentIntent id. */
  orderId: string;
  /** Stripe's PaymentIntent client secret, which Stripe.js confirms with; none for Razorpay. */
  clientSecret: string | null;
}

/** What the provider says was paid: the payment id, and the amount when the check reads it back from the provider. */
export interface VerifiedPayment {
  paymentId: string;
  amount: number | null;
  currency: string | null;
}

/** A verified webhook event reduced to what reconciliation needs; `outcome` is `ignored` for events of other kinds. */
export interface PaymentWebhookEvent {
  eventId: string;
  type: string;
  outcome: 'paid' | 'failed' | 'ignored';
  orderId: string | null;
  paymentId: string | null;
  amount: number | null;
  currency: string | null;
  failureReason: string | null;
}

/** Why a provider call or check failed, without credentials: mapped to 4xx/502 envelopes by the caller. */
export class PaymentProviderFailure extends Error {
  constructor(
    readonly kind: 'signature' | 'not_completed' | 'provider',
    message: string,
    /** The provider's own error code, when it gave one. */
    readonly reason: string | null = null,
  ) {
    super(message);
    this.name = 'PaymentProviderFailure';
  }
}

/**
 * One payment provider behind its official Node SDK: create the order the browser's checkout pays, check what the
 * checkout reports, and verify and read the provider's webhooks.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createOrder(order: OrderRequest): Promise<CreatedOrder>;
  /** Checks the checkout's report for `orderId` (a signature, or the provider's own record); throws PaymentProviderFailure. */
  verifyCheckout(orderId: string, report: Record<string, unknown>): Promise<VerifiedPayment>;
  /** Verifies the signature over the exact body with the webhook secret; throws PaymentProviderFailure('signature'). */
  readWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentWebhookEvent;
}

/** Where a provider's API is (the real one, or a local fake in tests) and how long a call may take. */
export interface ProviderEndpoint {
  baseUrl: string;
  timeoutMs: number;
}

/** A request header as one non-empty string, or null. */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
}
