import { Injectable, Module } from '@nestjs/common';
import { WebhookDispatcher, webhookDispatchProviders, WebhookStore } from '@shared/webhooks';
import { FormsSql } from '@forms/data-access';
import { EndpointSecrets } from '../endpoints/endpoint-secrets';

/** The shared pipeline statements over the forms database's outbox, endpoints and deliveries. */
@Injectable()
export class FormsWebhookStore extends WebhookStore {
  constructor(sql: FormsSql) {
    super(sql, { targets: 'webhook_endpoints', targetColumn: 'endpoint_id' });
  }
}

/** forms-worker's webhook pipeline: the shared dispatcher over the forms database (fan-out, signed delivery with retries and auto-disable, pruning). */
@Module({
  providers: webhookDispatchProviders(FormsWebhookStore, EndpointSecrets),
  exports: [WebhookDispatcher, FormsWebhookStore, EndpointSecrets],
})
export class FormsWebhookDispatchModule {}
