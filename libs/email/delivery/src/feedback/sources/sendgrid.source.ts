import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { FeedbackConnection, FeedbackEvent, FeedbackRequest, FeedbackSource } from '../feedback-event';
import { arrayAt, instantAt, objectAt, optionalText, parseJson, textAt, type Json } from '../payload';
import { headerOf, notFromProvider } from '../request-auth';

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/** The verification key as SendGrid shows it (base64 DER, SubjectPublicKeyInfo) or as PEM; null when it is neither. */
function publicKey(key: string): KeyObject | null {
  try {
    return key.includes('-----BEGIN') ? createPublicKey(key) : createPublicKey({ key: Buffer.from(key, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

/** SendGrid's signed event webhook: ECDSA (P-256, SHA-256, DER signature in base64) over the timestamp header + the raw body. */
export function verifySendGridSignature(key: string, timestamp: string, body: Buffer, signature: string): boolean {
  const publicKeyObject = publicKey(key);
  if (!publicKeyObject || publicKeyObject.asymmetricKeyType !== 'ec') return false;
  try {
    return verify('sha256', Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), publicKeyObject, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** `dropped` reasons that are a bounce or a complaint recorded earlier; other drops (unsubscribed, spam content, quota) are not feedback. */
const DROPPED: Record<string, Pick<FeedbackEvent, 'kind' | 'permanent'>> = {
  'Bounced Address': { kind: 'bounce', permanent: true },
  Invalid: { kind: 'bounce', permanent: true },
  'Spam Reporting Address': { kind: 'complaint', permanent: true },
};

function kindOf(event: Json, path: string): Pick<FeedbackEvent, 'kind' | 'permanent'> | undefined {
  switch (textAt(event.event, `${path}.event`)) {
    case 'bounce':
      // type "blocked" is SendGrid's soft bounce; "bounce" (or none, in older payloads) a hard one.
      return { kind: 'bounce', permanent: event.type !== 'blocked' };
    case 'spamreport':
      return { kind: 'complaint', permanent: true };
    case 'dropped':
      return DROPPED[optionalText(event.reason) ?? ''];
    default:
      return undefined;
  }
}

/** sg_event_id where SendGrid gives one; older drops came without it and are named by their content. */
function eventId(event: Json): string {
  return optionalText(event.sg_event_id) ?? `sha256:${createHash('sha256').update(JSON.stringify(event)).digest('base64url')}`;
}

/** SendGrid's event webhook: a signed array of events, of which bounce, dropped and spamreport are feedback. */
@Injectable()
export class SendGridFeedback implements FeedbackSource {
  async read(request: FeedbackRequest, connection: FeedbackConnection): Promise<FeedbackEvent[]> {
    const signature = headerOf(request, SENDGRID_SIGNATURE_HEADER);
    const timestamp = headerOf(request, SENDGRID_TIMESTAMP_HEADER);
    const key = connection.webhookSigningKey;
    if (!signature || !timestamp || !key || !verifySendGridSignature(key, timestamp, request.body, signature)) throw notFromProvider();
    return arrayAt(parseJson(request.body), 'body').flatMap((item, i) => {
      const event = objectAt(item, `[${i}]`);
      const kind = kindOf(event, `[${i}]`);
      if (!kind) return [];
      return [
        {
          ...kind,
          providerEventId: eventId(event),
          recipient: textAt(event.email, `[${i}].email`),
          occurredAt: instantAt(event.timestamp, `[${i}].timestamp`),
          reason: optionalText(event.reason) ?? optionalText(event.response),
          providerMessageId: optionalText(event.sg_message_id),
        },
      ];
    });
  }
}
