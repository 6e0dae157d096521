import { createHash } from 'node:crypto';
import type { DeliveryOutcome, OutgoingMessage, VerifyResult } from '../delivery-provider';
import { BatchingHostedProvider, Failure, HostedProvider, HostedProviderOptions } from './hosted-provider';
import type { HttpResponse } from './http-transport';
import { asObject, bodyText, headersWithMessageId, jsonObject, stringField } from './message-fields';

export interface SendgridConfig {
  api_key: string;
}

/** SendGrid takes at most 1000 personalizations per request. */
const BATCH_LIMIT = 1000;

/**
 * `sendgrid`: v3 `POST /mail/send` (202 with `X-Message-Id`) and `GET /scopes`. Each message is one personalization
 * carrying its recipient, subject, headers and custom args; a batch puts messages whose sender and bodies are identical
 * in one request (personalizations share the content), so messages with per-recipient bodies go one request each.
 */
export class SendgridProvider extends BatchingHostedProvider {
  constructor(
    private readonly config: SendgridConfig,
    options: HostedProviderOptions = {},
  ) {
    super('sendgrid', 'https://api.sendgrid.com', [config.api_key], options);
  }

  protected readonly batchLimit = BATCH_LIMIT;

  protected override batchKey(message: OutgoingMessage): string {
    return sharedContentKey(message);
  }

  /** `GET /v3/scopes`: the key is valid, and may send only if it has `mail.send`. */
  async verify(): Promise<VerifyResult> {
    const exchange = await this.request('GET', '/v3/scopes', this.auth());
    if (exchange.kind === 'failed') return this.verifyFailure(this.noAnswer(exchange));
    if (exchange.status === 403) return { ok: true, inspection: 'unavailable' };
    if (exchange.status !== 200) return this.verifyFailure(this.failure(exchange));
    const scopes = jsonObject(exchange.body).scopes;
    if (Array.isArray(scopes) && !scopes.includes('mail.send')) {
      return { ok: false, kind: 'permanent', reason: this.reason('missing_send_permission', 'This API key may not send mail (no mail.send scope)', 200) };
    }
    return { ok: true, inspection: 'available' };
  }

  private auth() {
    return { authorization: `Bearer ${this.config.api_key}` };
  }

  protected async post(group: OutgoingMessage[]): Promise<DeliveryOutcome[]> {
    const [first] = group;
    const body = JSON.stringify({
      personalizations: group.map((message) => ({
        to: [{ email: message.to }],
        subject: message.subject,
        headers: headersWithMessageId(message),
        ...(message.metadata ? { custom_args: message.metadata } : {}),
      })),
      from: first.from.name.trim() ? { email: first.from.address, name: first.from.name } : { email: first.from.address },
      // SendGrid wants text/plain before text/html.
      content: [
        { type: 'text/plain', value: first.text },
        { type: 'text/html', value: first.html },
      ],
    });
    const exchange = await this.request('POST', '/v3/mail/send', { ...this.auth(), 'content-type': 'application/json' }, body);
    if (exchange.kind === 'failed') return HostedProvider.each(group.length, this.noAnswer(exchange));
    if (exchange.status !== 202 && exchange.status !== 200) return HostedProvider.each(group.length, this.failure(exchange));
    const id = exchange.headers['x-message-id'];
    return group.map((message) => ({ kind: 'accepted', providerMessageId: (Array.isArray(id) ? id[0] : id) ?? message.messageId }));
  }

  /** SendGrid's errors have no codes: `{ errors: [{ field, message }] }`. */
  private failure(response: HttpResponse): Failure {
    const errors = jsonObject(response.body).errors;
    const words = Array.isArray(errors)
      ? errors
          .map((error) => stringField(asObject(error), 'message'))
          .filter((text): text is string => text !== undefined)
          .join('; ')
      : '';
    return this.byStatus(response, `http_${response.status}`, words || bodyText(response.body, response.status));
  }
}

/** Messages that can share one request: same sender and the same bodies. */
const sharedContentKey = (message: OutgoingMessage) =>
  createHash('sha256')
    .update(JSON.stringify([message.from.address, message.from.name, message.text, message.html]))
    .digest('base64');
