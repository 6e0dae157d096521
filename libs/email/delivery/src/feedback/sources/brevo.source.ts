import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { FeedbackConnection, FeedbackEvent, FeedbackRequest, FeedbackSource } from '../feedback-event';
import { instantAt, objectAt, optionalText, parseJson, textAt, type Json } from '../payload';
import { requireBearer } from '../request-auth';

const KINDS: Record<string, Pick<FeedbackEvent, 'kind' | 'permanent'>> = {
  hard_bounce: { kind: 'bounce', permanent: true },
  soft_bounce: { kind: 'bounce', permanent: false },
  spam: { kind: 'complaint', permanent: true },
};

/** When it happened: milliseconds (`ts_epoch`) where given, else seconds (`ts_event`, `ts`). */
function occurredAt(event: Json, path: string): Date {
  if (event.ts_epoch !== undefined) return instantAt(event.ts_epoch, `${path}ts_epoch`, 'ms');
  return instantAt(event.ts_event ?? event.ts, `${path}ts_event`);
}

/**
 * Brevo sends no event id (its `id` is the webhook's): the report is named by what identifies it, the event, the
 * message (or campaign), the recipient and the time, all of which a redelivery repeats.
 */
function eventId(event: Json, recipient: string, at: Date): string {
  const message = optionalText(event['message-id']) ?? `campaign:${String(event.camp_id ?? '')}`;
  const digest = createHash('sha256')
    .update(JSON.stringify([event.event, message, recipient, at.toISOString()]))
    .digest('base64url');
  return `${String(event.event)}:${digest}`;
}

/**
 * Brevo's transactional and marketing webhooks (hard_bounce, soft_bounce, spam; one event or an array of them),
 * authenticated by the bearer token configured on the webhook (the connection's feedback token).
 */
@Injectable()
export class BrevoFeedback implements FeedbackSource {
  async read(request: FeedbackRequest, connection: FeedbackConnection): Promise<FeedbackEvent[]> {
    requireBearer(request, connection.feedbackToken);
    const body = parseJson(request.body);
    const events = Array.isArray(body) ? body : [body];
    return events.flatMap((item, i) => {
      const path = Array.isArray(body) ? `[${i}].` : '';
      const event = objectAt(item, path ? `[${i}]` : 'body');
      const kind = KINDS[textAt(event.event, `${path}event`)];
      if (!kind) return [];
      const recipient = textAt(event.email, `${path}email`);
      const when = occurredAt(event, path);
      return [
        {
          ...kind,
          providerEventId: eventId(event, recipient, when),
          recipient,
          occurredAt: when,
          reason: optionalText(event.reason),
          providerMessageId: optionalText(event['message-id']),
        },
      ];
    });
  }
}
