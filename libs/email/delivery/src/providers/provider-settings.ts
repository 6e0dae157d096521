/** The seven delivery providers a connection can use, by the contract's identifiers. */
export const DELIVERY_PROVIDERS = ['amazon-ses', 'postmark', 'sendgrid', 'mailgun', 'resend', 'brevo', 'custom-smtp'] as const;
export type DeliveryProviderName = (typeof DELIVERY_PROVIDERS)[number];

export const isDeliveryProvider = (value: unknown): value is DeliveryProviderName => DELIVERY_PROVIDERS.includes(value as DeliveryProviderName);

/** One setting a person enters on the setup page; `key` is the provider's config key and the form input's name. */
export interface ProviderSetting {
  key: string;
  label: string;
  required: boolean;
  /** Sealed at rest, never returned: the public config only says `has_<key>`. */
  secret: boolean;
  /** Only checks the provider's bounce and complaint webhooks: sealed, and not reported in the public config at all. */
  feedbackOnly?: boolean;
  kind: 'text' | 'port' | 'choice';
  choices?: readonly string[];
  hint?: string;
}

export interface ProviderDescription {
  name: DeliveryProviderName;
  title: string;
  settings: readonly ProviderSetting[];
}

const text = (key: string, label: string, required: boolean, hint?: string): ProviderSetting => ({ key, label, required, secret: false, kind: 'text', hint });
const secret = (key: string, label: string, required: boolean, hint?: string): ProviderSetting => ({ key, label, required, secret: true, kind: 'text', hint });
const apiKey = secret('api_key', 'API key', true);
const webhookKey = (label: string, hint: string): ProviderSetting => ({ ...secret('webhook_signing_key', label, false, hint), feedbackOnly: true });

/** What each provider needs (contract notes §8): the public settings echoed in `provider_config`, and the secrets. */
export const PROVIDER_DESCRIPTIONS: Readonly<Record<DeliveryProviderName, ProviderDescription>> = {
  'custom-smtp': {
    name: 'custom-smtp',
    title: 'Custom SMTP',
    settings: [
      text('host', 'SMTP host', true, 'For example smtp.example.com'),
      { key: 'port', label: 'Port', required: true, secret: false, kind: 'port', hint: '587 for STARTTLS, 465 for TLS' },
      { key: 'secure_mode', label: 'Security', required: true, secret: false, kind: 'choice', choices: ['starttls', 'tls', 'none'] },
      text('username', 'Username', false),
      secret('password', 'Password', false),
    ],
  },
  'amazon-ses': {
    name: 'amazon-ses',
    title: 'Amazon SES',
    settings: [
      text('region', 'AWS region', true, 'For example eu-west-1'),
      text('access_key_id', 'Access key ID', true),
      secret('secret_access_key', 'Secret access key', true),
    ],
  },
  postmark: {
    name: 'postmark',
    title: 'Postmark',
    settings: [
      secret('server_token', 'Server API token', true),
      secret('account_token', 'Account API token', false, 'Optional: lets us check the sender signature'),
      text('message_stream', 'Message stream', false, 'Leave empty for "broadcast"'),
    ],
  },
  sendgrid: {
    name: 'sendgrid',
    title: 'SendGrid',
    settings: [apiKey, webhookKey('Event webhook verification key', 'Optional: the public key of your signed event webhook, to record bounces and complaints')],
  },
  mailgun: {
    name: 'mailgun',
    title: 'Mailgun',
    settings: [
      apiKey,
      text('domain', 'Sending domain', true, 'For example mg.example.com'),
      { key: 'region', label: 'Region', required: false, secret: false, kind: 'choice', choices: ['us', 'eu'] },
      webhookKey('HTTP webhook signing key', 'Optional: to record bounces and complaints'),
    ],
  },
  resend: {
    name: 'resend',
    title: 'Resend',
    settings: [apiKey, webhookKey('Webhook signing secret', 'Optional: starts with whsec_, to record bounces and complaints')],
  },
  brevo: { name: 'brevo', title: 'Brevo', settings: [apiKey] },
};
