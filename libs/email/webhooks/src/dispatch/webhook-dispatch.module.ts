import { Module } from '@nestjs/common';
import { WebhookDispatcher, webhookDispatchProviders } from '@shared/webhooks';
import { SubscriptionSecrets } from '../subscriptions/subscription-secrets';
import { EmailWebhookStore } from './email-webhook-store';

/** webhook-worker's pipeline: the shared dispatcher over the email database (outbox fan-out, signed delivery with retries, pruning). */
@Module({
  providers: webhookDispatchProviders(EmailWebhookStore, SubscriptionSecrets),
  exports: [WebhookDispatcher, EmailWebhookStore, SubscriptionSecrets],
})
export class WebhookDispatchModule {}
