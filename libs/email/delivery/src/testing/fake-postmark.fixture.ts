import { FakeMessage, FakeProviderServer, FakeReply, FakeRequest, headerOf, requestJson } from './fake-provider-server.fixture';

export const FAKE_POSTMARK_CREDENTIALS = {
  serverToken: 'fake-postmark-server-token-5c1e9a7b-3d2f-4e6a-8b0c',
  accountToken: 'fake-postmark-account-token-0a9b8c7d-6e5f-4a3b',
};

interface PostmarkEmail {
  From?: string;
  To?: string;
  Subject?: string;
  HtmlBody?: string;
  TextBody?: string;
  Headers?: Array<{ Name: string; Value: string }>;
  Metadata?: Record<string, string>;
  MessageStream?: string;
}

const postmarkError = (status: number, errorCode: number, message: string): FakeReply => ({ status, body: { ErrorCode: errorCode, Message: message } });

/**
 * Postmark's Email API (`/email`, `/email/batch`, `/server`, `/servers`, `/message-streams/{id}`). Errors are
 * `{ ErrorCode, Message }`: 401 with code 10 for a bad token, 422 for a refused message (406 inactive recipient, 300
 * invalid request), 429 for the rate limit (Postmark documents no wait hint); a batch answers 200 with one result per message.
 */
export class FakePostmark extends FakeProviderServer {
  readonly provider = 'postmark';
  streams = ['outbound', 'broadcast'];

  override reset(): void {
    super.reset();
    this.streams = ['outbound', 'broadcast'];
  }

  constructor(readonly credentials = FAKE_POSTMARK_CREDENTIALS) {
    super();
  }

  protected unauthorized(request: FakeRequest): FakeReply | undefined {
    if (request.path === '/servers') {
      const token = headerOf(request, 'x-postmark-account-token');
      if (token === this.credentials.accountToken) return undefined;
      return postmarkError(401, 10, `Request does not contain a valid Account token.${this.quoted(token)}`);
    }
    const token = headerOf(request, 'x-postmark-server-token');
    if (token === this.credentials.serverToken) return undefined;
    return postmarkError(401, 10, `Request does not contain a valid Server token.${this.quoted(token)}`);
  }

  protected throttled(): FakeReply {
    return postmarkError(429, 429, 'Rate limit exceeded. Please slow down your requests.');
  }

  protected serverError(): FakeReply {
    return postmarkError(500, 100, 'Postmark is undergoing maintenance.');
  }

  protected route(request: FakeRequest): FakeReply {
    if (request.method === 'GET' && request.path === '/server') return { status: 200, body: { ID: 1, Name: 'Fake server', DeliveryType: 'Live' } };
    if (request.method === 'GET' && request.path === '/servers') return { status: 200, body: { TotalCount: 1, Servers: [{ ID: 1, Name: 'Fake server' }] } };
    const stream = /^\/message-streams\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && stream) {
      const id = decodeURIComponent(stream[1]);
      if (!this.streams.includes(id)) return postmarkError(422, 1226, "The message stream for the provided 'ID' was not found.");
      return { status: 200, body: { ID: id, ServerID: 1, Name: id, MessageStreamType: id === 'broadcast' ? 'Broadcasts' : 'Transactional' } };
    }
    if (request.method === 'POST' && request.path === '/email') return this.single(requestJson(request) as PostmarkEmail);
    if (request.method === 'POST' && request.path === '/email/batch') return this.batch(requestJson(request));
    return postmarkError(404, 404, 'Not found');
  }

  private single(email: PostmarkEmail | undefined): FakeReply {
    const result = this.result(email ?? {});
    return result.ErrorCode === 0 ? { status: 200, body: result } : { status: 422, body: result };
  }

  private batch(emails: unknown): FakeReply {
    if (!Array.isArray(emails)) return postmarkError(422, 402, 'Received invalid JSON input.');
    if (emails.length > 500) return postmarkError(422, 410, 'Too many batch messages.');
    return { status: 200, body: emails.map((email) => this.result(email as PostmarkEmail)) };
  }

  private result(email: PostmarkEmail): { ErrorCode: number; Message: string; To?: string; MessageID?: string; SubmittedAt?: string } {
    const stream = email.MessageStream ?? 'outbound';
    if (!email.From || !email.To) return { ErrorCode: 300, Message: 'Invalid email request: From and To are required.' };
    if (!this.streams.includes(stream)) return { ErrorCode: 1235, Message: `The message stream '${stream}' was not found.` };
    if (this.refuses(email.To)) {
      return {
        ErrorCode: 406,
        Message: 'You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: ' + email.To,
      };
    }
    const message: FakeMessage = {
      providerMessageId: this.nextId(),
      from: email.From,
      to: email.To,
      subject: email.Subject ?? '',
      html: email.HtmlBody ?? '',
      text: email.TextBody ?? '',
      headers: Object.fromEntries((email.Headers ?? []).map((header) => [header.Name, header.Value])),
      metadata: email.Metadata ?? {},
    };
    this.accepted.push(message);
    return { ErrorCode: 0, Message: 'OK', To: email.To, MessageID: message.providerMessageId, SubmittedAt: new Date().toISOString() };
  }
}
