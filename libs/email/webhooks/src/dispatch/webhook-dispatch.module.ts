import { Module } from '@nestjs/common';
import { secretBoxProvider } from '@shared/secrets';
import { SubscriptionSecrets } from '../subscriptions/subscription-secrets';
import { DeliveryStore } from './delivery-store';
import { OutboxFanOut } from './outbox-fan-out';
import { WEBHOOK_CLIENT_OPTIONS, WebhookDispatcher } from './webhook-dispatcher';

/** webhook-worker's pipeline: outbox fan-out, signed delivery with retries, pruning. */
@Module({
  providers: [WebhookDispatcher, OutboxFanOut, DeliveryStore, SubscriptionSecrets, secretBoxProvider, { provide: WEBHOOK_CLIENT_OPTIONS, useValue: {} }],
  exports: [WebhookDispatcher, OutboxFanOut, SubscriptionSecrets],
})
export class WebhookDispatchModule {}
