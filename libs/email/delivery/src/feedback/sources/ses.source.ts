import { Injectable } from '@nestjs/common';
import type { FeedbackConnection, FeedbackEvent, FeedbackRequest, FeedbackSource } from '../feedback-event';
import { arrayAt, instantAt, objectAt, optionalObject, optionalText, parseJson, textAt, type Json } from '../payload';
import { notFromProvider, requireBasicPassword } from '../request-auth';
import { SnsMessages } from './sns-messages';

/** One SES bounce or complaint notification (`notificationType`, or `eventType` from a configuration set) as events. */
export function sesEvents(notification: Json, snsMessageId: string): FeedbackEvent[] {
  const type = notification.notificationType ?? notification.eventType;
  const providerMessageId = optionalText(optionalObject(notification.mail).messageId);
  if (type === 'Bounce') {
    const bounce = objectAt(notification.bounce, 'Message.bounce');
    const feedbackId = optionalText(bounce.feedbackId) ?? snsMessageId;
    return arrayAt(bounce.bouncedRecipients, 'Message.bounce.bouncedRecipients').map((item, i): FeedbackEvent => {
      const recipient = objectAt(item, `Message.bounce.bouncedRecipients[${i}]`);
      const email = textAt(recipient.emailAddress, `Message.bounce.bouncedRecipients[${i}].emailAddress`);
      return {
        providerEventId: `${feedbackId}:${email}`,
        kind: 'bounce',
        // Transient and Undetermined bounces are not final.
        permanent: bounce.bounceType === 'Permanent',
        recipient: email,
        occurredAt: instantAt(bounce.timestamp, 'Message.bounce.timestamp'),
        reason: optionalText(recipient.diagnosticCode) ?? optionalText(bounce.bounceSubType),
        providerMessageId,
      };
    });
  }
  if (type === 'Complaint') {
    const complaint = objectAt(notification.complaint, 'Message.complaint');
    // The recipient's mailbox provider reporting "not spam" is no complaint.
    if (complaint.complaintFeedbackType === 'not-spam') return [];
    const feedbackId = optionalText(complaint.feedbackId) ?? snsMessageId;
    return arrayAt(complaint.complainedRecipients, 'Message.complaint.complainedRecipients').map((item, i): FeedbackEvent => {
      const email = textAt(
        objectAt(item, `Message.complaint.complainedRecipients[${i}]`).emailAddress,
        `Message.complaint.complainedRecipients[${i}].emailAddress`,
      );
      return {
        providerEventId: `${feedbackId}:${email}`,
        kind: 'complaint',
        permanent: true,
        recipient: email,
        occurredAt: instantAt(complaint.timestamp, 'Message.complaint.timestamp'),
        reason: optionalText(complaint.complaintFeedbackType),
        providerMessageId,
      };
    });
  }
  return [];
}

/**
 * Amazon SES bounce and complaint notifications through an SNS topic subscribed to the feedback URL. Two checks: the
 * SNS signature (the message comes from Amazon SNS), and the basic-auth password in the subscribed URL (the
 * connection's feedback token), because anyone can subscribe a URL to a topic of their own AWS account and SNS would
 * sign their messages too. Subscription confirmations are confirmed through their SubscribeURL.
 */
@Injectable()
export class SesFeedback implements FeedbackSource {
  constructor(private readonly sns: SnsMessages) {}

  async read(request: FeedbackRequest, connection: FeedbackConnection): Promise<FeedbackEvent[]> {
    requireBasicPassword(request, connection.feedbackToken);
    const message = await this.sns.verify(parseJson(request.body));
    if (!message) throw notFromProvider();
    if (message.Type === 'SubscriptionConfirmation') await this.sns.confirm(message);
    if (message.Type !== 'Notification') return [];
    return sesEvents(objectAt(parseJson(message.Message, 'Message'), 'Message'), message.MessageId);
  }
}
