import { FakeRazorpay } from './fake-razorpay.fixture';
import { FakeStripe } from './fake-stripe.fixture';

export interface PaymentFakes {
  razorpay: FakeRazorpay;
  stripe: FakeStripe;
  /** The configuration that aims the SDKs and the hosted page's checkout scripts at the fakes. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Both providers' fakes, started on loopback. */
export async function startPaymentFakes(): Promise<PaymentFakes> {
  const razorpay = await new FakeRazorpay().start();
  const stripe = await new FakeStripe().start();
  return {
    razorpay,
    stripe,
    env: {
      RAZORPAY_API_BASE_URL: razorpay.baseUrl,
      RAZORPAY_CHECKOUT_SCRIPT_URL: razorpay.checkoutScriptUrl,
      STRIPE_API_BASE_URL: stripe.baseUrl,
      STRIPE_JS_URL: stripe.stripeJsUrl,
      PAYMENTS_PROVIDER_TIMEOUT_MS: '5000',
    },
    stop: async () => {
      await razorpay.stop();
      await stripe.stop();
    },
  };
}
