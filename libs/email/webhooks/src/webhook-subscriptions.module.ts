import { Module } from '@nestjs/common';
import { secretBoxProvider } from '@shared/secrets';
import { systemHostResolverProvider } from '@shared/webhooks';
import { WebhookDestinationCheck } from './subscriptions/destination-check';
import { SubscriptionSecrets } from './subscriptions/subscription-secrets';
import { WebhookSubscriptionRepository } from './subscriptions/webhook-subscription.repository';
import { WebhookSubscriptionService } from './subscriptions/webhook-subscription.service';

/** The six webhook subscription operations' use cases (email-api). */
@Module({
  providers: [
    WebhookSubscriptionService,
    WebhookSubscriptionRepository,
    WebhookDestinationCheck,
    SubscriptionSecrets,
    secretBoxProvider,
    systemHostResolverProvider,
  ],
  exports: [WebhookSubscriptionService],
})
export class EmailWebhookSubscriptionsModule {}
