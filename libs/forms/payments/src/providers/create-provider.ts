import type { PaymentSettings } from '@shared/config';
import { isLoopbackHost } from '@shared/core';
import { FormsErrors } from '@forms/contracts';
import type { PaymentProvider, PaymentProviderName, ProviderCredentials } from './payment-provider';

/**
 * The provider's SDK client for one workspace's credentials, aimed at the configured base URL. Each SDK is loaded on
 * first use, so a process that takes no payment (forms-worker) carries neither: about 4 MB of heap together.
 */
export async function createPaymentProvider(
  name: PaymentProviderName,
  credentials: ProviderCredentials,
  settings: PaymentSettings,
  allowNonLoopbackHosts: boolean,
): Promise<PaymentProvider> {
  const baseUrl = name === 'razorpay' ? settings.razorpayApiBaseUrl : settings.stripeApiBaseUrl;
  if (!allowNonLoopbackHosts && !isLoopbackHost(new URL(baseUrl).hostname)) {
    throw FormsErrors.fail(
      'payment_provider_error',
      `This server connects only to loopback addresses (ALLOW_NON_LOOPBACK_HOSTS is off, as it is outside production), so it cannot reach ${name}.`,
      {
        details: { reason: 'non_loopback_host_refused' },
      },
    );
  }
  const endpoint = { timeoutMs: settings.timeoutMs, baseUrl };
  if (name === 'razorpay') return new (await import('./razorpay-provider')).RazorpayProvider(credentials, endpoint);
  return new (await import('./stripe-provider')).StripeProvider(credentials, endpoint);
}
