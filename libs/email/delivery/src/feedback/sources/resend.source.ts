import { Injectable } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import type { FeedbackConnection, FeedbackEvent, FeedbackRequest, FeedbackSource } from '../feedback-event';
import { arrayAt, instantAt, objectAt, optionalObject, optionalText, parseJson, textAt } from '../payload';
import { headerOf, notFromProvider } from '../request-auth';

/**
 * Resend signs its webhooks with Svix: HMAC-SHA256 with the endpoint's `whsec_…` secret over id.timestamp.body,
 * headers svix-id / svix-timestamp / svix-signature, which are Standard Webhooks' scheme under other header names.
 * The library refuses a timestamp more than five minutes from our clock (Svix signs every retry afresh).
 */
function verifySvix(secret: string, request: FeedbackRequest): boolean {
  const headers = {
    'webhook-id': headerOf(request, 'svix-id'),
    'webhook-timestamp': headerOf(request, 'svix-timestamp'),
    'webhook-signature': headerOf(request, 'svix-signature'),
  };
  if (!headers['webhook-id'] || !headers['webhook-timestamp'] || !headers['webhook-signature']) return false;
  try {
    new Webhook(secret).verify(request.body, headers as Record<string, string>, { jsonParse: false });
    return true;
  } catch {
    // A wrong or stale signature, or a secret that is not a `whsec_` base64 key.
    return false;
  }
}

/** Bounce types that are not final (Resend passes on SES's classification). */
const NOT_PERMANENT = new Set(['Transient', 'Undetermined']);

/** Resend's `email.bounced` and `email.complained` webhooks; the Svix message id names the event. */
@Injectable()
export class ResendFeedback implements FeedbackSource {
  async read(request: FeedbackRequest, connection: FeedbackConnection): Promise<FeedbackEvent[]> {
    const secret = connection.webhookSigningKey;
    if (!secret || !verifySvix(secret, request)) throw notFromProvider();
    const payload = objectAt(parseJson(request.body), 'body');
    const type = textAt(payload.type, 'type');
    if (type !== 'email.bounced' && type !== 'email.complained') return [];
    const data = objectAt(payload.data, 'data');
    const bounce = optionalObject(data.bounce);
    const recipients = arrayAt(data.to, 'data.to').map((to, i) => textAt(to, `data.to[${i}]`));
    const eventId = headerOf(request, 'svix-id')!;
    return recipients.map((recipient): FeedbackEvent => ({
      kind: type === 'email.complained' ? 'complaint' : 'bounce',
      permanent: type === 'email.complained' || !NOT_PERMANENT.has(optionalText(bounce.type) ?? ''),
      providerEventId: recipients.length === 1 ? eventId : `${eventId}:${recipient}`,
      recipient,
      occurredAt: instantAt(payload.created_at, 'created_at'),
      reason: optionalText(bounce.message) ?? optionalText(bounce.subType),
      providerMessageId: optionalText(data.email_id),
    }));
  }
}
