import { Module } from '@nestjs/common';
import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';
import { EmailCredentialVerifier } from './credential-verifier';

@Module({
  providers: [AccessRepository, AccessService, EmailCredentialVerifier],
  exports: [AccessService, EmailCredentialVerifier],
})
export class EmailAccessModule {}
