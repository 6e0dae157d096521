import type { PaymentSettings } from '@shared/config';
import type { PaymentProvider, PaymentProviderName, ProviderCredentials } from './payment-provider';
import { RazorpayProvider } from './razorpay-provider';
import { StripeProvider } from './stripe-provider';

/** The provider's SDK client for one workspace's credentials, aimed at the configured base URL. */
export function createPaymentProvider(name: PaymentProviderName, credentials: ProviderCredentials, settings: PaymentSettings): PaymentProvider {
  return name === 'razorpay'
    ? new RazorpayProvider(credentials, { baseUrl: settings.razorpayApiBaseUrl, timeoutMs: settings.timeoutMs })
    : new StripeProvider(credentials, { baseUrl: settings.stripeApiBaseUrl, timeoutMs: settings.timeoutMs });
}
