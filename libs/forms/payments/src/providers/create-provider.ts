import type { PaymentSettings } from '@shared/config';
import type { PaymentProvider, PaymentProviderName, ProviderCredentials } from './payment-provider';

/**
 * The provider's SDK client for one workspace's credentials, aimed at the configured base URL. Each SDK is loaded on
 * first use, so a process that takes no payment (forms-worker) carries neither: about 4 MB of heap together.
 */
export async function createPaymentProvider(name: PaymentProviderName, credentials: ProviderCredentials, settings: PaymentSettings): Promise<PaymentProvider> {
  const endpoint = { timeoutMs: settings.timeoutMs };
  if (name === 'razorpay')
    return new (await import('./razorpay-provider')).RazorpayProvider(credentials, { ...endpoint, baseUrl: settings.razorpayApiBaseUrl });
  return new (await import('./stripe-provider')).StripeProvider(credentials, { ...endpoint, baseUrl: settings.stripeApiBaseUrl });
}
