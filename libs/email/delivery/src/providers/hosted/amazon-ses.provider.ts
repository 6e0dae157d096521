import aws4 from 'aws4';
import type { DeliveryOutcome, OutgoingMessage, VerifyResult } from '../delivery-provider';
import { composeMime } from '../mime';
import { ProviderSettingsError } from '../provider-settings-error';
import { Failure, HostedProvider, HostedProviderOptions } from './hosted-provider';
import type { HttpExchange, HttpResponse } from './http-transport';
import { asTags, bodyText, invalidMessage, jsonObject, stringField } from './message-fields';

export interface AmazonSesConfig {
  region: string;
  access_key_id: string;
  secret_access_key: string;
}

const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

/** Error types that mean the request was not signed by a known key: bad credentials. */
const AUTH_ERRORS = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
  'InvalidClientTokenId',
  'IncompleteSignature',
  'MissingAuthenticationToken',
  'MissingAuthenticationTokenException',
]);
/** Sending limits: SES v2's 429, the `Throttling – Maximum sending rate exceeded` / `Daily message quota exceeded` errors. */
const THROTTLING_ERRORS = new Set(['TooManyRequestsException', 'ThrottlingException', 'Throttling', 'LimitExceededException']);
const THROTTLING_TEXT = /maximum sending rate exceeded|daily message quota exceeded|rate exceeded/i;

/**
 * `amazon-ses`: the SES v2 HTTP API (`SendEmail` with raw MIME content, `GetAccount`), signed with SigV4 by `aws4`.
 * Raw content carries our MIME exactly (Message-ID, List-Unsubscribe), composed as custom SMTP composes it.
 */
export class AmazonSesProvider extends HostedProvider {
  constructor(
    private readonly config: AmazonSesConfig,
    options: HostedProviderOptions = {},
  ) {
    if (!REGION.test(config.region)) throw new ProviderSettingsError('region', 'amazon-ses: region must be an AWS region such as us-east-1');
    if (!/^[A-Za-z0-9]+$/.test(config.access_key_id)) throw new ProviderSettingsError('access_key_id', 'amazon-ses: access_key_id must be letters and digits');
    super('amazon-ses', `https://email.${config.region}.amazonaws.com`, [config.secret_access_key], options);
  }

  async send(message: OutgoingMessage): Promise<DeliveryOutcome> {
    const invalid = invalidMessage(message);
    if (invalid) return invalid;
    const tags = asTags(message.metadata).map(({ name, value }) => ({ Name: name, Value: value }));
    const body = JSON.stringify({
      FromEmailAddress: message.from.address,
      Destination: { ToAddresses: [message.to] },
      Content: { Raw: { Data: (await composeMime(message)).toString('base64') } },
      ...(tags.length ? { EmailTags: tags } : {}),
    });
    const exchange = await this.signed('POST', '/v2/email/outbound-emails', body);
    if (exchange.kind === 'failed') return this.noAnswer(exchange);
    if (exchange.status === 200) {
      return { kind: 'accepted', providerMessageId: stringField(jsonObject(exchange.body), 'MessageId') ?? message.messageId };
    }
    return this.failure(exchange);
  }

  /** `GetAccount`: the key works and sending is enabled; a key that may send but not read the account is `unavailable`. */
  async verify(): Promise<VerifyResult> {
    const exchange = await this.signed('GET', '/v2/email/account');
    if (exchange.kind === 'failed') return this.verifyFailure(this.noAnswer(exchange));
    if (exchange.status === 200) {
      if (jsonObject(exchange.body).SendingEnabled === false) {
        return { ok: false, kind: 'permanent', reason: this.reason('sending_paused', 'Sending is paused for this SES account', 200) };
      }
      return { ok: true, inspection: 'available' };
    }
    if (errorOf(exchange).type === 'AccessDeniedException') return { ok: true, inspection: 'unavailable' };
    return this.verifyFailure(this.failure(exchange));
  }

  private signed(method: 'GET' | 'POST', path: string, body?: string): Promise<HttpExchange> {
    const url = this.url(path);
    const request = aws4.sign(
      {
        host: url.host,
        method,
        path: url.pathname,
        service: 'ses',
        region: this.config.region,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body,
      },
      { accessKeyId: this.config.access_key_id, secretAccessKey: this.config.secret_access_key },
    );
    const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, String(value)]));
    return this.request(method, path, headers, body);
  }

  private failure(response: HttpResponse): Failure {
    const { type, message } = errorOf(response);
    if (AUTH_ERRORS.has(type)) return { kind: 'permanent', reason: this.reason('authentication_failed', message, response.status) };
    if (THROTTLING_ERRORS.has(type) || THROTTLING_TEXT.test(message)) return this.throttled(response, type, message);
    return this.byStatus(response, type, message);
  }
}

/**
 * The error's type and words: the type from `x-amzn-ErrorType` (`MessageRejected:http://…`) or the body's `__type` /
 * `code` (`com.amazonaws…#MessageRejected`), the words from `message`.
 */
function errorOf(response: HttpResponse): { type: string; message: string } {
  const body = jsonObject(response.body);
  const headerType = response.headers['x-amzn-errortype'];
  const raw = (Array.isArray(headerType) ? headerType[0] : headerType) ?? stringField(body, '__type') ?? stringField(body, 'code') ?? '';
  const type = raw.split(':')[0].split('#').pop() || `http_${response.status}`;
  const message = stringField(body, 'message') ?? stringField(body, 'Message') ?? bodyText(response.body, response.status);
  return { type, message };
}
