/**
 * POST /v1/delivery-feedback/{connection_id} for each of the six providers with a webhook, as the provider sends it:
 * a missing or bad signature is refused and records nothing; a signed hard bounce makes the subscriber Bounced, a
 * complaint Complained, a soft bounce is only recorded; a redelivery changes nothing; an unknown recipient is ignored;
 * nothing crosses workspaces; no secret shows in a response or a log line.
 */
import request from 'supertest';
import { EngagementRepository } from '@email/audience-engine';
import { DeliveryFeedbackRepository, FEEDBACK_RECEIPT_RETENTION_MS, SnsMessages } from '@email/delivery';
import { feedbackApi, FeedbackApi } from './feedback-api.fixture';
import {
  brevoWebhook,
  Credentials,
  mailgunWebhook,
  postmarkWebhook,
  ProviderWebhook,
  resendWebhook,
  sendGridWebhook,
  sesWebhook,
  SnsEndpoint,
  snsMessage,
} from './feedback-signing.fixture';

let api: FeedbackApi;
let sns: SnsEndpoint;
let sequence = 1000;
const nextId = () => String(++sequence);
const secrets: string[] = [];

beforeAll(async () => {
  [api, sns] = await Promise.all([feedbackApi(), SnsEndpoint.start()]);
});
afterAll(async () => {
  await api?.close();
  await sns?.close();
});

const webhooks = (): ProviderWebhook[] => [sesWebhook(sns), postmarkWebhook, sendGridWebhook, mailgunWebhook, resendWebhook, brevoWebhook];

describe.each(['amazon-ses', 'postmark', 'sendgrid', 'mailgun', 'resend', 'brevo'])('%s feedback', (provider) => {
  let webhook: ProviderWebhook;
  let credentials: Credentials;
  let connectionId: string;
  let workspace: { id: string; key: string };

  beforeAll(async () => {
    webhook = webhooks().find((candidate) => candidate.provider === provider)!;
    credentials = webhook.credentials();
    secrets.push(credentials.feedbackToken, ...(credentials.webhookSigningKey ? [credentials.webhookSigningKey] : []));
    workspace = await api.workspace(`${provider} workspace`);
    connectionId = api.connect(workspace.id, provider, credentials);
  });

  const email = (name: string) => `${name}.${provider}@example.com`;

  it('refuses a missing or a bad signature with 401 and records nothing', async () => {
    const id = await api.subscriber(workspace.key, email('refused'));
    for (const refused of [webhook.unsigned('hard', email('refused'), nextId()), webhook.forged('hard', email('refused'), nextId(), credentials)]) {
      const res = await api.post(connectionId, refused);
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 401,
        error: expect.objectContaining({ type: 'authentication_error', code: 'invalid_credential' }),
      });
    }
    expect(await api.trace(id)).toEqual({ status: 'Active', events: [], outbox: [] });
    expect(await api.prisma.deliveryFeedbackReceipt.count({ where: { connection_id: connectionId } })).toBe(0);
  });

  it('applies a signed hard bounce once: Bounced, one bounced event, one status change; a redelivery changes nothing', async () => {
    const id = await api.subscriber(workspace.key, email('hard'));
    const signed = webhook.signed('hard', email('hard'), nextId(), credentials);
    const first = await api.post(connectionId, signed);
    expect({ status: first.status, body: first.body }).toEqual({
      status: 200,
      body: { data: { received: 1, applied: 1, duplicates: 0, unknown_recipients: 0 } },
    });
    const expected = {
      status: 'Bounced',
      events: [{ workspace_id: workspace.id, type: 'bounced' }],
      outbox: [{ workspace_id: workspace.id, payload: { subscriber: { id }, previous_status: 'Active', status: 'Bounced' } }],
    };
    expect(await api.trace(id)).toEqual(expected);

    const again = await api.post(connectionId, signed);
    expect(again.body).toEqual({ data: { received: 1, applied: 0, duplicates: 1, unknown_recipients: 0 } });
    expect(await api.trace(id)).toEqual(expected);
  });

  it('a complaint makes the subscriber Complained; a soft bounce is recorded without a status change', async () => {
    const complainer = await api.subscriber(workspace.key, email('complainer'));
    const soft = await api.subscriber(workspace.key, email('soft'));
    expect((await api.post(connectionId, webhook.signed('complaint', email('complainer'), nextId(), credentials))).body.data?.applied).toBe(1);
    expect((await api.post(connectionId, webhook.signed('soft', email('soft'), nextId(), credentials))).body.data?.applied).toBe(1);
    expect(await api.trace(complainer)).toMatchObject({
      status: 'Complained',
      events: [{ type: 'complained' }],
      outbox: [{ payload: { status: 'Complained' } }],
    });
    expect(await api.trace(soft)).toEqual({ status: 'Active', events: [{ workspace_id: workspace.id, type: 'bounced' }], outbox: [] });
  });

  it("ignores a recipient the connection's workspace does not have, and never touches another workspace's subscriber", async () => {
    const other = await api.workspace(`${provider} other workspace`);
    const elsewhere = await api.subscriber(other.key, email('elsewhere'));
    const shared = await api.subscriber(other.key, email('shared'));
    const mine = await api.subscriber(workspace.key, email('shared'));

    const unknown = await api.post(connectionId, webhook.signed('hard', email('elsewhere'), nextId(), credentials));
    expect(unknown.body).toEqual({ data: { received: 1, applied: 0, duplicates: 0, unknown_recipients: 1 } });
    expect((await api.post(connectionId, webhook.signed('hard', email('shared'), nextId(), credentials))).body.data?.applied).toBe(1);

    expect(await api.trace(elsewhere)).toEqual({ status: 'Active', events: [], outbox: [] });
    expect(await api.trace(shared)).toEqual({ status: 'Active', events: [], outbox: [] });
    expect((await api.trace(mine)).status).toBe('Bounced');
  });
});

describe('delivery feedback: common rules', () => {
  let workspace: { id: string; key: string };
  let postmark: string;
  let credentials: Credentials;

  beforeAll(async () => {
    workspace = await api.workspace('precedence');
    credentials = postmarkWebhook.credentials();
    secrets.push(credentials.feedbackToken);
    postmark = api.connect(workspace.id, 'postmark', credentials);
  });

  it('never downgrades: a bounce leaves Unsubscribed, Complained and Blocked; a complaint outranks Unsubscribed and Bounced, not Blocked', async () => {
    const cases: Array<[string, 'hard' | 'complaint', string]> = [
      ['Unsubscribed', 'hard', 'Unsubscribed'],
      ['Complained', 'hard', 'Complained'],
      ['Blocked', 'hard', 'Blocked'],
      ['Unconfirmed', 'hard', 'Bounced'],
      ['Unsubscribed', 'complaint', 'Complained'],
      ['Bounced', 'complaint', 'Complained'],
      ['Blocked', 'complaint', 'Blocked'],
    ];
    for (const [i, [from, kind, to]] of cases.entries()) {
      const address = `precedence${i}@example.com`;
      const id = await api.subscriber(workspace.key, address, from);
      expect((await api.post(postmark, postmarkWebhook.signed(kind, address, nextId(), credentials))).body.data?.applied).toBe(1);
      const trace = await api.trace(id);
      expect({ from, kind, status: trace.status, events: trace.events.length, changes: trace.outbox.length }).toEqual({
        from,
        kind,
        status: to,
        events: 1,
        changes: from === to ? 0 : 1,
      });
    }
  });

  it('answers 404 for an unknown connection and for one whose provider has no webhook (custom-smtp)', async () => {
    const smtp = api.connect(workspace.id, 'custom-smtp', { feedbackToken: 'unused-token' });
    for (const id of ['dc_unknown', smtp]) {
      const res = await api.post(id, postmarkWebhook.signed('hard', 'someone@example.com', nextId(), credentials));
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 404, code: 'resource_not_found' });
    }
  });

  it('answers a verified payload it cannot read with 400 naming the field', async () => {
    const signed = postmarkWebhook.signed('hard', 'someone@example.com', nextId(), credentials);
    const res = await api.post(postmark, { ...signed, body: JSON.stringify({ ...JSON.parse(signed.body), Email: null }) });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { error: expect.objectContaining({ code: 'validation_failed', details: { field: 'Email' } }) },
    });
  });

  it('applies a report with its receipt in one transaction: a failure part-way leaves nothing, and the retry applies it', async () => {
    const id = await api.subscriber(workspace.key, 'atomic@example.com');
    const signed = postmarkWebhook.signed('hard', 'atomic@example.com', nextId(), credentials);
    const engagement = api.app.get(EngagementRepository);
    const failing = jest.spyOn(engagement, 'record').mockRejectedValueOnce(new Error('engagement write failed'));
    expect((await api.post(postmark, signed)).status).toBe(500);
    failing.mockRestore();
    expect(await api.trace(id)).toEqual({ status: 'Active', events: [], outbox: [] });
    expect((await api.post(postmark, signed)).body.data).toMatchObject({ applied: 1, duplicates: 0 });
    expect((await api.trace(id)).status).toBe('Bounced');
  });

  it('applies one of two concurrent deliveries of the same report', async () => {
    const id = await api.subscriber(workspace.key, 'concurrent@example.com');
    const signed = postmarkWebhook.signed('complaint', 'concurrent@example.com', nextId(), credentials);
    const results = await Promise.all([api.post(postmark, signed), api.post(postmark, signed), api.post(postmark, signed)]);
    expect(results.map((res) => res.body.data?.applied).sort()).toEqual([0, 0, 1]);
    expect(await api.trace(id)).toMatchObject({ status: 'Complained', events: [{ type: 'complained' }], outbox: [{ payload: { previous_status: 'Active' } }] });
  });

  it('prunes receipts older than the retention, keeping younger ones', async () => {
    const now = Date.now();
    const row = (provider_event_id: string, age: number) => ({
      connection_id: 'dc_prune',
      provider_event_id,
      workspace_id: workspace.id,
      received_at: new Date(now - age),
    });
    await api.prisma.deliveryFeedbackReceipt.createMany({
      data: [row('old', FEEDBACK_RECEIPT_RETENTION_MS + 60_000), row('young', FEEDBACK_RECEIPT_RETENTION_MS - 60_000)],
    });
    expect(await api.app.get(DeliveryFeedbackRepository).prune(new Date(now - FEEDBACK_RECEIPT_RETENTION_MS))).toBe(1);
    const left = await api.prisma.deliveryFeedbackReceipt.findMany({ where: { connection_id: 'dc_prune' } });
    expect(left.map((receipt) => receipt.provider_event_id)).toEqual(['young']);
  });

  it('takes text/plain only on the feedback route', async () => {
    await request(api.app.getHttpServer())
      .post('/v1/subscribers')
      .set('authorization', `Bearer ${workspace.key}`)
      .set('content-type', 'text/plain')
      .send('{}')
      .expect(415);
  });
});

describe('delivery feedback: Amazon SES through SNS', () => {
  let workspace: { id: string; key: string };
  let connectionId: string;
  let credentials: Credentials;
  const certificateUrl = () => `${sns.origin}/SimpleNotificationService.pem`;
  const auth = () => `Basic ${Buffer.from(`sns:${credentials.feedbackToken}`).toString('base64')}`;
  const postSns = (message: Record<string, string>, authorization = auth()) =>
    api.post(connectionId, { contentType: 'text/plain; charset=UTF-8', body: JSON.stringify(message), headers: { authorization } });

  beforeAll(async () => {
    workspace = await api.workspace('ses');
    credentials = sesWebhook(sns).credentials();
    secrets.push(credentials.feedbackToken);
    connectionId = api.connect(workspace.id, 'amazon-ses', credentials);
  });

  it('confirms a signed subscription through its SubscribeURL, and only a signed one', async () => {
    const confirmation = (token: string) => ({
      Type: 'SubscriptionConfirmation',
      Token: token,
      Message: 'You have chosen to subscribe to the topic. To confirm the subscription, visit the SubscribeURL included in this message.',
      SubscribeURL: `${sns.origin}/?Action=ConfirmSubscription&TopicArn=arn%3Aaws%3Asns%3Aus-west-2%3A123456789012%3Ases-feedback&Token=${token}`,
    });
    const confirmed = await postSns(snsMessage(confirmation('tok-signed'), certificateUrl(), sns.privateKey));
    expect({ status: confirmed.status, body: confirmed.body }).toEqual({
      status: 200,
      body: { data: { received: 0, applied: 0, duplicates: 0, unknown_recipients: 0 } },
    });
    const tampered = { ...snsMessage(confirmation('tok-a'), certificateUrl(), sns.privateKey), Token: 'tok-tampered' };
    expect((await postSns(tampered)).status).toBe(401);
    expect(sns.confirmations).toEqual(['tok-signed']);
  });

  it('accepts SignatureVersion 1 (SHA1) and 2 (SHA256), fetching the certificate once', async () => {
    const id = await api.subscriber(workspace.key, 'v1@example.com');
    const notification = (feedbackId: string) => ({
      Type: 'Notification',
      Subject: 'Amazon SES Email Event Notification',
      Message: JSON.stringify({
        notificationType: 'Complaint',
        complaint: {
          complainedRecipients: [{ emailAddress: 'V1@Example.com' }],
          complaintFeedbackType: 'abuse',
          timestamp: new Date().toISOString(),
          feedbackId,
        },
        mail: { messageId: 'ses-1' },
      }),
    });
    expect((await postSns(snsMessage(notification('fb-v1'), certificateUrl(), sns.privateKey, '1'))).body.data?.applied).toBe(1);
    expect((await postSns(snsMessage(notification('fb-v2'), certificateUrl(), sns.privateKey, '2'))).body.data?.applied).toBe(1);
    expect(await api.trace(id)).toMatchObject({ status: 'Complained', events: [{ type: 'complained' }, { type: 'complained' }] });
    expect(sns.certificateFetches).toBe(1);
  });

  it('asks for basic auth with a challenge; refuses a certificate URL off an SNS host and an unknown signature version', async () => {
    const message = snsMessage({ Type: 'Notification', Message: '{}' }, certificateUrl(), sns.privateKey);
    const challenged = await postSns(message, '');
    expect({ status: challenged.status, challenge: challenged.headers['www-authenticate'] }).toEqual({
      status: 401,
      challenge: expect.stringMatching(/^Basic /),
    });
    const offHost = snsMessage({ Type: 'Notification', Message: '{}' }, 'https://sns.us-west-2.amazonaws.com.evil.example/cert.pem', sns.privateKey);
    expect((await postSns(offHost)).status).toBe(401);
    expect((await postSns({ ...message, SignatureVersion: '3' })).status).toBe(401);
  });

  it('fetches from SNS hosts only where the services may leave the machine', async () => {
    const message = snsMessage({ Type: 'Notification', Message: '{}' }, 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem', sns.privateKey);
    // Stands in for the network: the assertion is only whether a request to AWS is attempted at all.
    const fetched = jest.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('offline'));
    try {
      expect(await new SnsMessages({}).verify(message)).toBeNull();
      expect(fetched).not.toHaveBeenCalled();
      expect(await new SnsMessages({ allowSnsHosts: true }).verify(message)).toBeNull();
      expect(fetched).toHaveBeenCalledWith(new URL('https://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem'), expect.anything());
    } finally {
      fetched.mockRestore();
    }
  });

  it('without the test option, fetches nothing from a URL off an SNS host', async () => {
    const production = new SnsMessages({});
    const before = sns.certificateFetches;
    expect(
      await production.verify(snsMessage({ Type: 'Notification', Message: '{}' }, `${sns.origin}/SimpleNotificationService.pem`, sns.privateKey)),
    ).toBeNull();
    const subscription = {
      Type: 'SubscriptionConfirmation' as const,
      MessageId: 'm',
      TopicArn: 't',
      Message: '',
      SubscribeURL: `${sns.origin}/?Action=ConfirmSubscription&Token=x`,
    };
    await expect(production.confirm(subscription)).rejects.toThrow('not an SNS ConfirmSubscription link');
    expect({ fetches: sns.certificateFetches, confirmations: sns.confirmations.includes('x') }).toEqual({ fetches: before, confirmations: false });
  });
});

describe('delivery feedback: secrets', () => {
  it('no connection secret appears in any response or log line', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    expect(api.responses.length).toBeGreaterThan(40);
    expect(api.logs.length).toBeGreaterThan(0);
    const seen = [...api.responses, ...api.logs].join('\n');
    for (const value of secrets) expect(seen.includes(value)).toBe(false);
  });
});
