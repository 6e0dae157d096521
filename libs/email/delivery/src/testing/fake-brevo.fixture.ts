import { FakeProviderServer, FakeReply, FakeRequest, headerOf, requestJson } from './fake-provider-server.fixture';

export const FAKE_BREVO_CREDENTIALS = { apiKey: 'xkeysib-fake0brevo1key2c5e7a9b1d3f5a7c9e1b3d5f7a9c1e3b5d-Fk3yR4nd0m' };

interface BrevoEmail {
  sender?: { email?: string; name?: string };
  to?: Array<{ email: string; name?: string }>;
  subject?: string;
  htmlContent?: string;
  textContent?: string;
  headers?: Record<string, string>;
}

const brevoError = (status: number, code: string, message: string): FakeReply => ({ status, body: { code, message } });

/**
 * Brevo (`POST /v3/smtp/email`: 201 `{ messageId }`; `GET /v3/account`), the `api-key` header. Errors are `{ code,
 * message }`: 401 `unauthorized`, 400 `invalid_parameter`, 429 with the `x-sib-ratelimit-*` headers (reset in seconds).
 */
export class FakeBrevo extends FakeProviderServer {
  readonly provider = 'brevo';

  constructor(readonly credentials = FAKE_BREVO_CREDENTIALS) {
    super();
  }

  protected unauthorized(request: FakeRequest): FakeReply | undefined {
    const key = headerOf(request, 'api-key');
    return key === this.credentials.apiKey ? undefined : brevoError(401, 'unauthorized', `Key not found${this.quoted(key)}`);
  }

  protected throttled(): FakeReply {
    return {
      ...brevoError(429, 'too_many_requests', 'The expected rate limit is exceeded.'),
      headers: { 'x-sib-ratelimit-limit': '1000', 'x-sib-ratelimit-remaining': '0', 'x-sib-ratelimit-reset': String(this.retryAfterSeconds) },
    };
  }

  protected serverError(): FakeReply {
    return brevoError(500, 'internal_error', 'An internal error occurred.');
  }

  protected route(request: FakeRequest): FakeReply {
    if (request.method === 'GET' && request.path === '/v3/account') {
      return { status: 200, body: { email: 'owner@postline.test', companyName: 'Postline', plan: [{ type: 'free', credits: 300 }] } };
    }
    if (request.method === 'POST' && request.path === '/v3/smtp/email') return this.send(requestJson(request) ?? {});
    return brevoError(404, 'not_found', 'Not found');
  }

  private send(email: BrevoEmail): FakeReply {
    const to = email.to?.[0]?.email;
    if (!email.sender?.email || !to) return brevoError(400, 'missing_parameter', 'sender and to are required');
    if (this.refuses(to)) return brevoError(400, 'invalid_parameter', 'email is not valid in to');
    const id = `<${this.nextId()}@smtp-relay.mailin.fr>`;
    const { 'X-Mailin-custom': custom, ...headers } = email.headers ?? {};
    this.accepted.push({
      providerMessageId: id.slice(1, -1),
      from: email.sender.name ? `${email.sender.name} <${email.sender.email}>` : email.sender.email,
      to,
      subject: email.subject ?? '',
      html: email.htmlContent ?? '',
      text: email.textContent ?? '',
      headers,
      metadata: Object.fromEntries((custom ? custom.split('|') : []).map((pair) => [pair.slice(0, pair.indexOf(':')), pair.slice(pair.indexOf(':') + 1)])),
    });
    return { status: 201, body: { messageId: id } };
  }
}
