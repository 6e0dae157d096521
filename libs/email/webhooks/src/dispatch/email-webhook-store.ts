import { Injectable } from '@nestjs/common';
import { EmailSql } from '@email/data-access';
import { WebhookStore } from '@shared/webhooks';

/** The shared pipeline statements over the email database's outbox, subscriptions and deliveries. */
@Injectable()
export class EmailWebhookStore extends WebhookStore {
  constructor(sql: EmailSql) {
    super(sql, { targets: 'webhook_subscriptions', targetColumn: 'subscription_id' });
  }
}
