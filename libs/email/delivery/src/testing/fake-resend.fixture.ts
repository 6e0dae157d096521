import { FakeProviderServer, FakeReply, FakeRequest, headerOf, requestJson } from './fake-provider-server.fixture';

export const FAKE_RESEND_CREDENTIALS = {
  apiKey: 're_fake_full_access_4b8d2f6a1c3e5a7b9d0f',
  /** A sending-only key: `GET /domains` answers `restricted_api_key`. */
  sendingKey: 're_fake_sending_only_7c1e5a9b3d2f4a6c',
};

interface ResendEmail {
  from?: string;
  to?: string[] | string;
  subject?: string;
  html?: string;
  text?: string;
  headers?: Record<string, string>;
  tags?: Array<{ name: string; value: string }>;
}

const resendError = (statusCode: number, name: string, message: string): FakeReply => ({ status: statusCode, body: { statusCode, name, message } });

/**
 * Resend (`POST /emails`, `POST /emails/batch` in strict or permissive validation, `GET /domains`), bearer keys.
 * Errors are `{ statusCode, name, message }`: 401 `missing_api_key` / `restricted_api_key`, 403 `invalid_api_key`,
 * 422 `validation_error`, 429 `rate_limit_exceeded` with `retry-after` and the `ratelimit-*` headers.
 */
export class FakeResend extends FakeProviderServer {
  readonly provider = 'resend';

  constructor(readonly credentials = FAKE_RESEND_CREDENTIALS) {
    super();
  }

  protected unauthorized(request: FakeRequest): FakeReply | undefined {
    const key = /^Bearer (.+)$/.exec(headerOf(request, 'authorization') ?? '')?.[1];
    if (!key) return resendError(401, 'missing_api_key', 'Missing API key in the authorization header.');
    if (key === this.credentials.apiKey) return undefined;
    if (key === this.credentials.sendingKey) {
      return request.path.startsWith('/emails') ? undefined : resendError(401, 'restricted_api_key', 'This API key is restricted to only send emails.');
    }
    return resendError(403, 'invalid_api_key', `API key is invalid${this.quoted(key)}`);
  }

  protected throttled(): FakeReply {
    return {
      ...resendError(
        429,
        'rate_limit_exceeded',
        'Too many requests. You can only make 2 requests per second. See rate limit response headers for more information.',
      ),
      headers: {
        'retry-after': String(this.retryAfterSeconds),
        'ratelimit-limit': '2',
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(this.retryAfterSeconds),
      },
    };
  }

  protected serverError(): FakeReply {
    return resendError(500, 'internal_server_error', 'An unexpected error occurred.');
  }

  protected route(request: FakeRequest): FakeReply {
    if (request.method === 'GET' && request.path === '/domains') return { status: 200, body: { object: 'list', data: [] } };
    if (request.method === 'POST' && request.path === '/emails') {
      const email = (requestJson(request) ?? {}) as ResendEmail;
      const problem = this.problem(email);
      return problem ? resendError(422, 'validation_error', problem) : { status: 200, body: { id: this.accept(email) } };
    }
    if (request.method === 'POST' && request.path === '/emails/batch') return this.batch(request);
    return resendError(404, 'not_found', 'The requested endpoint does not exist.');
  }

  private batch(request: FakeRequest): FakeReply {
    const emails = requestJson(request);
    if (!Array.isArray(emails) || emails.length === 0 || emails.length > 100) {
      return resendError(422, 'validation_error', 'The batch must hold between 1 and 100 emails.');
    }
    const problems = (emails as ResendEmail[]).map((email) => this.problem(email));
    const permissive = headerOf(request, 'x-batch-validation') === 'permissive';
    const first = problems.findIndex(Boolean);
    if (!permissive && first !== -1) return resendError(422, 'validation_error', `emails[${first}]: ${problems[first]}`);
    const data = (emails as ResendEmail[]).flatMap((email, index) => (problems[index] ? [] : [{ id: this.accept(email) }]));
    const errors = problems.flatMap((problem, index) => (problem ? [{ index, message: problem }] : []));
    return { status: 200, body: permissive ? { data, errors } : { data } };
  }

  private problem(email: ResendEmail): string | undefined {
    const to = [email.to ?? []].flat();
    if (!email.from || to.length === 0) return 'The `from` and `to` fields are required.';
    if (to.some((address) => this.refuses(address)))
      return `Invalid \`to\` field. Please use our testing email address instead of domains like \`example.com\`.`;
    return undefined;
  }

  private accept(email: ResendEmail): string {
    const id = this.nextId();
    this.accepted.push({
      providerMessageId: id,
      from: email.from ?? '',
      to: [email.to ?? []].flat()[0] ?? '',
      subject: email.subject ?? '',
      html: email.html ?? '',
      text: email.text ?? '',
      headers: email.headers ?? {},
      metadata: Object.fromEntries((email.tags ?? []).map((tag) => [tag.name, tag.value])),
    });
    return id;
  }
}
