import { createHmac } from 'node:crypto';
import { FakeAnswer, FakeCall, FakeHttpServer, json } from './fake-server.fixture';

export const FAKE_RAZORPAY_KEY = { keyId: 'rzp_test_FakeKey0001', keySecret: 'fake_razorpay_key_secret_1' };
export const FAKE_RAZORPAY_WEBHOOK_SECRET = 'fake_razorpay_webhook_secret';

interface FakeOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
}

/** Razorpay's error body: `{error: {code, description, source, step, reason, metadata, field?}}`. */
const razorpayError = (status: number, description: string, field?: string): FakeAnswer =>
  json(status, { error: { code: 'BAD_REQUEST_ERROR', description, source: 'NA', step: 'NA', reason: 'NA', metadata: {}, ...(field ? { field } : {}) } });

/**
 * Razorpay's Orders API (`POST /v1/orders`, `GET /v1/orders/:id`, Basic auth with the key id and secret) and a tiny
 * Checkout (`/v1/checkout.js`) that stands in for the real one: `new Razorpay(options).open()` shows Pay and Fail
 * buttons; Pay captures the order here and calls `handler` with the signed ids, Fail calls the `payment.failed`
 * listeners with Razorpay's error object.
 */
export class FakeRazorpay extends FakeHttpServer {
  readonly orders = new Map<string, FakeOrder>();
  readonly payments = new Map<string, { id: string; order_id: string; status: 'captured' | 'failed' }>();

  constructor(private readonly keys: Record<string, string> = { [FAKE_RAZORPAY_KEY.keyId]: FAKE_RAZORPAY_KEY.keySecret }) {
    super();
  }

  get checkoutScriptUrl(): string {
    return `${this.baseUrl}/v1/checkout.js`;
  }

  /** The checkout's signature for an order and payment, as Razorpay computes it. */
  signature(orderId: string, paymentId: string, keySecret = FAKE_RAZORPAY_KEY.keySecret): string {
    return createHmac('sha256', keySecret).update(`${orderId}|${paymentId}`).digest('hex');
  }

  /** A payment captured for the order without the browser (the money arrived after the respondent gave up). */
  capture(orderId: string): { id: string; order_id: string; status: 'captured' } {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const payment = { id: this.nextId('pay'), order_id: orderId, status: 'captured' as const };
    this.payments.set(payment.id, payment);
    Object.assign(order, { status: 'paid', amount_paid: order.amount, amount_due: 0, attempts: order.attempts + 1 });
    return payment;
  }

  /** A webhook body as Razorpay sends it for a payment event, and its `X-Razorpay-Signature`. */
  webhook(event: 'payment.captured' | 'payment.failed' | 'order.paid', orderId: string, paymentId: string, secret = FAKE_RAZORPAY_WEBHOOK_SECRET) {
    const order = this.orders.get(orderId);
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_Fake0000000001',
      event,
      contains: ['payment'],
      payload: {
        payment: {
          entity: {
            id: paymentId,
            entity: 'payment',
            amount: order?.amount ?? 0,
            currency: order?.currency ?? 'INR',
            status: event === 'payment.failed' ? 'failed' : 'captured',
            order_id: orderId,
            method: 'upi',
            captured: event !== 'payment.failed',
            error_code: event === 'payment.failed' ? 'BAD_REQUEST_ERROR' : null,
            error_description: event === 'payment.failed' ? 'Payment was declined by the bank.' : null,
          },
        },
      },
      created_at: Math.floor(Date.now() / 1000),
    });
    return { body, signature: createHmac('sha256', secret).update(body).digest('hex') };
  }

  protected answer(call: FakeCall): FakeAnswer {
    const path = call.path.split('?')[0];
    if (call.method === 'GET' && path === '/v1/checkout.js') return { status: 200, body: checkoutScript(this.baseUrl), contentType: 'text/javascript' };
    if (call.method === 'POST' && path.startsWith('/v1/checkout/')) return this.checkout(path.slice('/v1/checkout/'.length), JSON.parse(call.body || '{}'));
    if (!this.authorised(call.headers.authorization)) return razorpayError(401, 'Authentication failed');
    if (call.method === 'POST' && path === '/v1/orders') return this.createOrder(JSON.parse(call.body || '{}') as Record<string, unknown>);
    const order = /^\/v1\/orders\/([\w-]+)$/.exec(path);
    if (call.method === 'GET' && order)
      return this.orders.has(order[1]) ? json(200, this.orders.get(order[1])) : razorpayError(400, 'The id provided does not exist');
    return razorpayError(400, 'The requested URL was not found on the server.');
  }

  private authorised(header: string | undefined): boolean {
    const [scheme, encoded] = (header ?? '').split(' ');
    if (scheme !== 'Basic' || !encoded) return false;
    const [keyId, secret] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
    return this.keys[keyId] !== undefined && this.keys[keyId] === secret;
  }

  private createOrder(body: Record<string, unknown>): FakeAnswer {
    if (!Number.isInteger(body.amount)) return razorpayError(400, 'The amount must be an integer.', 'amount');
    if ((body.amount as number) < 100) return razorpayError(400, 'Order amount less than minimum amount allowed', 'amount');
    if (typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency)) return razorpayError(400, 'Currency is not supported', 'currency');
    const order: FakeOrder = {
      id: this.nextId('order'),
      entity: 'order',
      amount: body.amount as number,
      amount_paid: 0,
      amount_due: body.amount as number,
      currency: body.currency,
      receipt: typeof body.receipt === 'string' ? body.receipt : null,
      status: 'created',
      attempts: 0,
      notes: (body.notes as Record<string, string>) ?? {},
      created_at: Math.floor(Date.now() / 1000),
    };
    this.orders.set(order.id, order);
    return json(200, order);
  }

  /** What the stand-in Checkout asks of its server: capture (signed ids) or a declined attempt. */
  private checkout(action: string, body: { key_id?: string; order_id?: string }): FakeAnswer {
    const order = body.order_id ? this.orders.get(body.order_id) : undefined;
    const secret = body.key_id ? this.keys[body.key_id] : undefined;
    if (!order || !secret) return razorpayError(400, 'Invalid order or key');
    if (action === 'pay') {
      const payment = this.capture(order.id);
      return json(200, { razorpay_payment_id: payment.id, razorpay_order_id: order.id, razorpay_signature: this.signature(order.id, payment.id, secret) });
    }
    const payment = { id: this.nextId('pay'), order_id: order.id, status: 'failed' as const };
    this.payments.set(payment.id, payment);
    order.status = 'attempted';
    order.attempts += 1;
    return json(200, {
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: 'Payment was declined by the bank.',
        source: 'bank',
        step: 'payment_authorization',
        reason: 'payment_failed',
        metadata: { order_id: order.id, payment_id: payment.id },
      },
    });
  }
}

/** The stand-in Checkout: the real one's constructor, `open` and `on('payment.failed')`, in a plain overlay. */
function checkoutScript(baseUrl: string): string {
  return `(function () {
  var base = ${JSON.stringify(baseUrl)};
  function Razorpay(options) { this.options = options; this.failed = []; }
  Razorpay.prototype.on = function (event, callback) { if (event === 'payment.failed') this.failed.push(callback); };
  Razorpay.prototype.open = function () {
    var self = this, o = this.options;
    var overlay = document.createElement('div');
    overlay.id = 'fake-razorpay-checkout';
    overlay.setAttribute('role', 'dialog');
    overlay.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;z-index:9999';
    var box = document.createElement('div');
    box.style.cssText = 'background:#fff;padding:24px;border-radius:8px;font:16px sans-serif;min-width:260px';
    var title = document.createElement('p');
    title.textContent = 'Fake Razorpay Checkout: ' + (o.amount / 100).toFixed(2) + ' ' + o.currency;
    box.appendChild(title);
    function post(action) {
      return fetch(base + '/v1/checkout/' + action, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key_id: o.key, order_id: o.order_id }) })
        .then(function (r) { return r.json(); });
    }
    function button(label, action) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.style.margin = '4px';
      b.onclick = function () {
        if (action === 'dismiss') { overlay.remove(); if (o.modal && o.modal.ondismiss) o.modal.ondismiss(); return; }
        post(action).then(function (answer) {
          overlay.remove();
          if (action === 'pay') o.handler(answer); else self.failed.forEach(function (f) { f(answer); });
        });
      };
      box.appendChild(b);
    }
    button('Pay', 'pay');
    button('Fail', 'fail');
    button('Close', 'dismiss');
    overlay.appendChild(box);
    document.body.appendChild(overlay);
  };
  window.Razorpay = Razorpay;
})();`;
}
