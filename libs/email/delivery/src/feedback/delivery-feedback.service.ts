import { Inject, Injectable } from '@nestjs/common';
import { EmailErrors } from '@email/contracts';
import { emailIdentity, PgTransaction, SubscriberService } from '@email/audience';
import { EngagementRepository } from '@email/audience-engine';
import { Clock, WorkspaceId } from '@shared/core';
import { FEEDBACK_CONNECTIONS, FeedbackConnections, FeedbackEvent, FeedbackRequest, FeedbackSource } from './feedback-event';
import { DeliveryFeedbackRepository } from './delivery-feedback.repository';
import { BrevoFeedback } from './sources/brevo.source';
import { MailgunFeedback } from './sources/mailgun.source';
import { PostmarkFeedback } from './sources/postmark.source';
import { ResendFeedback } from './sources/resend.source';
import { SendGridFeedback } from './sources/sendgrid.source';
import { SesFeedback } from './sources/ses.source';

/** How long a receipt is kept: longer than any provider keeps redelivering a webhook (hours to a few days). */
export const FEEDBACK_RECEIPT_RETENTION_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

export interface DeliveryFeedbackResult {
  /** Bounce and complaint reports in the request. */
  received: number;
  /** Reports applied now: the status moved where it outranks the current one, and the event was recorded. */
  applied: number;
  /** Reports received before (a redelivery): nothing changed. */
  duplicates: number;
  /** Reports about an address the workspace has no subscriber for: ignored. */
  unknown_recipients: number;
}

type Outcome = 'applied' | 'duplicates' | 'unknown_recipients';

/** The stored form of a reported address (`Name <a@b>` allowed); null when it is no usable address. */
function storedEmail(recipient: string): string | null {
  const address = /<([^<>]+)>\s*$/.exec(recipient)?.[1] ?? recipient;
  try {
    return emailIdentity(address);
  } catch {
    return null;
  }
}

/** A hard bounce makes the subscriber Bounced, a complaint Complained; a soft bounce is only recorded. */
function statusFor(event: FeedbackEvent): 'Bounced' | 'Complained' | null {
  if (event.kind === 'complaint') return 'Complained';
  return event.permanent ? 'Bounced' : null;
}

/**
 * Provider feedback: the connection in the URL names the workspace and the provider; the provider's source checks the
 * request and reads its reports; each report is applied once, in one transaction with its receipt (status change and
 * its outbox event through SubscriberService, the engagement event through EngagementRepository).
 */
@Injectable()
export class DeliveryFeedbackService {
  private readonly sources: ReadonlyMap<string, FeedbackSource>;
  private nextPruneAt = 0;

  constructor(
    @Inject(FEEDBACK_CONNECTIONS) private readonly connections: FeedbackConnections,
    private readonly repository: DeliveryFeedbackRepository,
    private readonly subscribers: SubscriberService,
    private readonly engagement: EngagementRepository,
    private readonly clock: Clock,
    ses: SesFeedback,
    postmark: PostmarkFeedback,
    sendgrid: SendGridFeedback,
    mailgun: MailgunFeedback,
    resend: ResendFeedback,
    brevo: BrevoFeedback,
  ) {
    // custom-smtp has no webhook: its bounces come back as DSN emails to the return path, which nothing reads yet.
    this.sources = new Map<string, FeedbackSource>([
      ['amazon-ses', ses],
      ['postmark', postmark],
      ['sendgrid', sendgrid],
      ['mailgun', mailgun],
      ['resend', resend],
      ['brevo', brevo],
    ]);
  }

  async receive(connectionId: string, request: FeedbackRequest): Promise<DeliveryFeedbackResult> {
    const connection = await this.connections.find(connectionId);
    const source = connection && this.sources.get(connection.provider);
    if (!connection || !source) throw EmailErrors.fail('resource_not_found', 'No delivery connection with this id takes provider feedback.');
    const events = await source.read(request, connection);
    const result: DeliveryFeedbackResult = { received: events.length, applied: 0, duplicates: 0, unknown_recipients: 0 };
    for (const event of events) result[await this.apply(connection.workspaceId, connectionId, event)] += 1;
    await this.pruneWhenDue();
    return result;
  }

  private async apply(workspaceId: WorkspaceId, connectionId: string, event: FeedbackEvent): Promise<Outcome> {
    const email = storedEmail(event.recipient);
    if (!email) return 'unknown_recipients';
    return this.repository.transaction(async (client) => {
      const subscriberId = await this.repository.subscriberIdByEmail(workspaceId, client, email);
      if (!subscriberId) return 'unknown_recipients';
      if (!(await this.repository.claim(workspaceId, client, connectionId, event.providerEventId, this.clock.now()))) return 'duplicates';
      const status = statusFor(event);
      if (status) {
        const tx = new PgTransaction(client);
        await this.subscribers.applyDeliveryFeedback(workspaceId, tx, subscriberId, status);
        await tx.flush();
      }
      const type = event.kind === 'complaint' ? 'complained' : 'bounced';
      await this.engagement.record(workspaceId, [{ subscriberId, type, occurredAt: event.occurredAt }], { client });
      return 'applied';
    });
  }

  /** Receipts past their retention go at most once an hour per process, after a request, in batches. */
  private async pruneWhenDue(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now < this.nextPruneAt) return;
    this.nextPruneAt = now + PRUNE_EVERY_MS;
    await this.repository.prune(new Date(now - FEEDBACK_RECEIPT_RETENTION_MS));
  }
}
