import { Module } from '@nestjs/common';
import { AuthChangesModule } from '@shared/auth';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { FormsCredentialVerifier } from './credential-verifier';

@Module({
  imports: [AuthChangesModule],
  providers: [AccountsRepository, AccountsService, FormsCredentialVerifier],
  exports: [AccountsService, FormsCredentialVerifier],
})
export class FormsAccountsModule {}
