import type { DeliveryConnection } from '@email/data-access';

/** How fast, how much and over how many connections one delivery connection may send. */
export interface SendLimits {
  /** Messages per second across every worker replica (the token bucket's rate; its burst is one second's worth). */
  ratePerSecond: number;
  /** Concurrent provider connections (SMTP sessions, HTTP requests) per worker process. */
  connections: number;
  /** Messages per UTC day, where the account has such a quota; null: none. */
  dailyQuota: number | null;
}

/**
 * Each provider's defaults, from its documented limits where it has one (Resend: 2 requests/s; SES: 14/s for a new
 * production account) and a conservative figure where it has none. A connection's own settings override them.
 */
export const PROVIDER_SEND_DEFAULTS: Readonly<Record<string, SendLimits>> = {
  'custom-smtp': { ratePerSecond: 50, connections: 5, dailyQuota: null },
  'amazon-ses': { ratePerSecond: 14, connections: 10, dailyQuota: null },
  postmark: { ratePerSecond: 50, connections: 10, dailyQuota: null },
  sendgrid: { ratePerSecond: 100, connections: 10, dailyQuota: null },
  mailgun: { ratePerSecond: 100, connections: 10, dailyQuota: null },
  resend: { ratePerSecond: 2, connections: 2, dailyQuota: null },
  brevo: { ratePerSecond: 10, connections: 5, dailyQuota: null },
};

const FALLBACK: SendLimits = { ratePerSecond: 10, connections: 2, dailyQuota: null };

type LimitColumns = Pick<DeliveryConnection, 'send_rate_per_second' | 'send_connections' | 'daily_quota'>;

/** The defaults of a provider (a fallback for one this version does not know). */
export function providerSendDefaults(provider: string): SendLimits {
  return PROVIDER_SEND_DEFAULTS[provider] ?? FALLBACK;
}

/** The limits a connection sends under: its own settings where it has them, else its provider's defaults. */
export function sendLimitsOf(connection: Pick<DeliveryConnection, 'provider'> & LimitColumns): SendLimits {
  const defaults = providerSendDefaults(connection.provider);
  return {
    ratePerSecond: connection.send_rate_per_second ?? defaults.ratePerSecond,
    connections: connection.send_connections ?? defaults.connections,
    dailyQuota: connection.daily_quota ?? defaults.dailyQuota,
  };
}
