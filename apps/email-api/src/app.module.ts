import { Module } from '@nestjs/common';
import { AuthModule } from '@shared/auth';
import { ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { HealthController, HttpAppOptions, readinessChecksProvider } from '@shared/observability';
import { RedisModule } from '@shared/redis';
import { EmailDataAccessModule, EmailPrisma } from '@email/data-access';
import { EmailAccessModule, EmailCredentialVerifier } from '@email/access';
import { EmailWorkspaceModule } from '@email/workspace';
import { PlatformController } from './http/platform/platform.controller';
import { WorkspaceController } from './http/workspace/workspace.controller';

export const EMAIL_API_PORT = 3000;

export const EMAIL_HTTP_OPTIONS: HttpAppOptions = {
  service: 'email-api',
  // Official clients send and read x-mailrith-request-id; everyone else uses x-request-id.
  requestIdHeaders: ['x-request-id', 'x-mailrith-request-id'],
};

@Module({
  imports: [
    ConfigModule.forRoot({ port: EMAIL_API_PORT }),
    CoreModule,
    RedisModule,
    EmailDataAccessModule,
    AuthModule.forRoot({ imports: [EmailAccessModule], verifier: EmailCredentialVerifier }),
    EmailWorkspaceModule,
  ],
  controllers: [HealthController, PlatformController, WorkspaceController],
  providers: [readinessChecksProvider(EmailPrisma)],
})
export class AppModule {}
