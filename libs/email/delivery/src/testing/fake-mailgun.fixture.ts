import { FakeProviderServer, FakeReply, FakeRequest, headerOf } from './fake-provider-server.fixture';

export const FAKE_MAILGUN_CREDENTIALS = {
  domain: 'mg.postline.test',
  apiKey: 'fake-mailgun-key-3f9a1b7c5d2e4f6a8b0c1d3e',
  /** A domain sending key: may post messages, nothing else. */
  sendingKey: 'fake-mailgun-sending-key-8e6d4c2b0a9f',
};

const mailgunError = (status: number, message: string): FakeReply => ({ status, body: { message } });

/**
 * Mailgun (`POST /v3/{domain}/messages` as a form, `GET /v4/domains/{domain}`), HTTP basic auth `api:<key>`. A bad key
 * gets 401 `Forbidden` (plain text); errors are `{ message }`; 429 carries `Retry-After`.
 */
export class FakeMailgun extends FakeProviderServer {
  readonly provider = 'mailgun';
  domainState: 'active' | 'unverified' | 'disabled' = 'active';

  override reset(): void {
    super.reset();
    this.domainState = 'active';
  }

  constructor(readonly credentials = FAKE_MAILGUN_CREDENTIALS) {
    super();
  }

  protected unauthorized(request: FakeRequest): FakeReply | undefined {
    const key = this.keyOf(request);
    if (key === this.credentials.apiKey) return undefined;
    if (key === this.credentials.sendingKey && request.method === 'POST' && request.path.endsWith('/messages')) return undefined;
    return { status: 401, body: `Forbidden${this.quoted(key)}` };
  }

  protected throttled(): FakeReply {
    return { ...mailgunError(429, 'Too many requests'), headers: { 'retry-after': String(this.retryAfterSeconds) } };
  }

  protected serverError(): FakeReply {
    return mailgunError(500, 'Internal server error');
  }

  protected route(request: FakeRequest): FakeReply {
    const domain = /^\/v4\/domains\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && domain) {
      if (decodeURIComponent(domain[1]) !== this.credentials.domain) return mailgunError(404, 'Domain not found');
      return { status: 200, body: { domain: { name: this.credentials.domain, state: this.domainState, type: 'custom' } } };
    }
    const messages = /^\/v3\/([^/]+)\/messages$/.exec(request.path);
    if (request.method === 'POST' && messages) return this.send(decodeURIComponent(messages[1]), new URLSearchParams(request.body));
    return mailgunError(404, 'Not found');
  }

  private send(domain: string, form: URLSearchParams): FakeReply {
    if (domain !== this.credentials.domain) return mailgunError(404, `Domain not found: ${domain}`);
    for (const field of ['from', 'to']) if (!form.get(field)) return mailgunError(400, `${field} parameter is missing`);
    const to = form.get('to') ?? '';
    if (this.refuses(to)) return mailgunError(400, `to parameter is not a valid address. please check documentation`);
    const prefixed = (prefix: string) =>
      Object.fromEntries([...form.entries()].filter(([name]) => name.startsWith(prefix)).map(([name, value]) => [name.slice(prefix.length), value]));
    const id = `${this.nextId()}@${domain}`;
    this.accepted.push({
      providerMessageId: id,
      from: form.get('from') ?? '',
      to,
      subject: form.get('subject') ?? '',
      html: form.get('html') ?? '',
      text: form.get('text') ?? '',
      headers: prefixed('h:'),
      metadata: prefixed('v:'),
    });
    return { status: 200, body: { id: `<${id}>`, message: 'Queued. Thank you.' } };
  }

  private keyOf(request: FakeRequest): string | undefined {
    const basic = /^Basic (.+)$/.exec(headerOf(request, 'authorization') ?? '')?.[1];
    const [user, ...key] = Buffer.from(basic ?? '', 'base64')
      .toString('utf8')
      .split(':');
    return user === 'api' ? key.join(':') : undefined;
  }
}
