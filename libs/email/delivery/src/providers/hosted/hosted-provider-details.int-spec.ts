import aws4 from 'aws4';
import {
  FAKE_MAILGUN_CREDENTIALS,
  FAKE_POSTMARK_CREDENTIALS,
  FAKE_SES_CREDENTIALS,
  fakeProviderSettings,
  useFakeProvider,
} from '../../testing/provider-fakes.fixture';
import { outgoingMessage } from '../../testing/outgoing-message.fixture';
import type { OutgoingMessage } from '../delivery-provider';
import { createDeliveryProvider, DeliveryProviderSettings } from '../provider-factory';
import { AmazonSesProvider } from './amazon-ses.provider';
import type { HostedProviderName } from './hosted-provider';
import { MailgunProvider } from './mailgun.provider';
import { PostmarkProvider } from './postmark.provider';

const message = (overrides: Partial<OutgoingMessage> = {}) =>
  outgoingMessage({ from: { address: 'news@postline.test', name: 'Postline, News' }, subject: 'Grüße aus Köln', headers: {}, ...overrides });

const make = (name: HostedProviderName, baseUrl: string, settings: DeliveryProviderSettings = fakeProviderSettings(name)) =>
  createDeliveryProvider(name, settings, { baseUrls: { [name]: baseUrl }, allowNonLoopbackHosts: false, timeoutMs: 2_000 });

describe('amazon-ses details', () => {
  const fake = useFakeProvider('amazon-ses');

  it('sends raw MIME that keeps a non-ASCII subject and a quoted display name, signed with the secret key', async () => {
    expect(await make('amazon-ses', fake().baseUrl).send(message())).toMatchObject({ kind: 'accepted' });
    expect(fake().accepted[0]).toMatchObject({ subject: 'Grüße aus Köln', from: '"Postline, News" <news@postline.test>' });
  });

  it('refuses a request signed with the wrong secret for a known key id (InvalidSignatureException) as authentication_failed', async () => {
    const settings = { config: fakeProviderSettings('amazon-ses').config, secrets: { secret_access_key: 'not-the-secret-for-this-key' } };
    expect(await make('amazon-ses', fake().baseUrl, settings).send(message())).toMatchObject({
      kind: 'permanent',
      reason: { code: 'authentication_failed', providerStatus: 403, message: expect.stringContaining('signature') },
    });
  });

  it('checks a signature against the time the request was signed, not the time it arrived', async () => {
    // Signed five seconds ago, as a request that waited in a busy client's queue would be.
    const signedAt = new Date(Date.now() - 5000).toISOString().replace(/[:-]|\.\d{3}/g, '');
    const url = new URL('/v2/email/account', fake().baseUrl);
    const signed = aws4.sign(
      { host: url.host, method: 'GET', path: url.pathname, service: 'ses', region: FAKE_SES_CREDENTIALS.region, headers: { 'X-Amz-Date': signedAt } },
      { accessKeyId: FAKE_SES_CREDENTIALS.accessKeyId, secretAccessKey: FAKE_SES_CREDENTIALS.secretAccessKey },
    );
    const response = await fetch(url, { headers: signed.headers as Record<string, string> });
    expect(response.status).toBe(200);
  });

  it("classifies both of SES's throttling answers as throttled: 429 TooManyRequestsException and 400 'Maximum sending rate exceeded'", async () => {
    fake().mode = 'throttle';
    expect(await make('amazon-ses', fake().baseUrl).send(message())).toMatchObject({
      kind: 'throttled',
      reason: { code: 'ThrottlingException', message: 'Maximum sending rate exceeded.', providerStatus: 400 },
    });
    fake().throttleStyle = 'TooManyRequestsException';
    expect(await make('amazon-ses', fake().baseUrl).send(message())).toMatchObject({
      kind: 'throttled',
      reason: { code: 'TooManyRequestsException', providerStatus: 429 },
    });
  });

  it('fails verify when sending is paused on the account', async () => {
    fake().sendingEnabled = false;
    expect(await make('amazon-ses', fake().baseUrl).verify()).toMatchObject({ ok: false, kind: 'permanent', reason: { code: 'sending_paused' } });
  });

  it("defaults to the region's public endpoint and refuses a malformed region", () => {
    const provider = new AmazonSesProvider(
      { region: 'eu-central-1', access_key_id: FAKE_SES_CREDENTIALS.accessKeyId, secret_access_key: 'x'.repeat(40) },
      { allowNonLoopbackHosts: true },
    );
    expect(provider.baseUrl.href).toBe('https://email.eu-central-1.amazonaws.com/');
    expect(() =>
      make('amazon-ses', fake().baseUrl, { config: { region: 'evil.example.com/', access_key_id: 'AKIA1' }, secrets: { secret_access_key: 'x' } }),
    ).toThrow(expect.objectContaining({ field: 'region' }));
  });
});

describe('postmark details', () => {
  const fake = useFakeProvider('postmark');

  it('sends on the broadcast stream unless told another, and one batch request carries every message', async () => {
    const outcomes = await make('postmark', fake().baseUrl).sendBatch!([message({ to: 'a@postline.test' }), message({ to: 'b@postline.test' })]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['accepted', 'accepted']);
    expect(fake().requestsTo('/email/batch')).toHaveLength(1);
    expect(JSON.parse(fake().requestsTo('/email/batch')[0].body)).toEqual([
      expect.objectContaining({ MessageStream: 'broadcast' }),
      expect.objectContaining({ MessageStream: 'broadcast' }),
    ]);
  });

  it('fails verify, and refuses sends, on a message stream the server does not have', async () => {
    const settings = { config: { message_stream: 'newsletters' }, secrets: fakeProviderSettings('postmark').secrets };
    expect(await make('postmark', fake().baseUrl, settings).verify()).toMatchObject({
      ok: false,
      kind: 'permanent',
      reason: { code: 'message_stream_not_found' },
    });
    expect(await make('postmark', fake().baseUrl, settings).send(message())).toMatchObject({ kind: 'permanent', reason: { code: '1235' } });
  });

  it('checks an account token when there is one, and never repeats it', async () => {
    fake().echoCredentials = true;
    const withAccount = (account_token: string) => ({ config: {}, secrets: { server_token: FAKE_POSTMARK_CREDENTIALS.serverToken, account_token } });
    expect(await make('postmark', fake().baseUrl, withAccount(FAKE_POSTMARK_CREDENTIALS.accountToken)).verify()).toEqual({ ok: true, inspection: 'available' });
    const refused = await make('postmark', fake().baseUrl, withAccount('wrong-account-token-123')).verify();
    expect(refused).toMatchObject({ ok: false, kind: 'permanent', reason: { code: 'authentication_failed', message: 'The account token was refused' } });
    expect(JSON.stringify(refused)).not.toContain('wrong-account-token-123');
  });

  it('gives a throttled whole batch one throttled outcome per message', async () => {
    fake().mode = 'throttle';
    const outcomes = await new PostmarkProvider({ server_token: FAKE_POSTMARK_CREDENTIALS.serverToken }, { baseUrl: fake().baseUrl }).sendBatch([
      message({ to: 'a@postline.test' }),
      message({ to: 'b@postline.test' }),
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['throttled', 'throttled']);
  });
});

describe('sendgrid details', () => {
  const fake = useFakeProvider('sendgrid');

  it('puts messages with the same sender and bodies in one request, one personalization each, and the others in their own', async () => {
    const same = (to: string, index: number) =>
      message({ to, messageId: `msg_${index}@postline.test`, headers: { 'List-Unsubscribe': `<https://u.test/${index}>` } });
    const outcomes = await make('sendgrid', fake().baseUrl).sendBatch!([
      same('a@postline.test', 0),
      message({ to: 'b@postline.test', html: '<p>Other</p>' }),
      same('c@postline.test', 2),
    ]);

    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(fake().requestsTo('/v3/mail/send')).toHaveLength(2);
    const first = JSON.parse(fake().requestsTo('/v3/mail/send')[0].body);
    expect(first.personalizations.map((p: { to: Array<{ email: string }> }) => p.to[0].email)).toEqual(['a@postline.test', 'c@postline.test']);
    expect(first.personalizations[1].headers).toEqual({ 'List-Unsubscribe': '<https://u.test/2>', 'Message-ID': '<msg_2@postline.test>' });
    expect(first.content.map((part: { type: string }) => part.type)).toEqual(['text/plain', 'text/html']);
  });

  it('fails verify for a key without the mail.send scope', async () => {
    fake().scopes = ['scopes.read', 'stats.read'];
    expect(await make('sendgrid', fake().baseUrl).verify()).toMatchObject({ ok: false, kind: 'permanent', reason: { code: 'missing_send_permission' } });
    expect(await make('sendgrid', fake().baseUrl).send(message())).toMatchObject({ kind: 'permanent', reason: { code: 'http_403' } });
  });
});

describe('mailgun details', () => {
  const fake = useFakeProvider('mailgun');

  it('picks the US or EU API by region, and refuses another region', () => {
    const mailgun = (region?: string) =>
      createDeliveryProvider(
        'mailgun',
        { config: { domain: FAKE_MAILGUN_CREDENTIALS.domain, region }, secrets: { api_key: 'key-123456' } },
        { allowNonLoopbackHosts: true },
      ) as MailgunProvider;
    expect(mailgun().baseUrl.host).toBe('api.mailgun.net');
    expect(mailgun('us').baseUrl.host).toBe('api.mailgun.net');
    expect(mailgun('eu').baseUrl.host).toBe('api.eu.mailgun.net');
    expect(() => mailgun('ap')).toThrow(expect.objectContaining({ field: 'region' }));
  });

  it('fails verify for a domain Mailgun does not have or has not verified', async () => {
    const other = { config: { domain: 'mg.elsewhere.test' }, secrets: fakeProviderSettings('mailgun').secrets };
    expect(await make('mailgun', fake().baseUrl, other).verify()).toMatchObject({ ok: false, kind: 'permanent', reason: { code: 'domain_not_found' } });
    expect(await make('mailgun', fake().baseUrl, other).send(message())).toMatchObject({ kind: 'permanent', reason: { code: 'domain_not_found' } });
    fake().domainState = 'unverified';
    expect(await make('mailgun', fake().baseUrl).verify()).toMatchObject({ ok: false, kind: 'permanent', reason: { code: 'domain_not_active' } });
  });

  it('sends our headers as h: fields and the metadata as v: fields', async () => {
    await make('mailgun', fake().baseUrl).send(message({ headers: { 'List-Unsubscribe': '<https://u.test/1>' }, metadata: { subscriber_id: 'sub_1' } }));
    const form = new URLSearchParams(fake().requests[0].body);
    expect(form.get('h:Message-Id')).toBe('<msg_01@postline.test>');
    expect(form.get('h:List-Unsubscribe')).toBe('<https://u.test/1>');
    expect(form.get('v:subscriber_id')).toBe('sub_1');
  });
});

describe('resend details', () => {
  const fake = useFakeProvider('resend');

  it('splits a batch into requests of 100, in permissive validation, and keeps the order', async () => {
    const batch = Array.from({ length: 150 }, (_, index) => message({ to: `r${index}@postline.test`, messageId: `msg_${index}@postline.test` }));
    const outcomes = await make('resend', fake().baseUrl).sendBatch!(batch);

    expect(
      fake()
        .requestsTo('/emails/batch')
        .map((request) => JSON.parse(request.body).length),
    ).toEqual([100, 50]);
    expect(
      fake()
        .requestsTo('/emails/batch')
        .every((request) => request.headers['x-batch-validation'] === 'permissive'),
    ).toBe(true);
    expect(outcomes.every((outcome) => outcome.kind === 'accepted')).toBe(true);
    expect(fake().accepted.map((sent) => sent.to)).toEqual(batch.map((sent) => sent.to));
  });

  it('turns metadata into tags of the allowed characters', async () => {
    await make('resend', fake().baseUrl).send(message({ metadata: { 'broadcast id': 'brd 1/2' } }));
    expect(fake().accepted[0].metadata).toEqual({ broadcast_id: 'brd_1_2' });
  });
});

describe('brevo details', () => {
  const fake = useFakeProvider('brevo');

  it("reads the wait from Brevo's x-sib-ratelimit-reset", async () => {
    fake().mode = 'throttle';
    fake().retryAfterSeconds = 7;
    expect(await make('brevo', fake().baseUrl).send(message())).toMatchObject({
      kind: 'throttled',
      retryAfterMs: 7_000,
      reason: { code: 'too_many_requests' },
    });
  });
});
