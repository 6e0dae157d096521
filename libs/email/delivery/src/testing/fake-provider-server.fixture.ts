import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackHttpServer, startLoopbackHttpServer } from '@shared/testing';

/**
 * How a fake answers, for every request (credentials are checked first, except in `hang` and `drop`):
 * - `accept`: as the provider answers a good request (a refused recipient still gets the provider's refusal);
 * - `throttle`: the provider's documented rate-limit answer, with its wait hint where it gives one;
 * - `invalid`: the provider's validation error for a message (sends only);
 * - `server_error`: a 5xx;
 * - `hang`: reads the whole request and never answers;
 * - `drop`: reads the whole request, then drops the connection without a word.
 */
export type FakeMode = 'accept' | 'throttle' | 'invalid' | 'server_error' | 'hang' | 'drop';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** `body`: an object is sent as JSON, a string as plain text. */
export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A message the fake accepted, in one shape whatever the provider's API. */
export interface FakeMessage {
  providerMessageId: string;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers as sent (`Message-ID`, `List-Unsubscribe`, …), by the name the API was given. */
  headers: Record<string, string>;
  metadata: Record<string, string>;
}

/**
 * A provider's API on 127.0.0.1 (a random port), answering as the provider's documentation says. It keeps every
 * request and every accepted message; `mode` and `refusedRecipients` say how to answer.
 */
export abstract class FakeProviderServer {
  abstract readonly provider: string;
  mode: FakeMode = 'accept';
  /** The wait the throttling answer asks for, where the provider gives one. */
  retryAfterSeconds = 2;
  /** Recipients (lower case) the provider refuses for good, in `accept` mode too. */
  readonly refusedRecipients = new Set<string>();
  /** Auth failures quote the credential they were given, to prove the client keeps it out of what it reports. */
  echoCredentials = false;
  readonly requests: FakeRequest[] = [];
  readonly accepted: FakeMessage[] = [];
  baseUrl = '';
  private server?: LoopbackHttpServer;
  private sequence = 0;

  async start(): Promise<this> {
    this.server = await startLoopbackHttpServer((request, response) => this.handle(request, response));
    this.baseUrl = this.server.url;
    return this;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  /** Back to accepting (and the provider's other settings to their defaults), with no requests or messages kept. */
  reset(): void {
    this.mode = 'accept';
    this.retryAfterSeconds = 2;
    this.echoCredentials = false;
    this.refusedRecipients.clear();
    this.requests.length = 0;
    this.accepted.length = 0;
  }

  /** The requests to one path. */
  requestsTo(path: string): FakeRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** The provider's answer to a request with bad credentials, or `undefined` when they are good. */
  protected abstract unauthorized(request: FakeRequest): FakeReply | undefined;
  protected abstract throttled(): FakeReply;
  protected abstract serverError(): FakeReply;
  /** The answer in `accept` and `invalid` modes. */
  protected abstract route(request: FakeRequest): FakeReply;

  /** Whether a message to `to` is refused: `invalid` mode, or a refused recipient. */
  protected refuses(to: string): boolean {
    return this.mode === 'invalid' || this.refusedRecipients.has(to.trim().toLowerCase());
  }

  protected nextId(): string {
    this.sequence += 1;
    return `${this.provider}-${String(this.sequence).padStart(6, '0')}`;
  }

  /** The credential as the echo option quotes it (empty when off). */
  protected quoted(credential: string | undefined): string {
    return this.echoCredentials && credential ? ` (got "${credential}")` : '';
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const recorded: FakeRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      this.requests.push(recorded);
      if (this.mode === 'hang') return;
      if (this.mode === 'drop') return void request.socket.destroy();
      const reply =
        this.unauthorized(recorded) ?? (this.mode === 'throttle' ? this.throttled() : this.mode === 'server_error' ? this.serverError() : this.route(recorded));
      const json = reply.body !== undefined && typeof reply.body !== 'string';
      response.writeHead(reply.status, { ...(json ? { 'content-type': 'application/json' } : { 'content-type': 'text/plain' }), ...reply.headers });
      response.end(json ? JSON.stringify(reply.body) : ((reply.body as string | undefined) ?? ''));
    });
  }
}

/** Parses a JSON request body, `undefined` when it is not JSON. */
export function requestJson(request: FakeRequest): unknown {
  try {
    return JSON.parse(request.body) as unknown;
  } catch {
    return undefined;
  }
}

/** The value of a header the client sent, as one string. */
export const headerOf = (request: FakeRequest, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};
