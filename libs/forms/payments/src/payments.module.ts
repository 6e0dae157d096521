import { Module } from '@nestjs/common';
import { FormsModule } from '@forms/forms';
import { secretBoxProvider } from '@shared/secrets';
import { PaymentIntegrations } from './payment-integrations.service';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { WorkspaceAdminGuard } from './workspace-admin.guard';

@Module({
  imports: [FormsModule],
  providers: [secretBoxProvider, PaymentsRepository, PaymentIntegrations, PaymentsService, WorkspaceAdminGuard],
  exports: [PaymentIntegrations, PaymentsService, WorkspaceAdminGuard],
})
export class PaymentsModule {}
