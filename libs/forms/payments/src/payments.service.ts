import { Inject, Injectable, Logger } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import { DEFAULT_PAYMENT_PROVIDER, type PaymentField } from '@forms/draft-schema';
import type { PublishedForm } from '@forms/forms';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, IdGenerator, trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { currencyMinorDigits } from './minor-units';
import { ConnectedProvider, PaymentIntegrations } from './payment-integrations.service';
import { PaymentsRepository } from './payments.repository';
import { isPaymentProvider, PaymentProviderFailure, type PaymentProviderName } from './providers/payment-provider';
import type { PaymentRow } from './recorded-payment';

/** A payment field on the respondent's path and what it costs, recomputed on the server from the published form. */
export interface PaymentDue {
  field: PaymentField;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
}

/** What the browser's checkout needs: Razorpay Checkout's key and order, or Stripe.js's key and client secret. */
export type CheckoutView =
  | { provider: 'razorpay'; script_url: string; key_id: string; order_id: string }
  | { provider: 'stripe'; script_url: string; publishable_key: string; client_secret: string };

export interface OrderView {
  payment_id: string;
  field_id: string;
  provider: PaymentProviderName;
  order_id: string;
  amount: number;
  currency: string;
  /** The currency's ISO 4217 exponent: amount / 10^minor_digits is the amount in major units. */
  minor_digits: number;
  checkout: CheckoutView;
}

export interface PaymentView {
  payment_id: string;
  field_id: string;
  provider: PaymentProviderName;
  status: 'created' | 'paid' | 'failed';
  amount: number;
  currency: string;
}

/** The largest amount a stored order holds (a PostgreSQL integer of minor units). */
export const MAX_AMOUNT = 2_147_483_647;

/** The public runtime's payment orders and checks, and the providers' webhooks. */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger('PaymentsService');

  constructor(
    private readonly repository: PaymentsRepository,
    private readonly integrations: PaymentIntegrations,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The provider a path names: 404 `unknown_payment_provider` for anything but razorpay and stripe. */
  providerNamed(name: string): PaymentProviderName {
    if (!isPaymentProvider(name))
      throw FormsErrors.fail('unknown_payment_provider', `"${name}" is not a payment provider the service supports (razorpay, stripe).`);
    return name;
  }

  /** Creates the provider's order for the amount due and stores it; the browser's checkout pays it. */
  async createOrder(form: PublishedForm, provider: PaymentProviderName, due: PaymentDue): Promise<OrderView> {
    const connected = await this.connectedFor(form.workspaceId, provider, due.field);
    const minorDigits = currencyMinorDigits(due.currency);
    if (minorDigits === null)
      throw FormsErrors.invalid('unsupported_currency', `${due.currency} is not a currency payments can be taken in.`, `fields.${due.field.id}.currency`);
    if (due.amount > MAX_AMOUNT) throw FormsErrors.invalid('too_large', `The amount due is above ${MAX_AMOUNT} minor units.`, `fields.${due.field.id}.amount`);
    const id = this.ids.newId('fpay');
    const order = await this.call(() =>
      connected.client.createOrder({
        amount: due.amount,
        currency: due.currency,
        reference: id,
        metadata: { form_id: form.formId, public_id: form.publicId, field_id: due.field.id, payment_id: id },
      }),
    );
    const stored = await this.repository.insertPayment(form.workspaceId, {
      id,
      formId: form.formId,
      fieldId: due.field.id,
      provider,
      orderId: order.orderId,
      amount: due.amount,
      currency: due.currency,
      createdAt: this.clock.now(),
    });
    if (!stored) throw FormsErrors.notFound('form', form.publicId);
    const checkout: CheckoutView =
      provider === 'razorpay'
        ? { provider, script_url: this.config.payments.razorpayCheckoutScriptUrl, key_id: connected.publicKey, order_id: order.orderId }
        : { provider, script_url: this.config.payments.stripeJsUrl, publishable_key: connected.publicKey, client_secret: order.clientSecret ?? '' };
    return {
      payment_id: id,
      field_id: due.field.id,
      provider,
      order_id: order.orderId,
      amount: due.amount,
      currency: due.currency,
      minor_digits: minorDigits,
      checkout,
    };
  }

  /**
   * Checks what the checkout reported (Razorpay's signature; Stripe's intent read back with the secret key) and marks
   * the order paid. Repeating it for a paid order answers the same.
   */
  async verify(form: PublishedForm, provider: PaymentProviderName, body: unknown): Promise<PaymentView> {
    const report = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const paymentId = report.payment_id;
    if (typeof paymentId !== 'string' || paymentId === '' || paymentId.length > 100) {
      throw FormsErrors.invalid('validation_failed', 'payment_id must be the id the order endpoint returned.', 'payment_id');
    }
    const row = await this.repository.payment(form.workspaceId, form.formId, paymentId);
    if (!row || row.provider !== provider) throw FormsErrors.notFound('payment', paymentId);
    if (row.status === 'paid') return view(row);
    const connected = await this.integrations.provider(form.workspaceId, provider);
    if (!connected) throw notConnected(provider);
    const verified = await this.call(() => connected.client.verifyCheckout(row.provider_order_id, report));
    if (verified.amount !== null && (verified.amount !== row.amount || verified.currency !== row.currency)) {
      throw FormsErrors.fail('payment_amount_mismatch', 'The provider reports another amount or currency than this order was made for.');
    }
    const settled = await this.repository.settle(form.workspaceId, provider, row.provider_order_id, {
      status: 'paid',
      paymentId: verified.paymentId,
      at: this.clock.now(),
    });
    return view(settled ?? row);
  }

  /**
   * A provider's webhook for the workspace its URL names: verified with that workspace's webhook secret, applied once
   * per provider event id. Paid events mark late payments paid, failure events mark unpaid orders failed; the
   * submission an order is on follows.
   */
  async webhook(
    provider: PaymentProviderName,
    workspaceParam: string | undefined,
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<{ received: true; duplicate: boolean; outcome: string }> {
    if (!workspaceParam || !/^[\w-]{1,100}$/.test(workspaceParam)) {
      throw FormsErrors.invalid('validation_failed', 'workspace_id must name the workspace, as the integration’s webhook_url does.', 'workspace_id');
    }
    // Only a lookup key until the signature, made with this workspace's own secret, proves the sender.
    const workspaceId = trustedWorkspaceId(workspaceParam);
    const connected = await this.integrations.provider(workspaceId, provider);
    if (!connected?.hasWebhookSecret) {
      throw FormsErrors.fail('payment_webhook_not_configured', `This workspace has no ${provider} webhook secret configured.`);
    }
    let event;
    try {
      event = connected.client.readWebhook(rawBody, headers);
    } catch (error) {
      if (error instanceof PaymentProviderFailure) throw FormsErrors.fail('payment_webhook_signature_invalid', error.message);
      throw error;
    }
    const { orderId } = event;
    const first = await this.repository.onceForEvent(
      { provider, eventId: event.eventId, type: event.type, workspaceId, at: this.clock.now() },
      async (client) => {
        if (event.outcome === 'ignored' || !orderId) return;
        const at = this.clock.now();
        const verdict =
          event.outcome === 'paid'
            ? { status: 'paid' as const, paymentId: event.paymentId, at }
            : { status: 'failed' as const, reason: event.failureReason, at };
        const row = await this.repository.settle(workspaceId, provider, orderId, verdict, client);
        if (row && event.outcome === 'paid' && event.amount !== null && event.amount !== row.amount) {
          this.logger.warn(`${provider} event ${event.eventId} paid ${event.amount} for order ${orderId}, which is for ${row.amount}`);
        }
      },
    );
    return { received: true, duplicate: !first, outcome: event.outcome };
  }

  /** The field's provider, connected in the workspace, on a plan that takes payments. */
  private async connectedFor(workspaceId: WorkspaceId, provider: PaymentProviderName, field: PaymentField): Promise<ConnectedProvider> {
    const plan = await this.repository.workspacePlan(workspaceId);
    if (plan !== 'pro' && plan !== 'business') {
      throw FormsErrors.fail('payments_require_pro', 'This form cannot take payments right now: its workspace is not on the Pro or Business plan.');
    }
    const fieldProvider = field.provider ?? DEFAULT_PAYMENT_PROVIDER;
    if (fieldProvider !== provider) {
      throw FormsErrors.fail('payment_provider_not_connected', `This payment is collected with ${fieldProvider}, not ${provider}.`);
    }
    const connected = await this.integrations.provider(workspaceId, provider);
    if (!connected) throw notConnected(provider);
    return connected;
  }

  /** A provider call, its failures as envelopes: the provider's code in `details.reason`, never its raw answer. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof PaymentProviderFailure)) throw error;
      if (error.kind === 'signature') throw FormsErrors.fail('payment_signature_invalid', error.message);
      if (error.kind === 'not_completed') throw FormsErrors.fail('payment_not_completed', error.message, { details: { reason: error.reason ?? undefined } });
      this.logger.warn(error.message);
      throw FormsErrors.fail('payment_provider_error', 'The payment provider refused or failed the request; please try again.', {
        details: { reason: error.reason ?? 'provider_error' },
      });
    }
  }
}

const notConnected = (provider: PaymentProviderName) =>
  FormsErrors.fail('payment_provider_not_connected', `This form’s workspace has not connected ${provider}, so it cannot take this payment.`);

function view(row: PaymentRow): PaymentView {
  return { payment_id: row.id, field_id: row.field_id, provider: row.provider, status: row.status, amount: row.amount, currency: row.currency };
}
