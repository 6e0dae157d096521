import type { DeliveryOutcome, OutgoingMessage, VerifyResult } from '../delivery-provider';
import { ProviderSettingsError } from '../provider-settings-error';
import { Failure, HostedProvider, HostedProviderOptions } from './hosted-provider';
import type { HttpExchange, HttpResponse } from './http-transport';
import { asObject, bodyText, formatAddress, headersWithMessageId, invalidMessage, jsonObject, stringField } from './message-fields';

export const MAILGUN_REGIONS = ['us', 'eu'] as const;
export type MailgunRegion = (typeof MAILGUN_REGIONS)[number];

export interface MailgunConfig {
  api_key: string;
  domain: string;
  /** `us` (default) or `eu`: which of Mailgun's API hosts holds the domain. */
  region?: MailgunRegion | null;
}

const BASE_URLS: Record<MailgunRegion, string> = { us: 'https://api.mailgun.net', eu: 'https://api.eu.mailgun.net' };
const DOMAIN = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/**
 * `mailgun`: `POST /v3/{domain}/messages` (form fields, `h:` headers, `v:` variables) and `GET /v4/domains/{domain}`,
 * with HTTP basic auth `api:<key>`. No batch: Mailgun's batch sending is one body templated per recipient, and our
 * bodies already differ per recipient.
 */
export class MailgunProvider extends HostedProvider {
  constructor(
    private readonly config: MailgunConfig,
    options: HostedProviderOptions = {},
  ) {
    const region = config.region ?? 'us';
    if (!MAILGUN_REGIONS.includes(region)) throw new ProviderSettingsError('region', 'mailgun: region must be us or eu');
    if (!DOMAIN.test(config.domain)) throw new ProviderSettingsError('domain', 'mailgun: domain must be a domain name such as mg.example.com');
    const basic = Buffer.from(`api:${config.api_key}`).toString('base64');
    super('mailgun', BASE_URLS[region], [config.api_key, basic], options);
  }

  async send(message: OutgoingMessage): Promise<DeliveryOutcome> {
    const invalid = invalidMessage(message);
    if (invalid) return invalid;
    const form = new URLSearchParams({ from: formatAddress(message.from), to: message.to, subject: message.subject, text: message.text, html: message.html });
    for (const [name, value] of Object.entries(headersWithMessageId(message, 'Message-Id'))) form.append(`h:${name}`, value);
    for (const [name, value] of Object.entries(message.metadata ?? {})) form.append(`v:${name}`, value);
    const exchange = await this.postMessages(form);
    if (exchange.kind === 'failed') return this.noAnswer(exchange);
    if (exchange.status === 200) {
      const id = stringField(jsonObject(exchange.body), 'id');
      return { kind: 'accepted', providerMessageId: id?.replace(/^<|>$/g, '') ?? message.messageId };
    }
    return this.failure(exchange);
  }

  /**
   * `GET /v4/domains/{domain}`: the key works and the domain is there and verified. A domain sending key may not read
   * the domain; it is told from a bad key by a message request with no fields, which a valid key gets refused as
   * incomplete (400) and a bad key as unauthorized — nothing is sent either way.
   */
  async verify(): Promise<VerifyResult> {
    const exchange = await this.request('GET', `/v4/domains/${encodeURIComponent(this.config.domain)}`, this.auth());
    if (exchange.kind === 'failed') return this.verifyFailure(this.noAnswer(exchange));
    if (exchange.status === 200) {
      const state = stringField(asObject(jsonObject(exchange.body).domain), 'state');
      if (state && state !== 'active') {
        return { ok: false, kind: 'permanent', reason: this.reason('domain_not_active', `The domain ${this.config.domain} is ${state} in Mailgun`, 200) };
      }
      return { ok: true, inspection: 'available' };
    }
    if (exchange.status === 404) return this.verifyFailure(this.domainNotFound(exchange));
    if (exchange.status !== 401 && exchange.status !== 403) return this.verifyFailure(this.failure(exchange));
    const probe = await this.postMessages(new URLSearchParams());
    if (probe.kind === 'failed') return this.verifyFailure(this.noAnswer(probe));
    if (probe.status === 400) return { ok: true, inspection: 'unavailable' };
    return this.verifyFailure(this.failure(probe));
  }

  private auth() {
    return { authorization: `Basic ${Buffer.from(`api:${this.config.api_key}`).toString('base64')}` };
  }

  private postMessages(form: URLSearchParams): Promise<HttpExchange> {
    return this.request(
      'POST',
      `/v3/${encodeURIComponent(this.config.domain)}/messages`,
      { ...this.auth(), 'content-type': 'application/x-www-form-urlencoded' },
      form.toString(),
    );
  }

  private domainNotFound(response: HttpResponse): Failure {
    return { kind: 'permanent', reason: this.reason('domain_not_found', `Mailgun has no domain ${this.config.domain} for this key`, response.status) };
  }

  /** Mailgun's errors are `{ message }` (or a plain-text `Forbidden`); 403 is its word for a refused key. */
  private failure(response: HttpResponse): Failure {
    const message = stringField(jsonObject(response.body), 'message') ?? bodyText(response.body, response.status);
    if (response.status === 403 && /forbidden|unauthori[sz]ed|invalid private key/i.test(message)) {
      return { kind: 'permanent', reason: this.reason('authentication_failed', message, response.status) };
    }
    if (response.status === 404 && /domain/i.test(message)) return this.domainNotFound(response);
    return this.byStatus(response, `http_${response.status}`, message);
  }
}
