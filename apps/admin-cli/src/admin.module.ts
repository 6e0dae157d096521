import { Module } from '@nestjs/common';
import { ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { EmailDataAccessModule } from '@email/data-access';
import { EmailAccessModule } from '@email/access';
import { FormsDataAccessModule } from '@forms/data-access';
import { FormsAccountsModule } from '@forms/accounts';

@Module({
  imports: [ConfigModule.forRoot(), CoreModule, EmailDataAccessModule, EmailAccessModule, FormsDataAccessModule, FormsAccountsModule],
})
export class AdminModule {}
