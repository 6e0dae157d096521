import { fakeProviderSettings } from '../testing/provider-fakes.fixture';
import { CustomSmtpProvider } from './custom-smtp.provider';
import { HostedProvider, HostedProviderName, retryAfterMs } from './hosted/hosted-provider';
import { createDeliveryProvider, deliveryProviderOptions } from './provider-factory';
import { ProviderSettingsError } from './provider-settings-error';

const HOSTED: HostedProviderName[] = ['amazon-ses', 'postmark', 'sendgrid', 'mailgun', 'resend', 'brevo'];

const PUBLIC_APIS: Record<HostedProviderName, string> = {
  'amazon-ses': 'https://email.eu-west-1.amazonaws.com/',
  postmark: 'https://api.postmarkapp.com/',
  sendgrid: 'https://api.sendgrid.com/',
  mailgun: 'https://api.mailgun.net/',
  resend: 'https://api.resend.com/',
  brevo: 'https://api.brevo.com/',
};

const refusal = (run: () => unknown): ProviderSettingsError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ProviderSettingsError) return error;
    throw error;
  }
  throw new Error('expected a ProviderSettingsError');
};

describe('createDeliveryProvider', () => {
  it.each(HOSTED)("%s: defaults to the provider's public API, which the loopback guard refuses unless non-loopback hosts are allowed", (name) => {
    const settings = fakeProviderSettings(name);
    expect(refusal(() => createDeliveryProvider(name, settings, { allowNonLoopbackHosts: false }))).toMatchObject({ field: 'base_url' });
    const provider = createDeliveryProvider(name, settings, { allowNonLoopbackHosts: true });
    expect(provider).toBeInstanceOf(HostedProvider);
    expect((provider as HostedProvider).baseUrl.href).toBe(PUBLIC_APIS[name]);
    expect(provider.provider).toBe(name);
  });

  it.each(HOSTED)('%s: takes a loopback base URL override, and refuses another host or scheme', (name) => {
    const settings = fakeProviderSettings(name);
    const at = (baseUrl: string, allowNonLoopbackHosts = false) =>
      createDeliveryProvider(name, settings, { baseUrls: { [name]: baseUrl }, allowNonLoopbackHosts });
    expect((at('http://127.0.0.1:4010/api') as HostedProvider).baseUrl.href).toBe('http://127.0.0.1:4010/api');
    expect((at('http://localhost:4010') as HostedProvider).baseUrl.host).toBe('localhost:4010');
    for (const url of ['https://api.example.com', 'http://10.0.0.5:8080', 'http://[2001:db8::1]/'])
      expect(refusal(() => at(url))).toMatchObject({ field: 'base_url' });
    expect(refusal(() => at('ftp://127.0.0.1', true))).toMatchObject({ field: 'base_url' });
    expect(refusal(() => at('not a url', true))).toMatchObject({ field: 'base_url' });
  });

  it.each(HOSTED)('%s: names each missing required setting, never quoting a secret', (name) => {
    const { config, secrets } = fakeProviderSettings(name);
    for (const key of Object.keys(secrets)) {
      const error = refusal(() => createDeliveryProvider(name, { config, secrets: { ...secrets, [key]: '  ' } }, { allowNonLoopbackHosts: true }));
      expect(error.field).toBe(key);
      for (const secret of Object.values(secrets)) expect(error.message).not.toContain(secret);
    }
    for (const key of Object.keys(config).filter((key) => config[key] !== null)) {
      expect(refusal(() => createDeliveryProvider(name, { config: { ...config, [key]: '' }, secrets }, { allowNonLoopbackHosts: true })).field).toBe(key);
    }
  });

  it('refuses an unknown provider', () => {
    expect(refusal(() => createDeliveryProvider('pigeon', { config: {}, secrets: {} }, { allowNonLoopbackHosts: true }))).toMatchObject({ field: 'provider' });
  });

  it('makes custom SMTP from the setup form values (a port as text), with its loopback guard and field checks', () => {
    const smtp = (config: Record<string, unknown>, allowNonLoopbackHosts = false) =>
      createDeliveryProvider(
        'custom-smtp',
        { config: { host: '127.0.0.1', port: '2525', secure_mode: 'none', ...config }, secrets: { password: ' p w ' } },
        { allowNonLoopbackHosts },
      );
    expect(smtp({})).toBeInstanceOf(CustomSmtpProvider);
    expect(smtp({ port: 587 })).toBeInstanceOf(CustomSmtpProvider);
    expect(refusal(() => smtp({ host: 'smtp.example.com' }))).toMatchObject({ field: 'host' });
    expect(smtp({ host: 'smtp.example.com', secure_mode: 'starttls' }, true)).toBeInstanceOf(CustomSmtpProvider);
    expect(refusal(() => smtp({ port: '70000' }))).toMatchObject({ field: 'port' });
    expect(refusal(() => smtp({ port: '25.5' }))).toMatchObject({ field: 'port' });
    expect(refusal(() => smtp({ secure_mode: 'ssl' }))).toMatchObject({ field: 'secure_mode' });
    expect(refusal(() => smtp({ host: { nested: true } }))).toMatchObject({ field: 'host' });
  });

  it("takes the deployment's delivery settings from the configuration", () => {
    expect(
      deliveryProviderOptions({
        allowNonLoopbackHosts: false,
        deliveryProviderBaseUrls: { postmark: 'http://127.0.0.1:1' },
        deliveryProviderTimeoutMs: 900,
      }),
    ).toEqual({ allowNonLoopbackHosts: false, baseUrls: { postmark: 'http://127.0.0.1:1' }, timeoutMs: 900 });
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads Retry-After in seconds or as an HTTP date', () => {
    expect(retryAfterMs({ 'retry-after': '3' }, now)).toBe(3_000);
    expect(retryAfterMs({ 'retry-after': '1.5' }, now)).toBe(1_500);
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, now)).toBe(10_000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now)).toBe(0);
  });

  it("falls back to the rate-limit reset headers: seconds to wait, or a Unix time (SendGrid's)", () => {
    expect(retryAfterMs({ 'ratelimit-reset': '4' }, now)).toBe(4_000);
    expect(retryAfterMs({ 'x-sib-ratelimit-reset': '60' }, now)).toBe(60_000);
    expect(retryAfterMs({ 'x-ratelimit-reset': String(now / 1000 + 30) }, now)).toBe(30_000);
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterMs({}, now)).toBeUndefined();
  });
});
