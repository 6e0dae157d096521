/// <reference lib="dom" />
/*
 * The payment step: the server prices an order from the answers, the provider's checkout script (Razorpay Checkout or
 * Stripe.js, from the URL the order names: the real ones in production, a local fake in tests) takes the payment, and
 * the server checks what the checkout reports before the submission may name the payment.
 */
import type { AnswerValue } from '@forms/draft-schema';

type Json = Record<string, unknown>;

export interface PaymentRequest {
  /** `/api/public/forms/<public_id>/payments/<provider>`. */
  baseUrl: string;
  provider: 'razorpay' | 'stripe';
  fieldId: string;
  answers: { values: Record<string, AnswerValue>; hiddenValues: Record<string, string> };
  /** Where Stripe.js mounts its payment element. */
  mount: HTMLElement;
  /** Stripe asks for the card first, then this button confirms; it is the Pay button, relabelled. */
  confirmButton: HTMLButtonElement;
  /** Where the step says what to do next. */
  status: HTMLElement;
  title: string;
}

export type PaymentOutcome =
  { status: 'paid'; paymentId: string; amount: number } | { status: 'unpaid'; paymentId: string | null; amount: number | null; message: string };

interface Order {
  payment_id: string;
  order_id: string;
  amount: number;
  currency: string;
  checkout: { script_url: string; key_id?: string; publishable_key?: string; client_secret?: string };
}

interface RazorpayCheckout {
  on(event: 'payment.failed', callback: (response: { error?: { description?: string } }) => void): void;
  open(): void;
}

interface StripeElements {
  create(type: 'payment'): { mount(target: HTMLElement): void };
}

interface StripeJs {
  elements(options: { clientSecret: string }): StripeElements;
  confirmPayment(options: { elements: StripeElements; redirect: 'if_required' }): Promise<{ paymentIntent?: { id: string }; error?: { message?: string } }>;
}

declare global {
  interface Window {
    Razorpay?: new (options: Json) => RazorpayCheckout;
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

const scripts = new Map<string, Promise<void>>();

function loadScript(url: string): Promise<void> {
  let loading = scripts.get(url);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('The payment page could not be loaded. Check your connection and try again.'));
      document.head.append(script);
    });
    loading.catch(() => scripts.delete(url));
    scripts.set(url, loading);
  }
  return loading;
}

async function postJson(url: string, body: unknown): Promise<{ ok: boolean; data: Json | null; message: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const reply = (await response.json().catch(() => null)) as { data?: Json; error?: { message?: unknown } } | null;
    const message =
      typeof reply?.error?.message === 'string' && response.status < 500 ? reply.error.message : 'The payment could not be processed. Please try again.';
    return { ok: response.ok, data: reply?.data ?? null, message };
  } catch {
    return { ok: false, data: null, message: 'Could not reach the server. Check your connection and try again.' };
  }
}

/** Runs the provider's checkout for an order of the amount due and has the server verify the outcome. */
export async function collectPayment(request: PaymentRequest): Promise<PaymentOutcome> {
  const created = await postJson(`${request.baseUrl}/order`, { ...request.answers, fieldId: request.fieldId });
  if (!created.ok || !created.data) return { status: 'unpaid', paymentId: null, amount: null, message: created.message };
  const order = created.data as unknown as Order;
  const unpaid = (message: string): PaymentOutcome => ({ status: 'unpaid', paymentId: order.payment_id, amount: order.amount, message });
  let report: Json | string;
  try {
    await loadScript(order.checkout.script_url);
    report = request.provider === 'razorpay' ? await razorpayCheckout(order, request.title) : await stripeCheckout(order, request);
  } catch (error) {
    return unpaid(error instanceof Error ? error.message : String(error));
  }
  if (typeof report === 'string') return unpaid(report);
  const verified = await postJson(`${request.baseUrl}/verify`, { payment_id: order.payment_id, ...report });
  return verified.ok ? { status: 'paid', paymentId: order.payment_id, amount: order.amount } : unpaid(verified.message);
}

/** Razorpay Checkout: resolves with its signed ids, or a message when the payment failed or the window was closed. */
function razorpayCheckout(order: Order, title: string): Promise<Json | string> {
  return new Promise((resolve) => {
    if (!window.Razorpay) throw new Error('The payment page could not be loaded.');
    const checkout = new window.Razorpay({
      key: order.checkout.key_id,
      order_id: order.order_id,
      amount: order.amount,
      currency: order.currency,
      name: title,
      handler: (response: Json) => resolve(response),
      modal: { ondismiss: () => resolve('The payment window was closed before paying.') },
    });
    checkout.on('payment.failed', (response) => resolve(response.error?.description ?? 'The payment failed.'));
    checkout.open();
  });
}

/** Stripe.js: mounts the payment element, waits for the Pay button, confirms without leaving the page. */
async function stripeCheckout(order: Order, request: PaymentRequest): Promise<Json | string> {
  if (!window.Stripe || !order.checkout.publishable_key || !order.checkout.client_secret) throw new Error('The payment page could not be loaded.');
  const stripe = window.Stripe(order.checkout.publishable_key);
  const elements = stripe.elements({ clientSecret: order.checkout.client_secret });
  elements.create('payment').mount(request.mount);
  request.mount.hidden = false;
  request.status.textContent = 'Enter your card details, then confirm the payment.';
  const label = request.confirmButton.textContent;
  request.confirmButton.textContent = 'Confirm payment';
  request.confirmButton.disabled = false;
  await new Promise<void>((resolve) => request.confirmButton.addEventListener('click', () => resolve(), { once: true }));
  request.confirmButton.disabled = true;
  request.confirmButton.textContent = label;
  const result = await stripe.confirmPayment({ elements, redirect: 'if_required' });
  if (result.error || !result.paymentIntent) return result.error?.message ?? 'The payment failed.';
  return { payment_intent: result.paymentIntent.id };
}
