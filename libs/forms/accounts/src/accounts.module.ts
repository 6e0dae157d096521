import { Module } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { FormsCredentialVerifier } from './credential-verifier';

@Module({
  providers: [AccountsRepository, AccountsService, FormsCredentialVerifier],
  exports: [AccountsService, FormsCredentialVerifier],
})
export class FormsAccountsModule {}
