import type { IncomingHttpHeaders } from 'node:http';
import { isLoopbackHost } from '@shared/core';
import type { DeliveryFailureReason, DeliveryOutcome, DeliveryProvider, OutgoingMessage, VerifyResult } from '../delivery-provider';
import type { DeliveryProviderName } from '../provider-settings';
import { ProviderSettingsError } from '../provider-settings-error';
import { HttpExchange, httpExchange, HttpResponse } from './http-transport';
import { invalidMessage } from './message-fields';

export interface HostedProviderOptions {
  /** Replaces the provider's public API URL (tests point it at a local fake). */
  baseUrl?: string;
  /**
   * Off by default: a base URL whose host is not loopback is refused, so a test or a default configuration can never
   * reach a real provider. Production wiring turns it on explicitly (`ALLOW_NON_LOOPBACK_HOSTS`).
   */
  allowNonLoopbackHosts?: boolean;
  /** Bounds connecting and sending a request, then the wait for its response (default 15 s). */
  timeoutMs?: number;
}

export type HostedProviderName = Exclude<DeliveryProviderName, 'custom-smtp'>;

export const HOSTED_DEFAULT_TIMEOUT_MS = 15_000;

export type Failure = Exclude<DeliveryOutcome, { kind: 'accepted' }>;
const MAX_REASON_CHARS = 500;

/** An HTTP-API provider: the loopback guard, requests with hand-off tracking, and outcome building with secrets redacted. */
export abstract class HostedProvider implements DeliveryProvider {
  /** Where requests go: the public API, or the configured override. */
  readonly baseUrl: URL;
  private readonly timeoutMs: number;

  protected constructor(
    readonly provider: HostedProviderName,
    defaultBaseUrl: string,
    /** Every secret value (and encoded form) that must never appear in a reason. */
    private readonly secrets: readonly string[],
    options: HostedProviderOptions,
  ) {
    this.baseUrl = parseBaseUrl(options.baseUrl ?? defaultBaseUrl);
    if (!options.allowNonLoopbackHosts && !isLoopbackHost(this.baseUrl.hostname)) {
      throw new ProviderSettingsError('base_url', `${provider}: refusing a non-loopback base URL; pass allowNonLoopbackHosts to allow it`);
    }
    this.timeoutMs = options.timeoutMs ?? HOSTED_DEFAULT_TIMEOUT_MS;
  }

  abstract send(message: OutgoingMessage): Promise<DeliveryOutcome>;
  abstract verify(): Promise<VerifyResult>;

  protected url(path: string): URL {
    return new URL(this.baseUrl.pathname.replace(/\/+$/, '') + path, this.baseUrl);
  }

  protected request(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string | Buffer): Promise<HttpExchange> {
    return httpExchange({ method, url: this.url(path), headers: { accept: 'application/json', ...headers }, body, timeoutMs: this.timeoutMs });
  }

  /** A reason in the provider's words, with every secret replaced and the length bounded. */
  protected reason(code: string, message: string, providerStatus?: number): DeliveryFailureReason {
    let text = message.replace(/\s+/g, ' ').trim();
    for (const secret of this.secrets) if (secret.length >= 4) text = text.split(secret).join('[redacted]');
    if (text.length > MAX_REASON_CHARS) text = `${text.slice(0, MAX_REASON_CHARS)}…`;
    return providerStatus === undefined ? { code, message: text } : { code, message: text, providerStatus };
  }

  /**
   * No answer. Before the request was fully written nothing can have been acted on: `transient`. After, the provider
   * may have taken the message: `unknown`, never retried.
   */
  protected noAnswer(exchange: Extract<HttpExchange, { kind: 'failed' }>): Failure {
    if (!exchange.handedOff) {
      return { kind: 'transient', reason: this.reason(exchange.timedOut ? 'connection_timeout' : 'connection_failed', exchange.message) };
    }
    return { kind: 'unknown', reason: this.reason(exchange.timedOut ? 'timeout_after_handoff' : 'connection_lost_after_handoff', exchange.message) };
  }

  /**
   * The usual meaning of a status the provider gave no finer reason for: 429 throttled, 401 bad credentials, 504 (a
   * gateway gave up waiting for the provider, which may have acted) unknown, 408 and other 5xx transient, other 4xx permanent.
   */
  protected byStatus(response: HttpResponse, code: string, message: string): Failure {
    const { status } = response;
    if (status === 429) return this.throttled(response, code, message);
    if (status === 401) return { kind: 'permanent', reason: this.reason('authentication_failed', message, status) };
    if (status === 504) return { kind: 'unknown', reason: this.reason(code, message, status) };
    if (status >= 500 || status === 408) return { kind: 'transient', reason: this.reason(code, message, status) };
    return { kind: 'permanent', reason: this.reason(code, message, status) };
  }

  protected throttled(response: HttpResponse, code: string, message: string): Failure {
    const reason = this.reason(code, message, response.status);
    const after = retryAfterMs(response.headers);
    return after === undefined ? { kind: 'throttled', reason } : { kind: 'throttled', reason, retryAfterMs: after };
  }

  /** A failed check: bad credentials and refusals are permanent; throttling, outages and no answer are worth another try. */
  protected verifyFailure(failure: Failure): VerifyResult {
    const kind = failure.kind === 'permanent' ? 'permanent' : 'transient';
    return { ok: false, kind, reason: failure.reason };
  }

  /** Outcomes for a whole batch that failed as one request. */
  protected static each<T>(count: number, outcome: T): T[] {
    return Array.from({ length: count }, () => outcome);
  }
}

function parseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProviderSettingsError('base_url', 'the base URL is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ProviderSettingsError('base_url', 'the base URL must use http or https');
  return url;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * How long the provider asked us to wait, in ms: `Retry-After` (seconds or an HTTP date), else a rate-limit reset
 * header (`ratelimit-reset`, Brevo's `x-sib-ratelimit-reset`: seconds; SendGrid's `x-ratelimit-reset`: a Unix time).
 */
export function retryAfterMs(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const retryAfter = header(headers, 'retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  for (const name of ['ratelimit-reset', 'x-sib-ratelimit-reset', 'x-ratelimit-reset']) {
    const value = header(headers, name)?.trim();
    if (!value || !/^\d+(\.\d+)?$/.test(value)) continue;
    const seconds = Number(value);
    // A value this large is a Unix time, not a number of seconds to wait.
    return seconds > 1_000_000_000 ? Math.max(0, seconds * 1000 - now) : Math.round(seconds * 1000);
  }
  return undefined;
}

/**
 * A provider with a batch API: `send` is a batch of one. Messages no provider could send are refused first; the rest
 * go in requests of at most `batchLimit` messages, only with messages of the same `batchKey`. One outcome per message,
 * in order.
 */
export abstract class BatchingHostedProvider extends HostedProvider {
  protected abstract readonly batchLimit: number;

  /** Sends up to `batchLimit` messages of one key in one request (a single message as the provider's single send). */
  protected abstract post(messages: OutgoingMessage[]): Promise<DeliveryOutcome[]>;

  /** Which messages may share a request; all of them by default. */
  protected batchKey(_message: OutgoingMessage): string {
    return '';
  }

  async send(message: OutgoingMessage): Promise<DeliveryOutcome> {
    return (await this.sendBatch([message]))[0];
  }

  async sendBatch(messages: readonly OutgoingMessage[]): Promise<DeliveryOutcome[]> {
    const outcomes: Array<DeliveryOutcome | undefined> = messages.map(invalidMessage);
    const groups = new Map<string, number[]>();
    messages.forEach((message, index) => {
      if (outcomes[index]) return;
      const key = this.batchKey(message);
      groups.set(key, [...(groups.get(key) ?? []), index]);
    });
    for (const indexes of groups.values()) {
      for (let start = 0; start < indexes.length; start += this.batchLimit) {
        const chunk = indexes.slice(start, start + this.batchLimit);
        const results = await this.post(chunk.map((index) => messages[index]));
        chunk.forEach((index, position) => (outcomes[index] = results[position]));
      }
    }
    return outcomes as DeliveryOutcome[];
  }
}
