import { Module } from '@nestjs/common';
import { FormsModule } from '@forms/forms';
import { PaymentsModule } from '@forms/payments';
import { SubmissionsModule } from '@forms/submissions';
import { PaymentIntegrationsController } from './payment-integrations.controller';
import { PaymentWebhookBody } from './payment-webhook-body';
import { PaymentWebhooksController } from './payment-webhooks.controller';
import { PublicPaymentsController } from './public-payments.controller';

/** The payment routes: workspace integrations, the hosted page's order and verify, and provider webhooks. */
@Module({
  imports: [FormsModule, SubmissionsModule, PaymentsModule],
  controllers: [PaymentIntegrationsController, PublicPaymentsController, PaymentWebhooksController],
  providers: [PaymentWebhookBody],
})
export class PaymentsHttpModule {}
