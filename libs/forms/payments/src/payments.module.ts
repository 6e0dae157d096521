import { Module } from '@nestjs/common';
import { FormsModule } from '@forms/forms';
import { secretBoxProvider } from '@shared/secrets';
import { PaymentFieldRules } from './payment-field-rules';
import { PaymentIntegrations } from './payment-integrations.service';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { WorkspaceAdminGuard } from './workspace-admin.guard';

@Module({
  imports: [FormsModule],
  providers: [secretBoxProvider, PaymentsRepository, PaymentIntegrations, PaymentsService, PaymentFieldRules, WorkspaceAdminGuard],
  exports: [PaymentIntegrations, PaymentsService, PaymentFieldRules, WorkspaceAdminGuard],
})
export class PaymentsModule {}
