import type { DeliveryOutcome, OutgoingMessage, VerifyResult } from '../delivery-provider';
import { Failure, HostedProvider, HostedProviderOptions } from './hosted-provider';
import type { HttpResponse } from './http-transport';
import { bodyText, headersWithMessageId, invalidMessage, jsonObject, stringField } from './message-fields';

export interface BrevoConfig {
  api_key: string;
}

/**
 * `brevo`: `POST /v3/smtp/email` (201 `{ messageId }`) and `GET /v3/account`, with the `api-key` header. Errors are
 * `{ code, message }`; 429 carries `x-sib-ratelimit-reset`. No batch: Brevo's message versions cannot carry their own
 * headers, and every message has its own Message-ID and List-Unsubscribe.
 */
export class BrevoProvider extends HostedProvider {
  constructor(
    private readonly config: BrevoConfig,
    options: HostedProviderOptions = {},
  ) {
    super('brevo', 'https://api.brevo.com', [config.api_key], options);
  }

  async send(message: OutgoingMessage): Promise<DeliveryOutcome> {
    const invalid = invalidMessage(message);
    if (invalid) return invalid;
    const headers = headersWithMessageId(message);
    // Brevo returns X-Mailin-custom in its webhook events: our metadata travels there as `key:value|key:value`.
    if (message.metadata)
      headers['X-Mailin-custom'] = Object.entries(message.metadata)
        .map(([key, value]) => `${key}:${value}`)
        .join('|');
    const body = JSON.stringify({
      sender: message.from.name.trim() ? { email: message.from.address, name: message.from.name } : { email: message.from.address },
      to: [{ email: message.to }],
      subject: message.subject,
      htmlContent: message.html,
      textContent: message.text,
      headers,
    });
    const exchange = await this.request('POST', '/v3/smtp/email', { ...this.auth(), 'content-type': 'application/json' }, body);
    if (exchange.kind === 'failed') return this.noAnswer(exchange);
    if (exchange.status === 201 || exchange.status === 200) {
      return { kind: 'accepted', providerMessageId: stringField(jsonObject(exchange.body), 'messageId')?.replace(/^<|>$/g, '') ?? message.messageId };
    }
    return this.failure(exchange);
  }

  /** `GET /v3/account`: every Brevo API key may read its account. */
  async verify(): Promise<VerifyResult> {
    const exchange = await this.request('GET', '/v3/account', this.auth());
    if (exchange.kind === 'failed') return this.verifyFailure(this.noAnswer(exchange));
    if (exchange.status === 200) return { ok: true, inspection: 'available' };
    return this.verifyFailure(this.failure(exchange));
  }

  private auth() {
    return { 'api-key': this.config.api_key };
  }

  private failure(response: HttpResponse): Failure {
    const body = jsonObject(response.body);
    const code = stringField(body, 'code') ?? `http_${response.status}`;
    return this.byStatus(response, code, stringField(body, 'message') ?? bodyText(response.body, response.status));
  }
}
