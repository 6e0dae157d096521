import { Module } from '@nestjs/common';
import { AuthModule } from '@shared/auth';
import { ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { HealthController, readinessChecksProvider } from '@shared/bootstrap';
import { RateLimitGuard } from '@shared/rate-limit';
import { QueueModule } from '@shared/queue';
import { RedisModule } from '@shared/redis';
import { FormsDataAccessModule, FormsPrisma } from '@forms/data-access';
import { FormsAccountsModule } from '@forms/accounts';
import { SubmissionExportsModule } from '@forms/exports';
import { FormsBearerVerifier, FormsOAuthModule } from '@forms/oauth';
import { FormsModule, FormWorkspaceGuard } from '@forms/forms';
import { PaymentsModule } from '@forms/payments';
import { SubmissionsModule } from '@forms/submissions';
import { WebhookEndpointsModule } from '@forms/webhooks';
import { AccountController } from './http/account/account.controller';
import { ExportsAsCaller } from './http/exports/exports-as-caller';
import { SubmissionExportsController } from './http/exports/exports.controller';
import { DraftBodyLimit } from './http/forms/draft-body-limit';
import { DraftEditsController } from './http/forms/draft-edits.controller';
import { FormStartsController } from './http/forms/form-starts.controller';
import { FormsController } from './http/forms/forms.controller';
import { FormsMcpController } from './http/mcp/mcp.controller';
import { FormsMcpEndpoint } from './http/mcp/mcp-endpoint';
import { MeController } from './http/me/me.controller';
import { FormsOAuthController } from './http/oauth/oauth.controller';
import { RequestBodyTypes } from './http/request-body-types';
import { PaymentsHttpModule } from './payments/payments-http.module';
import { SubmissionsController } from './http/submissions/submissions.controller';
import { WorkspacesController } from './http/workspaces/workspaces.controller';
import { WebhookEndpointsController } from './http/webhooks/webhook-endpoints.controller';
import { HostedPages } from './public/hosted-pages';
import { PublicFormsController } from './public/public-forms.controller';
import { SchemaPack } from './schema-pack/schema-pack';
import { SchemaPackController } from './schema-pack/schema-pack.controller';

export const FORMS_API_PORT = 3100;

@Module({
  imports: [
    ConfigModule.forRoot({ port: FORMS_API_PORT }),
    CoreModule,
    RedisModule,
    FormsDataAccessModule,
    // The form's workspace is resolved after the rate limit, so refused requests stay cheap.
    // API keys and OAuth access tokens (FormsBearerVerifier); the signed-in session is AppSessionGuard's, per route.
    AuthModule.forRoot({
      imports: [FormsAccountsModule, FormsOAuthModule, FormsModule],
      verifier: FormsBearerVerifier,
      after: [RateLimitGuard, FormWorkspaceGuard],
    }),
    FormsOAuthModule,
    QueueModule.forRoot(),
    SubmissionExportsModule,
    FormsModule,
    SubmissionsModule,
    PaymentsModule,
    PaymentsHttpModule,
    WebhookEndpointsModule,
  ],
  controllers: [
    HealthController,
    MeController,
    WorkspacesController,
    FormsController,
    FormStartsController,
    DraftEditsController,
    SubmissionsController,
    WebhookEndpointsController,
    PublicFormsController,
    SchemaPackController,
    FormsMcpController,
    FormsOAuthController,
    AccountController,
    SubmissionExportsController,
  ],
  providers: [readinessChecksProvider(FormsPrisma), HostedPages, RequestBodyTypes, DraftBodyLimit, SchemaPack, FormsMcpEndpoint, ExportsAsCaller],
})
export class AppModule {}
