import { Injectable } from '@nestjs/common';
import { EmailErrors } from '@email/contracts';
import type { FeedbackConnection, FeedbackEvent, FeedbackRequest, FeedbackSource } from '../feedback-event';
import { instantAt, objectAt, optionalText, parseJson, textAt } from '../payload';
import { requireBasicPassword } from '../request-auth';

/** Bounce types that say the address will never take mail. */
const PERMANENT = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated']);
/** Bounce records that are not delivery failures (auto-replies, list requests, tests). */
const NOT_FAILURES = new Set(['AutoResponder', 'Subscribe', 'Unsubscribe', 'AddressChange', 'ChallengeVerification', 'OpenRelayTest']);

/**
 * Postmark's ID is a 64-bit integer, which JSON.parse may round: its digits are taken from the body text when the
 * parsed number is not exact (the first "ID" member is the record's own; Postmark writes it before Metadata).
 */
function exactId(raw: string, parsed: unknown): string {
  if (typeof parsed === 'number' && Number.isSafeInteger(parsed)) return String(parsed);
  const digits = /"ID"\s*:\s*(\d+)/.exec(raw)?.[1];
  if (!digits) throw EmailErrors.invalid('validation_failed', '"ID" must be a whole number.', 'ID');
  return digits;
}

/**
 * Postmark's bounce and spam complaint webhooks, one record per request, authenticated by the basic-auth credentials
 * in the webhook URL (the password is the connection's feedback token). Other record types are acknowledged and ignored.
 */
@Injectable()
export class PostmarkFeedback implements FeedbackSource {
  async read(request: FeedbackRequest, connection: FeedbackConnection): Promise<FeedbackEvent[]> {
    requireBasicPassword(request, connection.feedbackToken);
    const record = objectAt(parseJson(request.body), 'body');
    const recordType = textAt(record.RecordType, 'RecordType');
    if (recordType !== 'Bounce' && recordType !== 'SpamComplaint') return [];
    const type = textAt(record.Type, 'Type');
    const complaint = recordType === 'SpamComplaint' || type === 'SpamComplaint';
    if (!complaint && NOT_FAILURES.has(type)) return [];
    return [
      {
        providerEventId: `${recordType}:${exactId(request.body.toString(), record.ID)}`,
        kind: complaint ? 'complaint' : 'bounce',
        // Postmark deactivates an address (Inactive) after a hard bounce or a complaint: it will not send there again.
        permanent: complaint || PERMANENT.has(type) || record.Inactive === true,
        recipient: textAt(record.Email, 'Email'),
        occurredAt: instantAt(record.BouncedAt, 'BouncedAt'),
        reason: optionalText(record.Details) ?? optionalText(record.Description) ?? type,
        providerMessageId: optionalText(record.MessageID),
      },
    ];
  }
}
