import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '@shared/core';
import type { FeedbackConnection, FeedbackEvent, FeedbackRequest, FeedbackSource } from '../feedback-event';
import { instantAt, objectAt, optionalObject, optionalText, parseJson, textAt, type Json } from '../payload';
import { notFromProvider, sameSecret } from '../request-auth';

/**
 * How old a signature may be. Mailgun signs a webhook once and retries it for up to 8 hours, so the window covers the
 * retries; a replay inside it changes nothing (the event id is the idempotency key).
 */
export const MAILGUN_MAX_SIGNATURE_AGE_MS = 9 * 3_600_000;
/** How far ahead of our clock a signature may be dated (clock skew). */
const MAX_FUTURE_MS = 5 * 60_000;

/**
 * Mailgun's `signature` member: HMAC-SHA256 with the webhook signing key over timestamp + token, hex. Mailgun signs
 * only these two values, not the event data.
 */
export function verifyMailgunSignature(signingKey: string, signature: unknown, now: Date): boolean {
  const { timestamp, token, signature: given } = optionalObject(signature);
  if (typeof timestamp !== 'string' || typeof token !== 'string' || typeof given !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  const age = now.getTime() - Number(timestamp) * 1000;
  if (age > MAILGUN_MAX_SIGNATURE_AGE_MS || age < -MAX_FUTURE_MS) return false;
  return sameSecret(
    given.toLowerCase(),
    createHmac('sha256', signingKey)
      .update(timestamp + token)
      .digest('hex'),
  );
}

function kindOf(data: Json): Pick<FeedbackEvent, 'kind' | 'permanent'> | undefined {
  switch (textAt(data.event, 'event-data.event')) {
    case 'failed':
      return { kind: 'bounce', permanent: data.severity === 'permanent' };
    case 'complained':
      return { kind: 'complaint', permanent: true };
    default:
      return undefined;
  }
}

/** Mailgun's webhooks (`failed` with severity permanent/temporary, `complained`), signed in the body. */
@Injectable()
export class MailgunFeedback implements FeedbackSource {
  constructor(private readonly clock: Clock) {}

  async read(request: FeedbackRequest, connection: FeedbackConnection): Promise<FeedbackEvent[]> {
    const body = optionalObject(parseJson(request.body));
    const key = connection.webhookSigningKey;
    if (!key || !verifyMailgunSignature(key, body.signature, this.clock.now())) throw notFromProvider();
    const data = objectAt(body['event-data'], 'event-data');
    const kind = kindOf(data);
    if (!kind) return [];
    const deliveryStatus = optionalObject(data['delivery-status']);
    const headers = optionalObject(optionalObject(data.message).headers);
    return [
      {
        ...kind,
        providerEventId: textAt(data.id, 'event-data.id'),
        recipient: textAt(data.recipient, 'event-data.recipient'),
        occurredAt: instantAt(data.timestamp, 'event-data.timestamp'),
        reason: optionalText(deliveryStatus.description) || optionalText(deliveryStatus.message) || optionalText(data.reason),
        providerMessageId: optionalText(headers['message-id']),
      },
    ];
  }
}
