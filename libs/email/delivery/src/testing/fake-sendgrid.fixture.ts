import { FakeProviderServer, FakeReply, FakeRequest, headerOf, requestJson } from './fake-provider-server.fixture';

export const FAKE_SENDGRID_CREDENTIALS = { apiKey: 'SG.fake-sendgrid-key.7b3e1c9d5a2f4e6b8c0d' };

interface SendgridMail {
  personalizations?: Array<{ to?: Array<{ email: string }>; subject?: string; headers?: Record<string, string>; custom_args?: Record<string, string> }>;
  from?: { email: string; name?: string };
  subject?: string;
  content?: Array<{ type: string; value: string }>;
}

const sendgridErrors = (status: number, ...errors: Array<{ message: string; field?: string | null }>): FakeReply => ({
  status,
  body: { errors: errors.map((error) => ({ field: null, ...error })) },
});

/**
 * SendGrid v3 (`POST /v3/mail/send`: 202 with `X-Message-Id`; `GET /v3/scopes`). Errors are `{ errors: [{ field,
 * message }] }`; 429 carries `X-RateLimit-Reset` (a Unix time). One bad personalization refuses the whole request.
 */
export class FakeSendgrid extends FakeProviderServer {
  readonly provider = 'sendgrid';
  /** The key's scopes, as `GET /v3/scopes` lists them; without `mail.send` a send is 403. */
  scopes = ['mail.send', 'scopes.read'];

  override reset(): void {
    super.reset();
    this.scopes = ['mail.send', 'scopes.read'];
  }

  constructor(readonly credentials = FAKE_SENDGRID_CREDENTIALS) {
    super();
  }

  protected unauthorized(request: FakeRequest): FakeReply | undefined {
    const authorization = headerOf(request, 'authorization');
    if (authorization === `Bearer ${this.credentials.apiKey}`) return undefined;
    return sendgridErrors(401, { message: `The provided authorization grant is invalid, expired, or revoked${this.quoted(authorization)}` });
  }

  protected throttled(): FakeReply {
    const reset = Math.floor(Date.now() / 1000) + this.retryAfterSeconds;
    return {
      ...sendgridErrors(429, { message: 'too many requests' }),
      headers: { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    };
  }

  protected serverError(): FakeReply {
    return sendgridErrors(503, { message: 'The SendGrid v3 Web API is not available.' });
  }

  protected route(request: FakeRequest): FakeReply {
    if (request.method === 'GET' && request.path === '/v3/scopes') return { status: 200, body: { scopes: this.scopes } };
    if (request.method === 'POST' && request.path === '/v3/mail/send') return this.send(requestJson(request) as SendgridMail | undefined);
    return sendgridErrors(404, { message: 'resource not found' });
  }

  private send(mail: SendgridMail | undefined): FakeReply {
    if (!this.scopes.includes('mail.send')) return sendgridErrors(403, { message: 'access forbidden' });
    const personalizations = mail?.personalizations ?? [];
    if (!mail?.from?.email || personalizations.length === 0) return sendgridErrors(400, { message: 'The from and personalizations fields are required.' });
    const refused = personalizations.findIndex((personalization) => this.refuses(personalization.to?.[0]?.email ?? ''));
    if (refused !== -1) return sendgridErrors(400, { message: 'Does not contain a valid address.', field: `personalizations.${refused}.to.0.email` });
    const id = this.nextId();
    const content = (type: string) => mail.content?.find((part) => part.type === type)?.value ?? '';
    for (const personalization of personalizations) {
      this.accepted.push({
        providerMessageId: id,
        from: mail.from.name ? `${mail.from.name} <${mail.from.email}>` : mail.from.email,
        to: personalization.to?.[0]?.email ?? '',
        subject: personalization.subject ?? mail.subject ?? '',
        html: content('text/html'),
        text: content('text/plain'),
        headers: personalization.headers ?? {},
        metadata: personalization.custom_args ?? {},
      });
    }
    return { status: 202, headers: { 'x-message-id': id } };
  }
}
