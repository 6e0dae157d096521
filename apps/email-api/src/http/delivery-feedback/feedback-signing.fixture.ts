/**
 * What each provider does to a webhook before it reaches us: the credentials a connection holds and the provider
 * signs with, and signed requests carrying minimal bounce, soft bounce and complaint reports in each provider's
 * documented shape. Written from the providers' specifications, independently of the code under test.
 */
import { createHmac, createPrivateKey, generateKeyPairSync, KeyObject, randomBytes, randomUUID, sign } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export type Kind = 'hard' | 'soft' | 'complaint';

/** A connection's stored secrets, and what the provider signs with. */
export interface Credentials {
  feedbackToken: string;
  webhookSigningKey?: string;
  /** The provider's own signing material (SendGrid's private key, Mailgun's and Resend's keys, SNS's certificate key). */
  signer?: KeyObject | string;
}

export interface SignedRequest {
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

export interface ProviderWebhook {
  provider: string;
  credentials(): Credentials;
  /** The report of `kind` about `recipient`, under the provider event id `id`, signed as the provider signs it. */
  signed(kind: Kind, recipient: string, id: string, credentials: Credentials): SignedRequest;
  /** The same report with a signature (or token) that is not the connection's. */
  forged(kind: Kind, recipient: string, id: string, credentials: Credentials): SignedRequest;
  /** The same report with no signature or credential at all. */
  unsigned(kind: Kind, recipient: string, id: string): SignedRequest;
}

const secret = () => randomBytes(24).toString('base64url');
const basic = (password: string) => `Basic ${Buffer.from(`feedback:${password}`).toString('base64')}`;
const json = (payload: unknown, headers: Record<string, string> = {}): SignedRequest => ({
  contentType: 'application/json',
  body: JSON.stringify(payload),
  headers,
});
const recent = () => new Date(Date.now() - 60_000);
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
const rsaKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

/** Serves an SNS signing certificate on a loopback port and records the subscription confirmations it receives. */
export class SnsEndpoint {
  readonly confirmations: string[] = [];
  certificateFetches = 0;
  readonly privateKey: KeyObject;
  private readonly server: Server;

  private constructor(pems: { cert: string; private: string }) {
    this.privateKey = createPrivateKey(pems.private);
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/SimpleNotificationService.pem') {
        this.certificateFetches += 1;
        response.end(pems.cert);
      } else if (url.searchParams.get('Action') === 'ConfirmSubscription') {
        this.confirmations.push(url.searchParams.get('Token') ?? '');
        response.end('<ConfirmSubscriptionResponse/>');
      } else response.writeHead(404).end();
    });
  }

  static async start(): Promise<SnsEndpoint> {
    const endpoint = new SnsEndpoint(await generate([{ name: 'commonName', value: 'sns.loopback.test' }], { keySize: 2048, algorithm: 'sha256' }));
    await new Promise<void>((resolve) => endpoint.server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const SNS_SIGNED: Record<string, string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** An SNS message as SNS posts it to an HTTP subscriber, signed with `key` (SignatureVersion 1: SHA1, 2: SHA256). */
export function snsMessage(fields: Record<string, string>, certificateUrl: string, key: KeyObject, version: '1' | '2' = '2'): Record<string, string> {
  const message: Record<string, string> = {
    MessageId: randomUUID(),
    TopicArn: 'arn:aws:sns:us-west-2:123456789012:ses-feedback',
    Timestamp: new Date().toISOString(),
    ...fields,
  };
  const text = SNS_SIGNED[message.Type]
    .filter((name) => name in message)
    .map((name) => `${name}\n${message[name]}\n`)
    .join('');
  const signature = sign(version === '1' ? 'sha1' : 'sha256', Buffer.from(text), key).toString('base64');
  return { ...message, SignatureVersion: version, Signature: signature, SigningCertURL: certificateUrl };
}

function sesNotification(kind: Kind, recipient: string, id: string) {
  const timestamp = recent().toISOString();
  const mail = { timestamp, source: 'news@acme.example', messageId: `ses-${id}`, destination: [recipient] };
  if (kind === 'complaint') {
    return {
      notificationType: 'Complaint',
      complaint: { complainedRecipients: [{ emailAddress: recipient }], complaintFeedbackType: 'abuse', timestamp, feedbackId: id },
      mail,
    };
  }
  const bounceType = kind === 'hard' ? 'Permanent' : 'Transient';
  const diagnosticCode = kind === 'hard' ? 'smtp; 550 5.1.1 user unknown' : 'smtp; 452 4.2.2 mailbox full';
  return {
    notificationType: 'Bounce',
    bounce: { bounceType, bouncedRecipients: [{ emailAddress: recipient, action: 'failed', diagnosticCode }], timestamp, feedbackId: id },
    mail,
  };
}

/** Amazon SES through SNS: the SNS signature (certificate served by `sns`) and the basic-auth password of the subscribed URL. */
export function sesWebhook(sns: SnsEndpoint): ProviderWebhook {
  const certificateUrl = `${sns.origin}/SimpleNotificationService.pem`;
  const request = (kind: Kind, recipient: string, id: string, key: KeyObject, headers: Record<string, string>): SignedRequest => ({
    contentType: 'text/plain; charset=UTF-8',
    body: JSON.stringify(snsMessage({ Type: 'Notification', Message: JSON.stringify(sesNotification(kind, recipient, id)) }, certificateUrl, key)),
    headers: { 'x-amz-sns-message-type': 'Notification', ...headers },
  });
  return {
    provider: 'amazon-ses',
    credentials: () => ({ feedbackToken: secret(), signer: sns.privateKey }),
    signed: (kind, recipient, id, c) => request(kind, recipient, id, c.signer as KeyObject, { authorization: basic(c.feedbackToken) }),
    forged: (kind, recipient, id, c) => request(kind, recipient, id, rsaKey(), { authorization: basic(c.feedbackToken) }),
    unsigned: (kind, recipient, id) => {
      const { Signature: _s, SignatureVersion: _v, SigningCertURL: _u, ...bare } = JSON.parse(request(kind, recipient, id, sns.privateKey, {}).body);
      return { contentType: 'text/plain; charset=UTF-8', body: JSON.stringify(bare), headers: {} };
    },
  };
}

function postmarkRecord(kind: Kind, recipient: string, id: string) {
  const common = { ID: Number(id), MessageID: randomUUID(), Email: recipient, BouncedAt: recent().toISOString(), MessageStream: 'broadcast' };
  if (kind === 'complaint') return { RecordType: 'SpamComplaint', Type: 'SpamComplaint', TypeCode: 512, Inactive: true, ...common };
  return kind === 'hard'
    ? { RecordType: 'Bounce', Type: 'HardBounce', TypeCode: 1, Inactive: true, Details: 'smtp;550 5.1.1 unknown user', ...common }
    : { RecordType: 'Bounce', Type: 'SoftBounce', TypeCode: 4096, Inactive: false, Details: 'mailbox full', ...common };
}

/** Postmark: basic-auth credentials in the webhook URL. */
export const postmarkWebhook: ProviderWebhook = {
  provider: 'postmark',
  credentials: () => ({ feedbackToken: secret() }),
  signed: (kind, recipient, id, c) => json(postmarkRecord(kind, recipient, id), { authorization: basic(c.feedbackToken) }),
  forged: (kind, recipient, id) => json(postmarkRecord(kind, recipient, id), { authorization: basic(secret()) }),
  unsigned: (kind, recipient, id) => json(postmarkRecord(kind, recipient, id)),
};

function sendGridEvents(kind: Kind, recipient: string, id: string) {
  const common = { email: recipient, timestamp: seconds(recent()), sg_event_id: id, sg_message_id: `sg-${id}.filter0001`, 'smtp-id': `<${id}@ismtpd>` };
  if (kind === 'complaint') return [{ event: 'spamreport', ...common }];
  return [
    { event: 'bounce', type: kind === 'hard' ? 'bounce' : 'blocked', reason: kind === 'hard' ? '550 5.1.1 unknown user' : '452 mailbox full', ...common },
  ];
}

function sendGridRequest(kind: Kind, recipient: string, id: string, key: KeyObject): SignedRequest {
  const body = JSON.stringify(sendGridEvents(kind, recipient, id));
  const timestamp = String(seconds(new Date()));
  const signature = sign('sha256', Buffer.from(timestamp + body), key).toString('base64');
  return {
    contentType: 'application/json',
    body,
    headers: { 'x-twilio-email-event-webhook-signature': signature, 'x-twilio-email-event-webhook-timestamp': timestamp },
  };
}

/** SendGrid: the signed event webhook (ECDSA P-256); the connection holds the verification key SendGrid shows. */
export const sendGridWebhook: ProviderWebhook = {
  provider: 'sendgrid',
  credentials: () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { feedbackToken: secret(), webhookSigningKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'), signer: privateKey };
  },
  signed: (kind, recipient, id, c) => sendGridRequest(kind, recipient, id, c.signer as KeyObject),
  forged: (kind, recipient, id) => sendGridRequest(kind, recipient, id, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey),
  unsigned: (kind, recipient, id) => json(sendGridEvents(kind, recipient, id)),
};

function mailgunEventData(kind: Kind, recipient: string, id: string) {
  const common = { id, timestamp: recent().getTime() / 1000, recipient, message: { headers: { 'message-id': `${id}@mg.acme.example` } } };
  if (kind === 'complaint') return { event: 'complained', 'log-level': 'warn', ...common };
  return {
    event: 'failed',
    severity: kind === 'hard' ? 'permanent' : 'temporary',
    'log-level': 'error',
    'delivery-status': { code: kind === 'hard' ? 550 : 452 },
    ...common,
  };
}

function mailgunSignature(key: string) {
  const timestamp = String(seconds(new Date()));
  const token = randomBytes(25).toString('hex');
  return {
    timestamp,
    token,
    signature: createHmac('sha256', key)
      .update(timestamp + token)
      .digest('hex'),
  };
}

/** Mailgun: HMAC-SHA256 of timestamp + token with the webhook signing key, in the body's `signature` member. */
export const mailgunWebhook: ProviderWebhook = {
  provider: 'mailgun',
  credentials: () => {
    const key = `key-${randomBytes(16).toString('hex')}`;
    return { feedbackToken: secret(), webhookSigningKey: key, signer: key };
  },
  signed: (kind, recipient, id, c) => json({ signature: mailgunSignature(c.signer as string), 'event-data': mailgunEventData(kind, recipient, id) }),
  forged: (kind, recipient, id) =>
    json({ signature: mailgunSignature(`key-${randomBytes(16).toString('hex')}`), 'event-data': mailgunEventData(kind, recipient, id) }),
  unsigned: (kind, recipient, id) => json({ 'event-data': mailgunEventData(kind, recipient, id) }),
};

function resendEvent(kind: Kind, recipient: string) {
  const data = { email_id: randomUUID(), from: 'Acme <news@acme.example>', to: [recipient], subject: 'News', created_at: recent().toISOString() };
  if (kind === 'complaint') return { type: 'email.complained', created_at: recent().toISOString(), data };
  const bounce =
    kind === 'hard'
      ? { type: 'Permanent', subType: 'General', message: 'unknown user' }
      : { type: 'Transient', subType: 'MailboxFull', message: 'mailbox full' };
  return { type: 'email.bounced', created_at: recent().toISOString(), data: { ...data, bounce } };
}

/** Svix's scheme: HMAC-SHA256 with the base64 key after `whsec_`, over `id.timestamp.body`, as `v1,<base64>`. */
function svixRequest(kind: Kind, recipient: string, id: string, whsec: string): SignedRequest {
  const body = JSON.stringify(resendEvent(kind, recipient));
  const timestamp = String(seconds(new Date()));
  const mac = createHmac('sha256', Buffer.from(whsec.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return { contentType: 'application/json', body, headers: { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': `v1,${mac}` } };
}

const whsec = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Resend: Svix-signed webhooks; the connection holds the endpoint's `whsec_…` secret. */
export const resendWebhook: ProviderWebhook = {
  provider: 'resend',
  credentials: () => {
    const key = whsec();
    return { feedbackToken: secret(), webhookSigningKey: key, signer: key };
  },
  signed: (kind, recipient, id, c) => svixRequest(kind, recipient, `msg_${id}`, c.signer as string),
  forged: (kind, recipient, id) => svixRequest(kind, recipient, `msg_${id}`, whsec()),
  unsigned: (kind, recipient) => json(resendEvent(kind, recipient)),
};

function brevoEvent(kind: Kind, recipient: string, id: string) {
  const at = recent();
  const event = kind === 'complaint' ? 'spam' : kind === 'hard' ? 'hard_bounce' : 'soft_bounce';
  return {
    event,
    email: recipient,
    id: 1234,
    date: at.toISOString(),
    'message-id': `<${id}@smtp-relay.brevo.com>`,
    ts_event: seconds(at),
    ts_epoch: at.getTime(),
    reason: 'unknown user',
  };
}

/** Brevo: the bearer token configured on the webhook. */
export const brevoWebhook: ProviderWebhook = {
  provider: 'brevo',
  credentials: () => ({ feedbackToken: secret() }),
  signed: (kind, recipient, id, c) => json(brevoEvent(kind, recipient, id), { authorization: `Bearer ${c.feedbackToken}` }),
  forged: (kind, recipient, id) => json(brevoEvent(kind, recipient, id), { authorization: `Bearer ${secret()}` }),
  unsigned: (kind, recipient, id) => json(brevoEvent(kind, recipient, id)),
};
