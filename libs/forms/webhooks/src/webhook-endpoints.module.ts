import { Module } from '@nestjs/common';
import { secretBoxProvider } from '@shared/secrets';
import { systemHostResolverProvider } from '@shared/webhooks';
import { FormsModule } from '@forms/forms';
import { EndpointSecrets } from './endpoints/endpoint-secrets';
import { WebhookEndpointRepository } from './endpoints/webhook-endpoint.repository';
import { WebhookEndpointService } from './endpoints/webhook-endpoint.service';

/** The webhook endpoint operations' use cases (forms-api). */
@Module({
  imports: [FormsModule],
  providers: [WebhookEndpointService, WebhookEndpointRepository, EndpointSecrets, secretBoxProvider, systemHostResolverProvider],
  exports: [WebhookEndpointService],
})
export class WebhookEndpointsModule {}
