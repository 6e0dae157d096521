import { Module } from '@nestjs/common';
import { ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { EmailDataAccessModule } from '@email/data-access';
import { EmailAccessModule } from '@email/access';
import { EmailUsersModule } from '@email/oauth';
import { ConnectionKeyRotationModule } from '@email/delivery';
import { EmailWorkspaceModule } from '@email/workspace';
import { SigningSecretKeyRotationModule } from '@email/webhooks';
import { FormsDataAccessModule } from '@forms/data-access';
import { FormsAccountsModule } from '@forms/accounts';
import { FormsOwnerSignInModule } from '@forms/oauth';

@Module({
  imports: [
    ConfigModule.forRoot(),
    CoreModule,
    EmailDataAccessModule,
    EmailAccessModule,
    EmailUsersModule,
    ConnectionKeyRotationModule,
    SigningSecretKeyRotationModule,
    EmailWorkspaceModule,
    FormsDataAccessModule,
    FormsAccountsModule,
    FormsOwnerSignInModule,
  ],
})
export class AdminModule {}
