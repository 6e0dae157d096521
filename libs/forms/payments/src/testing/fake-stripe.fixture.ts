import Stripe from 'stripe';
import { FakeAnswer, FakeCall, FakeHttpServer, json } from './fake-server.fixture';

export const FAKE_STRIPE_KEYS = {
  publishableKey: 'pk_test_FakePublishable01',
  secretKey: 'sk_test_FakeSecret000001',
  webhookSecret: 'whsec_FakeWebhookSecret01',
};
export const STRIPE_CARDS = { succeeds: '4242424242424242', declined: '4000000000000002' };

interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'processing' | 'succeeded';
  client_secret: string;
  metadata: Record<string, string>;
  latest_charge: string | null;
  last_payment_error: { type: string; code: string; decline_code: string; message: string } | null;
  created: number;
  livemode: false;
}

/** Stripe's error body: `{error: {type, code?, param?, message}}`. */
const stripeError = (status: number, error: Record<string, unknown>): FakeAnswer => json(status, { error });

/**
 * Stripe's PaymentIntents API (form-encoded bodies, `Idempotency-Key`, Bearer secret key; confirm with the publishable
 * key and client secret, as Stripe.js does) and a tiny Stripe.js (`/v3/`) standing in for the real one:
 * `Stripe(pk).elements({clientSecret}).create('payment').mount(el)` shows a card number box, and `confirmPayment`
 * confirms here: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.
 */
export class FakeStripe extends FakeHttpServer {
  readonly intents = new Map<string, FakeIntent>();
  private readonly idempotent = new Map<string, string>();

  get stripeJsUrl(): string {
    return `${this.baseUrl}/v3/`;
  }

  /** The intent succeeds without the browser (a late payment). */
  succeed(intentId: string): FakeIntent {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`no intent ${intentId}`);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: this.nextId('ch'), last_payment_error: null });
    return intent;
  }

  /** An event body for an intent, and its `Stripe-Signature` made with the SDK's own test helper. */
  webhook(
    type: 'payment_intent.succeeded' | 'payment_intent.payment_failed',
    intentId: string,
    secret = FAKE_STRIPE_KEYS.webhookSecret,
    eventId = this.nextId('evt'),
  ) {
    const intent = this.intents.get(intentId);
    const body = JSON.stringify({
      id: eventId,
      object: 'event',
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      type,
      livemode: false,
      data: {
        object:
          type === 'payment_intent.payment_failed'
            ? {
                ...intent,
                last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
              }
            : intent,
      },
    });
    return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
  }

  protected answer(call: FakeCall): FakeAnswer {
    const path = call.path.split('?')[0];
    if (call.method === 'GET' && path === '/v3/') return { status: 200, body: stripeJs(this.baseUrl), contentType: 'text/javascript' };
    const key = /^Bearer (\S+)$/.exec(call.headers.authorization ?? '')?.[1] ?? '';
    const confirm = /^\/v1\/payment_intents\/([\w]+)\/confirm$/.exec(path);
    if (call.method === 'POST' && confirm && key === FAKE_STRIPE_KEYS.publishableKey) return this.confirm(confirm[1], new URLSearchParams(call.body));
    if (key !== FAKE_STRIPE_KEYS.secretKey) {
      return stripeError(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}` });
    }
    if (call.method === 'POST' && path === '/v1/payment_intents') return this.create(new URLSearchParams(call.body), call.headers['idempotency-key']);
    const one = /^\/v1\/payment_intents\/([\w]+)$/.exec(path);
    if (call.method === 'GET' && one) {
      const intent = this.intents.get(one[1]);
      return intent
        ? json(200, intent)
        : stripeError(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'intent', message: `No such payment_intent: '${one[1]}'` });
    }
    return stripeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${call.method}: ${path}).` });
  }

  private create(form: URLSearchParams, idempotencyKey: string | string[] | undefined): FakeAnswer {
    const replay = typeof idempotencyKey === 'string' ? this.idempotent.get(idempotencyKey) : undefined;
    if (replay) return json(200, this.intents.get(replay));
    const amount = Number(form.get('amount'));
    if (!Number.isInteger(amount) || amount < 1) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_invalid_integer',
        param: 'amount',
        message: `Invalid integer: ${form.get('amount')}`,
      });
    }
    const currency = form.get('currency') ?? '';
    if (!/^[a-z]{3}$/.test(currency))
      return stripeError(400, { type: 'invalid_request_error', code: 'parameter_invalid_empty', param: 'currency', message: 'Invalid currency.' });
    const id = this.nextId('pi');
    const metadata = Object.fromEntries(
      [...form.entries()].flatMap(([name, value]) => (/^metadata\[(\w+)\]$/.exec(name) ? [[/^metadata\[(\w+)\]$/.exec(name)![1], value]] : [])),
    );
    const intent: FakeIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_Fake${id.slice(-6)}`,
      metadata,
      latest_charge: null,
      last_payment_error: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    this.intents.set(id, intent);
    if (typeof idempotencyKey === 'string') this.idempotent.set(idempotencyKey, id);
    return json(200, intent);
  }

  private confirm(id: string, form: URLSearchParams): FakeAnswer {
    const intent = this.intents.get(id);
    if (!intent || form.get('client_secret') !== intent.client_secret) {
      return stripeError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${id}'` });
    }
    const card = (form.get('payment_method_data[card][number]') ?? '').replace(/\s/g, '');
    if (card === STRIPE_CARDS.succeeds) return json(200, this.succeed(id));
    const declined = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
    intent.last_payment_error = declined;
    return stripeError(402, { ...declined, payment_intent: intent });
  }
}

/** The stand-in Stripe.js: `Stripe(pk)`, `elements({clientSecret}).create('payment').mount(el)`, `confirmPayment`. */
function stripeJs(baseUrl: string): string {
  return `(function () {
  var base = ${JSON.stringify(baseUrl)};
  window.Stripe = function (publishableKey) {
    return {
      elements: function (options) {
        var clientSecret = options.clientSecret, input;
        return {
          clientSecret: clientSecret,
          create: function () {
            return {
              mount: function (target) {
                var el = typeof target === 'string' ? document.querySelector(target) : target;
                var label = document.createElement('label');
                label.textContent = 'Card number (fake Stripe)';
                input = document.createElement('input');
                input.id = 'fake-stripe-card';
                input.inputMode = 'numeric';
                input.autocomplete = 'cc-number';
                input.placeholder = '4242 4242 4242 4242';
                label.appendChild(input);
                el.replaceChildren(label);
              }
            };
          },
          cardNumber: function () { return input ? input.value : ''; }
        };
      },
      confirmPayment: function (options) {
        var elements = options.elements, secret = elements.clientSecret, id = secret.split('_secret_')[0];
        var body = new URLSearchParams({ client_secret: secret, 'payment_method_data[type]': 'card', 'payment_method_data[card][number]': elements.cardNumber() });
        return fetch(base + '/v1/payment_intents/' + id + '/confirm', { method: 'POST', headers: { authorization: 'Bearer ' + publishableKey, 'content-type': 'application/x-www-form-urlencoded' }, body: body })
          .then(function (r) { return r.json(); })
          .then(function (answer) { return answer.error ? { error: answer.error } : { paymentIntent: answer }; });
      }
    };
  };
})();`;
}
