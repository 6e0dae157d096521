import { Module } from '@nestjs/common';
import { AuthModule } from '@shared/auth';
import { ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { HealthController, readinessChecksProvider } from '@shared/observability';
import { RedisModule } from '@shared/redis';
import { FormsDataAccessModule, FormsPrisma } from '@forms/data-access';
import { FormsAccountsModule, FormsCredentialVerifier } from '@forms/accounts';
import { MeController } from './http/me/me.controller';

export const FORMS_API_PORT = 3100;

@Module({
  imports: [
    ConfigModule.forRoot({ port: FORMS_API_PORT }),
    CoreModule,
    RedisModule,
    FormsDataAccessModule,
    AuthModule.forRoot({ imports: [FormsAccountsModule], verifier: FormsCredentialVerifier }),
  ],
  controllers: [HealthController, MeController],
  providers: [readinessChecksProvider(FormsPrisma)],
})
export class AppModule {}
