import { Module } from '@nestjs/common';
import { CREDENTIAL_VERIFIER } from '@shared/auth';
import { FormsModule } from '@forms/forms';
import { FormsBearerVerifier, FormsOAuthModule } from '@forms/oauth';
import { PaymentsModule } from '@forms/payments';
import { SubmissionsModule } from '@forms/submissions';
import { PaymentIntegrationsController } from './payment-integrations.controller';
import { PaymentWebhookBody } from './payment-webhook-body';
import { PaymentWebhooksController } from './payment-webhooks.controller';
import { PublicPaymentsController } from './public-payments.controller';

/** The payment routes: workspace integrations, the hosted page's order and verify, and provider webhooks. */
@Module({
  imports: [FormsModule, SubmissionsModule, PaymentsModule, FormsOAuthModule],
  controllers: [PaymentIntegrationsController, PublicPaymentsController, PaymentWebhooksController],
  // The integrations' ScopeGuard answers a missing scope as every other forms route does.
  providers: [PaymentWebhookBody, { provide: CREDENTIAL_VERIFIER, useExisting: FormsBearerVerifier }],
})
export class PaymentsHttpModule {}
