import type { PaymentProviderName } from './providers/payment-provider';

/**
 * A payment field's entry in a stored submission record (`submission.payments`). `unpaid`: no checkout was started;
 * `pending`: an order exists but no payment was verified yet (a late one is reconciled by the provider's webhook);
 * `paid`; `failed`.
 */
export interface RecordedPayment {
  fieldId: string;
  /** Minor units of `currency` (ISO 4217 exponent). */
  amount: number;
  currency: string;
  status: 'unpaid' | 'pending' | 'paid' | 'failed';
  provider?: PaymentProviderName;
  /** Our payment id (`fpay_…`), as the order and verify endpoints return it. */
  paymentRef?: string;
  /** The provider's order id (Razorpay order, Stripe PaymentIntent) and payment id. */
  orderId?: string;
  paymentId?: string | null;
  paidAt?: string | null;
}

/** The stored order states as a record's payment status. */
export const RECORDED_STATUS = { created: 'pending', paid: 'paid', failed: 'failed' } as const satisfies Record<PaymentRowStatus, RecordedPayment['status']>;

export type PaymentRowStatus = 'created' | 'paid' | 'failed';

/** A `form_payments` row as the services read it. */
export interface PaymentRow {
  id: string;
  form_id: string;
  field_id: string;
  provider: PaymentProviderName;
  provider_order_id: string;
  provider_payment_id: string | null;
  amount: number;
  currency: string;
  status: PaymentRowStatus;
  failure_reason: string | null;
  submission_id: string | null;
  paid_at: Date | null;
}

/** The record entry for a payment row. */
export function recordedPayment(row: PaymentRow): RecordedPayment {
  return {
    fieldId: row.field_id,
    amount: row.amount,
    currency: row.currency,
    status: RECORDED_STATUS[row.status],
    provider: row.provider,
    paymentRef: row.id,
    orderId: row.provider_order_id,
    paymentId: row.provider_payment_id,
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
  };
}
