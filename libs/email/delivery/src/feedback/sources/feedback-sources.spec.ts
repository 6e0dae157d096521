/**
 * Each provider's webhook read as its documentation shows it: the authentication check, and the mapping to feedback
 * events (hard or soft bounce, complaint, what is ignored), using the providers' documented example payloads.
 */
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { trustedWorkspaceId } from '@shared/core';
import type { FeedbackConnection, FeedbackRequest, FeedbackSource } from '../feedback-event';
import { BrevoFeedback } from './brevo.source';
import { MAILGUN_MAX_SIGNATURE_AGE_MS, MailgunFeedback } from './mailgun.source';
import { PostmarkFeedback } from './postmark.source';
import { ResendFeedback } from './resend.source';
import { SENDGRID_SIGNATURE_HEADER, SENDGRID_TIMESTAMP_HEADER, SendGridFeedback } from './sendgrid.source';
import { sesEvents } from './ses.source';

const NOW = new Date('2026-11-24T10:00:00.000Z');
const TOKEN = 'fbt_0123456789abcdef0123456789abcdef';
const connection = (webhookSigningKey?: string): FeedbackConnection => ({
  workspaceId: trustedWorkspaceId('ws_1'),
  provider: 'test',
  feedbackToken: TOKEN,
  webhookSigningKey,
});
const json = (body: unknown, headers: FeedbackRequest['headers'] = {}): FeedbackRequest => ({ body: Buffer.from(JSON.stringify(body)), headers });
const basic = (password: string, user = 'postmark') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

interface Refusal {
  status: number;
  code: string;
  details?: unknown;
  headers?: Record<string, string>;
}
async function refusal(source: FeedbackSource, request: FeedbackRequest, conn: FeedbackConnection): Promise<Refusal> {
  const error = await source.read(request, conn).then(
    () => ({ status: 200, code: 'read' }),
    (e: Refusal) => e,
  );
  expect(error.status).toBeGreaterThanOrEqual(400);
  return error;
}
const expectRefused = async (source: FeedbackSource, request: FeedbackRequest, conn: FeedbackConnection) => {
  const error = await refusal(source, request, conn);
  expect({ status: error.status, code: error.code }).toEqual({ status: 401, code: 'invalid_credential' });
  expect(JSON.stringify(error)).not.toContain(TOKEN);
  return error;
};

describe('Postmark', () => {
  const source = new PostmarkFeedback();
  // The bounce webhook's documented example (its ID is larger than a double holds exactly).
  const bounce = `{"RecordType":"Bounce","MessageStream":"outbound","ID":4323372036854775807,"Type":"HardBounce","TypeCode":1,"Name":"Hard bounce",
    "Tag":"Test","MessageID":"883953f4-6105-42a2-a16a-77a8eac79483","Metadata":{"a_key":"a_value"},"ServerID":23,"Description":"The server was unable to deliver your message (ex: unknown user, mailbox not found).",
    "Details":"Test bounce details","Email":"john@example.com","From":"sender@example.com","BouncedAt":"2019-11-05T16:33:54.9070259Z",
    "DumpAvailable":true,"Inactive":true,"CanActivate":true,"Subject":"Test subject","Content":"<Full dump of bounce>"}`;
  const complaint = {
    RecordType: 'SpamComplaint',
    MessageStream: 'outbound',
    ID: 42,
    Type: 'SpamComplaint',
    TypeCode: 512,
    MessageID: '00000000-0000-0000-0000-000000000000',
    Email: 'john@example.com',
    BouncedAt: '2019-11-05T16:33:54.9070259Z',
    Inactive: true,
  };
  const request = (body: string, password = TOKEN) => ({ body: Buffer.from(body), headers: { authorization: basic(password) } });

  it('reads a hard bounce, keeping the exact 64-bit ID', async () => {
    expect(await source.read(request(bounce), connection())).toEqual([
      {
        providerEventId: 'Bounce:4323372036854775807',
        kind: 'bounce',
        permanent: true,
        recipient: 'john@example.com',
        occurredAt: new Date('2019-11-05T16:33:54.907Z'),
        reason: 'Test bounce details',
        providerMessageId: '883953f4-6105-42a2-a16a-77a8eac79483',
      },
    ]);
  });

  it('reads a spam complaint; a soft bounce is not permanent; auto-replies and other records are ignored', async () => {
    expect(await source.read(request(JSON.stringify(complaint)), connection())).toMatchObject([{ providerEventId: 'SpamComplaint:42', kind: 'complaint' }]);
    const soft = bounce.replace('"HardBounce"', '"SoftBounce"').replace('"Inactive":true', '"Inactive":false');
    expect(await source.read(request(soft), connection())).toMatchObject([{ kind: 'bounce', permanent: false }]);
    expect(await source.read(request(bounce.replace('"HardBounce"', '"AutoResponder"')), connection())).toEqual([]);
    expect(await source.read(request(JSON.stringify({ RecordType: 'Delivery', Recipient: 'john@example.com' })), connection())).toEqual([]);
  });

  it('refuses a wrong or missing password with a basic-auth challenge; any user name goes', async () => {
    const error = await expectRefused(source, request(bounce, 'wrong'), connection());
    expect(error.headers?.['www-authenticate']).toMatch(/^Basic /);
    await expectRefused(source, { body: Buffer.from(bounce), headers: {} }, connection());
    await expectRefused(source, { body: Buffer.from(bounce), headers: { authorization: `Bearer ${TOKEN}` } }, connection());
    await expect(source.read({ body: Buffer.from(bounce), headers: { authorization: basic(TOKEN, '') } }, connection())).resolves.toHaveLength(1);
  });

  it('answers a payload it cannot read with 400 naming the field', async () => {
    const error = await refusal(source, request(JSON.stringify({ ...complaint, Email: 7 })), connection());
    expect(error.status).toBe(400);
    expect(error.details).toEqual({ field: 'Email' });
    expect((await refusal(source, request('{not json'), connection())).code).toBe('invalid_json');
  });
});

describe('SendGrid', () => {
  const source = new SendGridFeedback();
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const verificationKey = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  // Events as in SendGrid's Event Webhook reference.
  const events = [
    {
      email: 'example@test.com',
      timestamp: 1513299569,
      'smtp-id': '<14c5d75ce93.dfd.64b469@ismtpd-555>',
      event: 'processed',
      sg_event_id: 'sg_event_id',
      sg_message_id: 'sg_message_id',
    },
    {
      email: 'example@test.com',
      timestamp: 1513299569,
      event: 'bounce',
      reason: '500 unknown recipient',
      status: '5.0.0',
      type: 'bounce',
      sg_event_id: 'bounce_event_id',
      sg_message_id: 'sg_message_id',
    },
    {
      email: 'example@test.com',
      timestamp: 1513299569,
      event: 'bounce',
      reason: '450 mailbox full',
      status: '4.2.2',
      type: 'blocked',
      sg_event_id: 'blocked_event_id',
    },
    { email: 'example@test.com', timestamp: 1513299569, event: 'dropped', reason: 'Bounced Address', status: '5.0.0', sg_event_id: 'dropped_event_id' },
    { email: 'example@test.com', timestamp: 1513299569, event: 'dropped', reason: 'Unsubscribed Address', sg_event_id: 'dropped_unsub_id' },
    { email: 'example@test.com', timestamp: 1513299569, event: 'spamreport', sg_event_id: 'spam_event_id', sg_message_id: 'sg_message_id' },
    { email: 'not an email address', timestamp: 1386636115, reason: 'Invalid', event: 'dropped' },
  ];
  const signed = (body: Buffer, timestamp = '1700000000', key = privateKey) => ({
    body,
    headers: {
      [SENDGRID_SIGNATURE_HEADER]: sign('sha256', Buffer.concat([Buffer.from(timestamp), body]), key).toString('base64'),
      [SENDGRID_TIMESTAMP_HEADER]: timestamp,
    },
  });
  const body = Buffer.from(JSON.stringify(events));

  it('reads bounce (hard), blocked (soft), dropped for a bounced or invalid address and spamreport; ignores the rest', async () => {
    const read = await source.read(signed(body), connection(verificationKey));
    expect(read.map(({ providerEventId, kind, permanent }) => [providerEventId, kind, permanent])).toEqual([
      ['bounce_event_id', 'bounce', true],
      ['blocked_event_id', 'bounce', false],
      ['dropped_event_id', 'bounce', true],
      ['spam_event_id', 'complaint', true],
      [expect.stringMatching(/^sha256:/), 'bounce', true],
    ]);
    expect(read[0]).toMatchObject({
      recipient: 'example@test.com',
      occurredAt: new Date(1513299569000),
      reason: '500 unknown recipient',
      providerMessageId: 'sg_message_id',
    });
  });

  it('takes the key as SendGrid shows it (base64 DER) or as PEM', async () => {
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    await expect(source.read(signed(body), connection(pem))).resolves.toHaveLength(5);
  });

  it('refuses a missing, altered or foreign signature, and a connection without a key', async () => {
    await expectRefused(source, { body, headers: {} }, connection(verificationKey));
    const good = signed(body);
    await expectRefused(source, { ...good, body: Buffer.from(JSON.stringify(events.slice(1))) }, connection(verificationKey));
    await expectRefused(source, { ...good, headers: { ...good.headers, [SENDGRID_TIMESTAMP_HEADER]: '1700000001' } }, connection(verificationKey));
    await expectRefused(source, signed(body, '1700000000', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey), connection(verificationKey));
    await expectRefused(source, good, connection());
    await expectRefused(source, good, connection('not a key'));
  });
});

describe('Mailgun', () => {
  const clock = { now: () => NOW };
  const source = new MailgunFeedback(clock);
  const KEY = 'key-9f1b3c2d4e5f60718293a4b5c6d7e8f9';
  const MAILGUN_TOKEN = 'e0b5477167110d68991efc6b9f89f0a11066af27834600e123';
  const hmacHex = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');
  const signature = (key = KEY, at = NOW.getTime()) => {
    const timestamp = String(Math.floor(at / 1000));
    return { token: MAILGUN_TOKEN, timestamp, signature: hmacHex(key, timestamp + MAILGUN_TOKEN) };
  };
  // The failed and complained event-data of Mailgun's webhook documentation.
  const failed = {
    id: 'G9Bn5sl1TC6nu79C8C0bwg',
    timestamp: 1521233195.375624,
    'log-level': 'error',
    event: 'failed',
    severity: 'permanent',
    reason: 'suppress-bounce',
    recipient: 'alice@example.com',
    'recipient-domain': 'example.com',
    message: { headers: { to: 'Alice <alice@example.com>', 'message-id': '20130503192659.13651.20287@mg.example.com', from: 'Bob <bob@mg.example.com>' } },
    'delivery-status': { code: 605, message: '', description: 'Not delivering to previously bounced address', 'attempt-no': 1 },
  };
  const complained = { id: '-Agny091SquKnsrW2NEKUA', timestamp: 1521233123.501324, 'log-level': 'warn', event: 'complained', recipient: 'alice@example.com' };
  const request = (eventData: unknown, sig: unknown = signature()) => json({ signature: sig, 'event-data': eventData });

  it('reads failed (permanent: hard, temporary: soft) and complained; ignores other events', async () => {
    expect(await source.read(request(failed), connection(KEY))).toEqual([
      {
        providerEventId: 'G9Bn5sl1TC6nu79C8C0bwg',
        kind: 'bounce',
        permanent: true,
        recipient: 'alice@example.com',
        occurredAt: new Date(1521233195375.624),
        reason: 'Not delivering to previously bounced address',
        providerMessageId: '20130503192659.13651.20287@mg.example.com',
      },
    ]);
    expect(await source.read(request({ ...failed, severity: 'temporary' }), connection(KEY))).toMatchObject([{ permanent: false }]);
    expect(await source.read(request(complained), connection(KEY))).toMatchObject([{ providerEventId: '-Agny091SquKnsrW2NEKUA', kind: 'complaint' }]);
    expect(await source.read(request({ ...complained, event: 'delivered' }), connection(KEY))).toEqual([]);
  });

  it('refuses a missing or wrong signature, another key, and a signature older than the retry window or from the future', async () => {
    await expectRefused(source, json({ 'event-data': failed }), connection(KEY));
    await expectRefused(source, request(failed, { ...signature(), signature: signature('other').signature }), connection(KEY));
    await expectRefused(source, request(failed), connection('other-key'));
    await expectRefused(source, request(failed), connection());
    await expectRefused(source, request(failed, signature(KEY, NOW.getTime() - MAILGUN_MAX_SIGNATURE_AGE_MS - 1000)), connection(KEY));
    await expectRefused(source, request(failed, signature(KEY, NOW.getTime() + 10 * 60_000)), connection(KEY));
    await expect(source.read(request(failed, signature(KEY, NOW.getTime() - 8 * 3_600_000)), connection(KEY))).resolves.toHaveLength(1);
  });
});

describe('Resend', () => {
  const source = new ResendFeedback();
  const SECRET = `whsec_${Buffer.from('resend-test-secret-0123456789abc').toString('base64')}`;
  const signed = (payload: unknown, id = 'msg_2Kq9dWZ7hJ3kL', secret = SECRET) => {
    const body = JSON.stringify(payload);
    const now = new Date();
    return {
      body: Buffer.from(body),
      headers: { 'svix-id': id, 'svix-timestamp': String(Math.floor(now.getTime() / 1000)), 'svix-signature': new Webhook(secret).sign(id, now, body) },
    };
  };
  // The email.bounced example of Resend's webhook documentation.
  const bounced = {
    type: 'email.bounced',
    created_at: '2024-11-22T23:41:12.126Z',
    data: {
      broadcast_id: '8b146471-e88e-4322-86af-016cd36fd216',
      created_at: '2024-11-22T23:41:11.894719+00:00',
      email_id: '56761188-7520-42d8-8898-ff6fc54ce618',
      from: 'Acme <onboarding@resend.dev>',
      to: ['delivered@resend.dev'],
      subject: 'Sending this example',
      bounce: {
        message: "The recipient's email address is on the suppression list because it has a recent history of producing hard bounces.",
        subType: 'Suppressed',
        type: 'Permanent',
      },
    },
  };

  it('reads email.bounced and email.complained under the Svix message id; ignores other types', async () => {
    expect(await source.read(signed(bounced), connection(SECRET))).toEqual([
      {
        providerEventId: 'msg_2Kq9dWZ7hJ3kL',
        kind: 'bounce',
        permanent: true,
        recipient: 'delivered@resend.dev',
        occurredAt: new Date('2024-11-22T23:41:12.126Z'),
        reason: bounced.data.bounce.message,
        providerMessageId: '56761188-7520-42d8-8898-ff6fc54ce618',
      },
    ]);
    const transient = { ...bounced, data: { ...bounced.data, bounce: { ...bounced.data.bounce, type: 'Transient' } } };
    expect(await source.read(signed(transient), connection(SECRET))).toMatchObject([{ permanent: false }]);
    const complained = { type: 'email.complained', created_at: bounced.created_at, data: { ...bounced.data, bounce: undefined } };
    expect(await source.read(signed(complained), connection(SECRET))).toMatchObject([{ kind: 'complaint', permanent: true }]);
    expect(await source.read(signed({ ...bounced, type: 'email.delivered' }), connection(SECRET))).toEqual([]);
  });

  it('refuses missing headers, an altered body, another secret, a stale signature and a malformed secret', async () => {
    await expectRefused(source, json(bounced), connection(SECRET));
    const good = signed(bounced);
    await expectRefused(source, { ...good, body: Buffer.from(JSON.stringify({ ...bounced, type: 'email.complained' })) }, connection(SECRET));
    await expectRefused(source, signed(bounced, 'msg_1', `whsec_${Buffer.from('another-secret-for-the-test-1234').toString('base64')}`), connection(SECRET));
    await expectRefused(source, { ...good, headers: { ...good.headers, 'svix-timestamp': String(Math.floor(Date.now() / 1000) - 3600) } }, connection(SECRET));
    await expectRefused(source, good, connection('not base64 at all!'));
  });
});

describe('Brevo', () => {
  const source = new BrevoFeedback();
  // The transactional webhook's documented hard_bounce example.
  const hardBounce = {
    event: 'hard_bounce',
    email: 'example@domain.com',
    id: 1234,
    date: '2020-10-09 00:00:00',
    ts: 1604933619,
    'message-id': '<201798300811.5787683@relay.domain.com>',
    ts_event: 1604933654,
    subject: 'My first Transactional',
    tag: '["transactionalTag"]',
    sending_ip: '185.41.28.109',
    ts_epoch: 1604933654223,
    reason: 'unknown user',
  };
  const request = (body: unknown, token = TOKEN) => json(body, { authorization: `Bearer ${token}` });

  it('reads hard_bounce, soft_bounce and spam, one event or an array; ignores the rest', async () => {
    const [event] = await source.read(request(hardBounce), connection());
    expect(event).toEqual({
      providerEventId: expect.stringMatching(/^hard_bounce:/),
      kind: 'bounce',
      permanent: true,
      recipient: 'example@domain.com',
      occurredAt: new Date(1604933654223),
      reason: 'unknown user',
      providerMessageId: '<201798300811.5787683@relay.domain.com>',
    });
    const batch = await source.read(
      request([
        { ...hardBounce, event: 'soft_bounce' },
        { ...hardBounce, event: 'spam' },
        { ...hardBounce, event: 'opened' },
      ]),
      connection(),
    );
    expect(batch.map((e) => [e.kind, e.permanent])).toEqual([
      ['bounce', false],
      ['complaint', true],
    ]);
    // The same report redelivered has the same id; another event about the same message does not.
    expect((await source.read(request(hardBounce), connection()))[0].providerEventId).toBe(event.providerEventId);
    expect(batch[0].providerEventId).not.toBe(event.providerEventId);
  });

  it('refuses a missing or wrong bearer token', async () => {
    await expectRefused(source, json(hardBounce), connection());
    const error = await expectRefused(source, request(hardBounce, 'wrong'), connection());
    expect(error.headers?.['www-authenticate']).toMatch(/^Bearer /);
  });
});

describe('Amazon SES notifications', () => {
  // The bounce (with a DSN) and complaint examples of the SES notification documentation.
  const bounce = {
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      reportingMTA: 'dns; email.example.com',
      bouncedRecipients: [
        { emailAddress: 'jane@example.com', status: '5.1.1', action: 'failed', diagnosticCode: 'smtp; 550 5.1.1 <jane@example.com>... User' },
      ],
      bounceSubType: 'General',
      timestamp: '2016-01-27T14:59:38.237Z',
      feedbackId: '00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa068a-000000',
      remoteMtaIp: '127.0.2.0',
    },
    mail: {
      timestamp: '2016-01-27T14:59:38.237Z',
      source: 'john@example.com',
      messageId: '00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa068a-000000',
      destination: ['jane@example.com'],
    },
  };
  const complaint = {
    notificationType: 'Complaint',
    complaint: {
      userAgent: 'AnyCompany Feedback Loop (V0.01)',
      complainedRecipients: [{ emailAddress: 'richard@example.com' }, { emailAddress: 'jane@example.com' }],
      complaintFeedbackType: 'abuse',
      arrivalDate: '2016-01-27T14:59:38.237Z',
      timestamp: '2016-01-27T14:59:38.237Z',
      feedbackId: '000001378603177f-18c07c78-fa81-4a58-9dd1-fedc3cb8f49a-000000',
    },
    mail: { messageId: '000001378603177f-7a5433e7-8edb-42ae-af10-f0181f34d6ee-000000' },
  };

  it('reads a bounce per recipient under feedbackId and recipient', () => {
    expect(sesEvents(bounce, 'sns-1')).toEqual([
      {
        providerEventId: '00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa068a-000000:jane@example.com',
        kind: 'bounce',
        permanent: true,
        recipient: 'jane@example.com',
        occurredAt: new Date('2016-01-27T14:59:38.237Z'),
        reason: 'smtp; 550 5.1.1 <jane@example.com>... User',
        providerMessageId: '00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa068a-000000',
      },
    ]);
    expect(sesEvents({ ...bounce, bounce: { ...bounce.bounce, bounceType: 'Transient' } }, 'sns-1')).toMatchObject([{ permanent: false }]);
    expect(sesEvents({ ...bounce, bounce: { ...bounce.bounce, bounceType: 'Undetermined' } }, 'sns-1')).toMatchObject([{ permanent: false }]);
  });

  it('reads a complaint for each complained recipient; "not-spam", deliveries and event publishing names', () => {
    expect(sesEvents(complaint, 'sns-1').map((e) => [e.recipient, e.kind])).toEqual([
      ['richard@example.com', 'complaint'],
      ['jane@example.com', 'complaint'],
    ]);
    expect(sesEvents({ ...complaint, complaint: { ...complaint.complaint, complaintFeedbackType: 'not-spam' } }, 'sns-1')).toEqual([]);
    expect(sesEvents({ notificationType: 'Delivery', mail: {}, delivery: {} }, 'sns-1')).toEqual([]);
    const { notificationType: _, ...published } = bounce;
    expect(sesEvents({ ...published, eventType: 'Bounce' }, 'sns-1')).toHaveLength(1);
  });
});
