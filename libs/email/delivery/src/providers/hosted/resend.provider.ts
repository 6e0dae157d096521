import type { DeliveryOutcome, OutgoingMessage, VerifyResult } from '../delivery-provider';
import { BatchingHostedProvider, Failure, HostedProvider, HostedProviderOptions } from './hosted-provider';
import type { HttpResponse } from './http-transport';
import { asObject, asTags, bodyText, formatAddress, headersWithMessageId, jsonObject, stringField } from './message-fields';

export interface ResendConfig {
  api_key: string;
}

/** Resend takes at most 100 emails per batch call. */
const BATCH_LIMIT = 100;
const AUTH_ERRORS = new Set(['missing_api_key', 'invalid_api_key']);
/** 429 names: the per-second rate limit and the daily/monthly sending quotas. */
const THROTTLING_ERRORS = new Set(['rate_limit_exceeded', 'daily_quota_exceeded', 'monthly_quota_exceeded']);

/**
 * `resend`: `POST /emails`, `POST /emails/batch` (permissive validation, so one invalid email does not sink the others)
 * and `GET /domains`, with a bearer key. Errors are `{ statusCode, name, message }`; `name` is the reason's code.
 */
export class ResendProvider extends BatchingHostedProvider {
  constructor(
    private readonly config: ResendConfig,
    options: HostedProviderOptions = {},
  ) {
    super('resend', 'https://api.resend.com', [config.api_key], options);
  }

  protected readonly batchLimit = BATCH_LIMIT;

  /** `GET /domains`: a full-access key is `available`; a sending-only key is refused as `restricted_api_key`: `unavailable`. */
  async verify(): Promise<VerifyResult> {
    const exchange = await this.request('GET', '/domains', this.auth());
    if (exchange.kind === 'failed') return this.verifyFailure(this.noAnswer(exchange));
    if (exchange.status === 200) return { ok: true, inspection: 'available' };
    if (errorOf(exchange).name === 'restricted_api_key') return { ok: true, inspection: 'unavailable' };
    return this.verifyFailure(this.failure(exchange));
  }

  private auth() {
    return { authorization: `Bearer ${this.config.api_key}` };
  }

  protected async post(messages: OutgoingMessage[]): Promise<DeliveryOutcome[]> {
    const single = messages.length === 1;
    const payload = messages.map(emailPayload);
    const exchange = await this.request(
      'POST',
      single ? '/emails' : '/emails/batch',
      { ...this.auth(), 'content-type': 'application/json', ...(single ? {} : { 'x-batch-validation': 'permissive' }) },
      JSON.stringify(single ? payload[0] : payload),
    );
    if (exchange.kind === 'failed') return HostedProvider.each(messages.length, this.noAnswer(exchange));
    if (exchange.status !== 200) return HostedProvider.each(messages.length, this.failure(exchange));
    const body = jsonObject(exchange.body);
    if (single) return [{ kind: 'accepted', providerMessageId: stringField(body, 'id') ?? messages[0].messageId }];
    return this.batchOutcomes(messages, body);
  }

  /** Permissive mode answers `data` (the created emails, in order) and `errors` (`{ index, message }` of the refused ones). */
  private batchOutcomes(messages: OutgoingMessage[], body: Record<string, unknown>): DeliveryOutcome[] {
    const refused = new Map<number, string>();
    for (const error of Array.isArray(body.errors) ? body.errors : []) {
      const fields = asObject(error);
      if (typeof fields.index === 'number') refused.set(fields.index, stringField(fields, 'message') ?? 'Refused');
    }
    const ids = (Array.isArray(body.data) ? body.data : []).map((entry) => stringField(asObject(entry), 'id'));
    if (ids.length + refused.size !== messages.length) {
      const reason = this.reason('unreadable_response', 'Resend accepted the batch but its answer does not list each email', 200);
      return messages.map((_, index) => (refused.has(index) ? this.refusal(refused.get(index) ?? '') : { kind: 'unknown', reason }));
    }
    let next = 0;
    return messages.map((message, index) => {
      if (refused.has(index)) return this.refusal(refused.get(index) ?? '');
      return { kind: 'accepted', providerMessageId: ids[next++] ?? message.messageId };
    });
  }

  private refusal(message: string): DeliveryOutcome {
    return { kind: 'permanent', reason: this.reason('validation_error', message, 200) };
  }

  private failure(response: HttpResponse): Failure {
    const { name, message } = errorOf(response);
    if (AUTH_ERRORS.has(name)) return { kind: 'permanent', reason: this.reason('authentication_failed', message, response.status) };
    if (response.status === 429 || THROTTLING_ERRORS.has(name)) return this.throttled(response, name, message);
    // Another request with the same idempotency key is still being processed.
    if (name === 'concurrent_idempotent_requests') return { kind: 'transient', reason: this.reason(name, message, response.status) };
    return this.byStatus(response, name, message);
  }
}

function emailPayload(message: OutgoingMessage) {
  const tags = asTags(message.metadata);
  return {
    from: formatAddress(message.from),
    to: [message.to],
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: headersWithMessageId(message),
    ...(tags.length ? { tags } : {}),
  };
}

function errorOf(response: HttpResponse): { name: string; message: string } {
  const body = jsonObject(response.body);
  return { name: stringField(body, 'name') ?? `http_${response.status}`, message: stringField(body, 'message') ?? bodyText(response.body, response.status) };
}
