import aws4 from 'aws4';
import { FakeProviderServer, FakeReply, FakeRequest, headerOf, requestJson } from './fake-provider-server.fixture';
import { readMime } from './mime-reader.fixture';

export interface FakeSesCredentials {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A key that may send but not read the account (GetAccount is AccessDenied). */
  sendOnly: { accessKeyId: string; secretAccessKey: string };
}

export const FAKE_SES_CREDENTIALS: FakeSesCredentials = {
  region: 'eu-west-1',
  accessKeyId: 'AKIAFAKESES000000001',
  secretAccessKey: 'fake-ses-secret-9f3b2c7d1e4a6b8c0d2e4f6a8b0c2d4e',
  sendOnly: { accessKeyId: 'AKIAFAKESESSENDONLY1', secretAccessKey: 'fake-ses-send-only-secret-1a2b3c4d5e6f' },
};

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** SES v2 answers: errors are `{ message }` with the type in `x-amzn-ErrorType`. */
const sesError = (status: number, type: string, message: string): FakeReply => ({
  status,
  headers: { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazonaws.sesv2/` },
  body: { message },
});

/**
 * Amazon SES v2 (`SendEmail`, `GetAccount`) that checks each request's SigV4 signature against the keys it knows.
 * `throttleStyle` picks SES's answer to a too-fast sender: the API's 429 `TooManyRequestsException`, or the sending
 * rate limit's `Throttling – Maximum sending rate exceeded` (400 `ThrottlingException`).
 */
export class FakeAmazonSes extends FakeProviderServer {
  readonly provider = 'amazon-ses';
  throttleStyle: 'TooManyRequestsException' | 'MaximumSendingRate' = 'MaximumSendingRate';
  sendingEnabled = true;

  override reset(): void {
    super.reset();
    this.throttleStyle = 'MaximumSendingRate';
    this.sendingEnabled = true;
  }

  constructor(readonly credentials: FakeSesCredentials = FAKE_SES_CREDENTIALS) {
    super();
  }

  protected unauthorized(request: FakeRequest): FakeReply | undefined {
    const authorization = headerOf(request, 'authorization') ?? '';
    const match = AUTHORIZATION.exec(authorization);
    if (!match) return sesError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    const [, accessKeyId, , region, service, signedHeaders, signature] = match;
    const secret = this.secretOf(accessKeyId);
    if (!secret || region !== this.credentials.region || service !== 'ses') {
      return sesError(403, 'UnrecognizedClientException', `The security token included in the request is invalid.${this.quoted(accessKeyId)}`);
    }
    const headers = Object.fromEntries(signedHeaders.split(';').map((name) => [name, headerOf(request, name) ?? '']));
    const signer = new aws4.RequestSigner(
      { host: headers.host, method: request.method, path: request.path, service: 'ses', region, headers, body: request.body || undefined },
      { accessKeyId, secretAccessKey: secret },
    );
    // Reads the request's X-Amz-Date first: signature() alone signs with the current time, so a request signed in the
    // second before it arrived looked forged (a flaky test).
    signer.prepareRequest();
    const expected = signer.signature();
    if (expected !== signature) {
      return sesError(
        403,
        'InvalidSignatureException',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
      );
    }
    return undefined;
  }

  protected throttled(): FakeReply {
    return this.throttleStyle === 'TooManyRequestsException'
      ? sesError(429, 'TooManyRequestsException', 'Too many requests have been made to the operation.')
      : sesError(400, 'ThrottlingException', 'Maximum sending rate exceeded.');
  }

  protected serverError(): FakeReply {
    return sesError(500, 'InternalFailure', 'The request processing has failed because of an unknown error, exception or failure.');
  }

  protected route(request: FakeRequest): FakeReply {
    if (request.method === 'GET' && request.path === '/v2/email/account') {
      if (this.accessKeyOf(request) === this.credentials.sendOnly.accessKeyId) {
        return sesError(403, 'AccessDeniedException', 'User is not authorized to perform: ses:GetAccount');
      }
      return {
        status: 200,
        body: {
          SendingEnabled: this.sendingEnabled,
          ProductionAccessEnabled: true,
          EnforcementStatus: 'HEALTHY',
          SendQuota: { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: this.accepted.length },
        },
      };
    }
    if (request.method === 'POST' && request.path === '/v2/email/outbound-emails') return this.sendEmail(request);
    return sesError(404, 'NotFoundException', 'Not found');
  }

  private sendEmail(request: FakeRequest): FakeReply {
    const body = requestJson(request) as
      | {
          FromEmailAddress?: string;
          Destination?: { ToAddresses?: string[] };
          Content?: { Raw?: { Data?: string } };
          EmailTags?: Array<{ Name: string; Value: string }>;
        }
      | undefined;
    const to = body?.Destination?.ToAddresses?.[0];
    const data = body?.Content?.Raw?.Data;
    if (!to || !data) return sesError(400, 'BadRequestException', 'Destination and Content are required.');
    if (this.refuses(to)) return sesError(400, 'MessageRejected', `Email address is not verified. The following identities failed the check: ${to}`);
    const mime = readMime(Buffer.from(data, 'base64').toString('utf8'));
    const { From = '', To = '', Subject = '', ...headers } = mime.headers;
    const providerMessageId = `0100018f${this.nextId()}`;
    this.accepted.push({
      providerMessageId,
      from: From,
      to: To,
      subject: Subject,
      html: mime.html,
      text: mime.text,
      headers,
      metadata: Object.fromEntries((body?.EmailTags ?? []).map((tag) => [tag.Name, tag.Value])),
    });
    return { status: 200, body: { MessageId: providerMessageId } };
  }

  private secretOf(accessKeyId: string): string | undefined {
    const { credentials } = this;
    if (accessKeyId === credentials.accessKeyId) return credentials.secretAccessKey;
    return accessKeyId === credentials.sendOnly.accessKeyId ? credentials.sendOnly.secretAccessKey : undefined;
  }

  private accessKeyOf(request: FakeRequest): string | undefined {
    return AUTHORIZATION.exec(headerOf(request, 'authorization') ?? '')?.[1];
  }
}
