import type { DeliveryOutcome, OutgoingMessage, VerifyResult } from '../delivery-provider';
import { BatchingHostedProvider, Failure, HostedProvider, HostedProviderOptions } from './hosted-provider';
import type { HttpResponse } from './http-transport';
import { asObject, bodyText, formatAddress, headersWithMessageId, jsonObject, parseJson, stringField } from './message-fields';

export interface PostmarkConfig {
  server_token: string;
  account_token?: string;
  /** The message stream; Postmark's default broadcast stream when empty. */
  message_stream?: string | null;
}

export const POSTMARK_DEFAULT_STREAM = 'broadcast';
/** Postmark takes at most 500 messages per batch call. */
const BATCH_LIMIT = 500;

/**
 * `postmark`: the Email API (`POST /email`, `POST /email/batch`, `GET /server`), authenticated by the server token.
 * Every answer carries Postmark's `ErrorCode`: 0 accepted, 10 bad token, 429 rate limit, 100 maintenance, the rest
 * (300 invalid request, 406 inactive recipient, 405/412/413 account may not send…) refusals of this message.
 */
export class PostmarkProvider extends BatchingHostedProvider {
  private readonly stream: string;

  constructor(
    private readonly config: PostmarkConfig,
    options: HostedProviderOptions = {},
  ) {
    super('postmark', 'https://api.postmarkapp.com', [config.server_token, config.account_token ?? ''], options);
    this.stream = config.message_stream?.trim() || POSTMARK_DEFAULT_STREAM;
  }

  protected readonly batchLimit = BATCH_LIMIT;

  /** `GET /server` with the server token; with an account token, `GET /servers` checks that one too; then the stream exists. */
  async verify(): Promise<VerifyResult> {
    const server = await this.request('GET', '/server', this.serverAuth());
    if (server.kind === 'failed') return this.verifyFailure(this.noAnswer(server));
    if (server.status !== 200) return this.verifyFailure(this.failure(server));
    if (this.config.account_token) {
      const account = await this.request('GET', '/servers?count=1&offset=0', { 'x-postmark-account-token': this.config.account_token });
      if (account.kind === 'failed') return this.verifyFailure(this.noAnswer(account));
      if (account.status !== 200) return this.verifyFailure(this.failure(account, 'The account token was refused'));
    }
    const stream = await this.request('GET', `/message-streams/${encodeURIComponent(this.stream)}`, this.serverAuth());
    if (stream.kind === 'failed') return this.verifyFailure(this.noAnswer(stream));
    if (stream.status !== 200) {
      const failure = this.failure(stream);
      if (stream.status !== 422 && stream.status !== 404) return this.verifyFailure(failure);
      return {
        ok: false,
        kind: 'permanent',
        reason: this.reason('message_stream_not_found', `No message stream "${this.stream}" on this server`, stream.status),
      };
    }
    return { ok: true, inspection: 'available' };
  }

  private serverAuth() {
    return { 'x-postmark-server-token': this.config.server_token };
  }

  protected async post(messages: OutgoingMessage[]): Promise<DeliveryOutcome[]> {
    const single = messages.length === 1;
    const payload = messages.map((message) => this.payload(message));
    const exchange = await this.request(
      'POST',
      single ? '/email' : '/email/batch',
      { ...this.serverAuth(), 'content-type': 'application/json' },
      JSON.stringify(single ? payload[0] : payload),
    );
    if (exchange.kind === 'failed') return HostedProvider.each(messages.length, this.noAnswer(exchange));
    if (exchange.status !== 200) return HostedProvider.each(messages.length, this.failure(exchange));
    const results = single ? [jsonObject(exchange.body)] : parseJson(exchange.body);
    if (!Array.isArray(results) || results.length !== messages.length) {
      // Postmark took the request but its answer cannot be matched to the messages.
      return HostedProvider.each(messages.length, {
        kind: 'unknown',
        reason: this.reason('unreadable_response', 'Postmark accepted the batch but its answer does not list each message', 200),
      });
    }
    return results.map((result, index) => this.resultOutcome(result, messages[index]));
  }

  private payload(message: OutgoingMessage) {
    return {
      From: formatAddress(message.from),
      To: message.to,
      Subject: message.subject,
      HtmlBody: message.html,
      TextBody: message.text,
      Headers: Object.entries(headersWithMessageId(message)).map(([Name, Value]) => ({ Name, Value })),
      MessageStream: this.stream,
      ...(message.metadata ? { Metadata: message.metadata } : {}),
    };
  }

  private resultOutcome(result: unknown, message: OutgoingMessage): DeliveryOutcome {
    const fields = asObject(result);
    const errorCode = Number(fields.ErrorCode ?? 0);
    if (errorCode === 0) return { kind: 'accepted', providerMessageId: stringField(fields, 'MessageID') ?? message.messageId };
    return this.byErrorCode(errorCode, stringField(fields, 'Message') ?? '', undefined);
  }

  private failure(response: HttpResponse, words?: string): Failure {
    const body = jsonObject(response.body);
    const errorCode = Number(body.ErrorCode);
    const message = words ?? stringField(body, 'Message') ?? bodyText(response.body, response.status);
    if (!Number.isInteger(errorCode)) return this.byStatus(response, `http_${response.status}`, message);
    if (response.status === 429 || errorCode === 429) return this.throttled(response, '429', message);
    return this.byErrorCode(errorCode, message, response.status);
  }

  private byErrorCode(errorCode: number, message: string, status: number | undefined): Failure {
    if (errorCode === 10) return { kind: 'permanent', reason: this.reason('authentication_failed', message, status) };
    if (errorCode === 429) return { kind: 'throttled', reason: this.reason('429', message, status) };
    if (errorCode === 100 || (status !== undefined && status >= 500)) return { kind: 'transient', reason: this.reason(String(errorCode), message, status) };
    return { kind: 'permanent', reason: this.reason(String(errorCode), message, status) };
  }
}
