import { CUSTOM_SMTP_DEFAULT_TIMEOUTS, CustomSmtpProvider, SMTP_SECURE_MODES, SmtpSecureMode } from './custom-smtp.provider';
import type { DeliveryProvider } from './delivery-provider';
import { AmazonSesProvider } from './hosted/amazon-ses.provider';
import { BrevoProvider } from './hosted/brevo.provider';
import type { HostedProviderOptions } from './hosted/hosted-provider';
import { MAILGUN_REGIONS, MailgunProvider } from './hosted/mailgun.provider';
import { PostmarkProvider } from './hosted/postmark.provider';
import { ResendProvider } from './hosted/resend.provider';
import { SendgridProvider } from './hosted/sendgrid.provider';
import { DeliveryProviderName, isDeliveryProvider, PROVIDER_DESCRIPTIONS } from './provider-settings';
import { ProviderSettingsError } from './provider-settings-error';

/** A connection's settings as stored: the public config and the opened secrets, keyed as `PROVIDER_DESCRIPTIONS` names them. */
export interface DeliveryProviderSettings {
  config: Record<string, unknown>;
  secrets: Record<string, string>;
}

export interface DeliveryProviderFactoryOptions {
  /** Per-provider API base URL overrides (config `DELIVERY_BASE_URL_*`); a provider without one uses its public API. */
  baseUrls?: Partial<Record<DeliveryProviderName, string>>;
  /** Whether hosts and base URLs other than loopback are allowed (config `ALLOW_NON_LOOPBACK_HOSTS`). */
  allowNonLoopbackHosts: boolean;
  /** Bounds each request's connect-and-send, then its wait for the answer (config `DELIVERY_PROVIDER_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** custom-smtp: sessions kept open and reused, at most this many (a sending worker's pool); unset, one per send. */
  smtpPoolSize?: number;
}

/** The factory options this deployment's configuration (`AppConfig`'s `delivery*` settings) sets. */
export const deliveryProviderOptions = (config: {
  allowNonLoopbackHosts: boolean;
  deliveryProviderBaseUrls: Partial<Record<DeliveryProviderName, string>>;
  deliveryProviderTimeoutMs: number;
}): DeliveryProviderFactoryOptions => ({
  allowNonLoopbackHosts: config.allowNonLoopbackHosts,
  baseUrls: config.deliveryProviderBaseUrls,
  timeoutMs: config.deliveryProviderTimeoutMs,
});

/**
 * The provider for a connection. Refuses, with a `ProviderSettingsError` naming the field, an unknown provider, a
 * missing required setting, a malformed one, and a host or base URL that is not loopback unless that is allowed.
 */
export function createDeliveryProvider(provider: string, settings: DeliveryProviderSettings, options: DeliveryProviderFactoryOptions): DeliveryProvider {
  if (!isDeliveryProvider(provider)) throw new ProviderSettingsError('provider', `Unknown delivery provider "${provider}"`);
  const values = readSettings(provider, settings);
  const { required, get } = values;
  const hosted: HostedProviderOptions = {
    baseUrl: options.baseUrls?.[provider],
    allowNonLoopbackHosts: options.allowNonLoopbackHosts,
    timeoutMs: options.timeoutMs,
  };
  switch (provider) {
    case 'custom-smtp':
      return customSmtp(values, options);
    case 'amazon-ses':
      return new AmazonSesProvider(
        { region: required('region'), access_key_id: required('access_key_id'), secret_access_key: required('secret_access_key') },
        hosted,
      );
    case 'postmark':
      return new PostmarkProvider(
        { server_token: required('server_token'), account_token: get('account_token'), message_stream: get('message_stream') },
        hosted,
      );
    case 'sendgrid':
      return new SendgridProvider({ api_key: required('api_key') }, hosted);
    case 'mailgun':
      return new MailgunProvider({ api_key: required('api_key'), domain: required('domain'), region: oneOf('region', get('region'), MAILGUN_REGIONS) }, hosted);
    case 'resend':
      return new ResendProvider({ api_key: required('api_key') }, hosted);
    case 'brevo':
      return new BrevoProvider({ api_key: required('api_key') }, hosted);
  }
}

interface SettingValues {
  /** A setting's value, `undefined` when an optional one is empty. */
  get: (key: string) => string | undefined;
  /** A required setting's value (already checked present). */
  required: (key: string) => string;
}

/**
 * Checks every required setting is there (secrets from `secrets`, the rest from `config`) and reads them trimmed (an
 * SMTP password as entered: spaces may be part of it). Messages name the setting, never its value.
 */
function readSettings(provider: DeliveryProviderName, settings: DeliveryProviderSettings): SettingValues {
  const values = new Map<string, string>();
  for (const setting of PROVIDER_DESCRIPTIONS[provider].settings) {
    const raw = setting.secret ? settings.secrets[setting.key] : settings.config[setting.key];
    if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number') {
      throw new ProviderSettingsError(setting.key, `${provider}: ${setting.key} must be text`);
    }
    const text = raw === undefined || raw === null ? '' : setting.key === 'password' ? String(raw) : String(raw).trim();
    if (text) values.set(setting.key, text);
    else if (setting.required) throw new ProviderSettingsError(setting.key, `${provider}: ${setting.key} is required`);
  }
  return { get: (key) => values.get(key), required: (key) => values.get(key) ?? '' };
}

function oneOf<T extends string>(field: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new ProviderSettingsError(field, `${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function customSmtp({ required, get }: SettingValues, options: DeliveryProviderFactoryOptions): CustomSmtpProvider {
  const host = required('host');
  const port = Number(required('port'));
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ProviderSettingsError('port', 'custom-smtp: port must be a whole number from 1 to 65535');
  const secureMode = oneOf<SmtpSecureMode>('secure_mode', required('secure_mode'), SMTP_SECURE_MODES);
  const timeoutMs = options.timeoutMs;
  const timeouts =
    timeoutMs === undefined
      ? {}
      : {
          connectionTimeoutMs: Math.min(timeoutMs, CUSTOM_SMTP_DEFAULT_TIMEOUTS.connectionTimeoutMs),
          greetingTimeoutMs: Math.min(timeoutMs, CUSTOM_SMTP_DEFAULT_TIMEOUTS.greetingTimeoutMs),
          socketTimeoutMs: timeoutMs,
        };
  return new CustomSmtpProvider(
    { host, port, secure_mode: secureMode ?? 'starttls', username: get('username'), password: get('password') },
    { allowNonLoopbackHosts: options.allowNonLoopbackHosts, poolSize: options.smtpPoolSize, ...timeouts },
  );
}
