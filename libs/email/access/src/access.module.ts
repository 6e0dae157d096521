import { Module } from '@nestjs/common';
import { AuthChangesModule } from '@shared/auth';
import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';
import { EmailCredentialVerifier } from './credential-verifier';

@Module({
  imports: [AuthChangesModule],
  providers: [AccessRepository, AccessService, EmailCredentialVerifier],
  exports: [AccessService, EmailCredentialVerifier],
})
export class EmailAccessModule {}
