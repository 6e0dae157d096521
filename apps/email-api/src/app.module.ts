import { Module } from '@nestjs/common';
import { RateLimitGuard } from '@shared/rate-limit';
import { AuthModule } from '@shared/auth';
import { APP_CONFIG, AppConfig, ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { HealthController, HttpAppOptions, readinessChecksProvider } from '@shared/bootstrap';
import { RedisModule } from '@shared/redis';
import { QueueModule } from '@shared/queue';
import { EmailDataAccessModule, EmailPrisma } from '@email/data-access';
import { EmailBearerVerifier, EmailOAuthModule } from '@email/oauth';
import { EmailWorkspaceModule } from '@email/workspace';
import { EMAIL_PLATFORM_PROVIDERS } from '@email/platform';
import { EmailAudienceModule } from '@email/audience';
import { ConnectionFeedbackLookup, DeliveryFeedbackModule, EmailDeliveryModule, FEEDBACK_CONNECTIONS, UnsubscribeTokens } from '@email/delivery';
import { EmailEngagementModule, EmailSegmentsModule } from '@email/audience-engine';
import { DOCS_SITE_PROVIDER } from '@email/docs-pages';
import { BroadcastUsageModule, EmailBroadcastsApiModule } from '@email/broadcasts';
import { EmailJobsApiModule } from '@email/jobs';
import { EmailWebhookSubscriptionsModule } from '@email/webhooks';
import { PlatformController } from './http/platform/platform.controller';
import { DiscoveryFilesController } from './http/platform/discovery-files.controller';
import { OAuthController } from './http/oauth/oauth.controller';
import { AccountController } from './http/account/account.controller';
import { DocsController } from './http/docs/docs.controller';
import { WorkspaceController } from './http/workspace/workspace.controller';
import { SubscribersController } from './http/subscribers/subscribers.controller';
import { TagsController } from './http/tags/tags.controller';
import { CustomFieldsController } from './http/custom-fields/custom-fields.controller';
import { SenderIdentitiesController } from './http/sender-identities/sender-identities.controller';
import { SegmentsController } from './http/segments/segments.controller';
import { DeliveryConnectionsController } from './http/delivery-connections/delivery-connections.controller';
import { SetupSessionsController } from './http/delivery-connections/setup-sessions.controller';
import { ConnectionSetupController } from './http/connection-setup/connection-setup.controller';
import { ConnectionsGuideController } from './http/connection-setup/connections-guide.controller';
import { UnsubscribeController } from './http/unsubscribe/unsubscribe.controller';
import { UnsubscribeService } from './http/unsubscribe/unsubscribe.service';
import { DeliveryFeedbackController } from './http/delivery-feedback/delivery-feedback.controller';
import { DeliveryFeedbackBody } from './http/delivery-feedback/delivery-feedback-body';
import { TRACKING_PROVIDERS } from './http/tracking';
import { BroadcastsController } from './http/broadcasts/broadcasts.controller';
import { WebhookSubscriptionSecretsController, WebhookSubscriptionsController } from './http/webhook-subscriptions/webhook-subscriptions.controller';
import { ImportUploadsController } from './http/subscriber-jobs/import-uploads.controller';
import { ImportsController } from './http/subscriber-jobs/imports.controller';
import { ExportsController } from './http/subscriber-jobs/exports.controller';
import { ExportDownloadController } from './http/subscriber-jobs/export-download.controller';
import { UploadPageController } from './http/import-upload-page/upload-page.controller';
import { PageBodyParsers } from './http/pages/page-body-parsers';
import { McpController } from './http/mcp/mcp.controller';
import { McpEndpoint } from './http/mcp/mcp-endpoint';

export const EMAIL_API_PORT = 3000;

export const EMAIL_HTTP_OPTIONS: HttpAppOptions = {
  service: 'email-api',
  // Official clients send and read x-mailrith-request-id; everyone else uses x-request-id.
  requestIdHeaders: ['x-request-id', 'x-mailrith-request-id'],
  // The contract refuses unknown body properties only where its schema is closed (see @ClosedObject).
  unknownProperties: 'per-schema',
};

@Module({
  imports: [
    ConfigModule.forRoot({ port: EMAIL_API_PORT }),
    CoreModule,
    RedisModule,
    QueueModule.forRoot(),
    EmailDataAccessModule,
    AuthModule.forRoot({ imports: [EmailOAuthModule], verifier: EmailBearerVerifier, after: [RateLimitGuard] }),
    EmailOAuthModule,
    EmailWorkspaceModule,
    EmailAudienceModule,
    EmailDeliveryModule,
    EmailSegmentsModule,
    EmailEngagementModule,
    EmailBroadcastsApiModule,
    BroadcastUsageModule,
    EmailWebhookSubscriptionsModule,
    EmailJobsApiModule,
    // Provider feedback finds its connection (and opens its feedback token and webhook signing key) through the delivery module.
    DeliveryFeedbackModule.register({ imports: [EmailDeliveryModule], connections: { provide: FEEDBACK_CONNECTIONS, useExisting: ConnectionFeedbackLookup } }),
  ],
  controllers: [
    HealthController,
    PlatformController,
    DiscoveryFilesController,
    OAuthController,
    AccountController,
    DocsController,
    WorkspaceController,
    SubscribersController,
    TagsController,
    CustomFieldsController,
    SenderIdentitiesController,
    DeliveryConnectionsController,
    SetupSessionsController,
    ConnectionSetupController,
    ConnectionsGuideController,
    SegmentsController,
    BroadcastsController,
    WebhookSubscriptionsController,
    WebhookSubscriptionSecretsController,
    UnsubscribeController,
    DeliveryFeedbackController,
    ImportUploadsController,
    ImportsController,
    ExportsController,
    ExportDownloadController,
    UploadPageController,
    McpController,
  ],
  providers: [
    readinessChecksProvider(EmailPrisma),
    ...EMAIL_PLATFORM_PROVIDERS,
    DOCS_SITE_PROVIDER,
    // Unsubscribe links are signed with a key derived from CURSOR_SECRET (see UnsubscribeTokens).
    { provide: UnsubscribeTokens, useFactory: (config: AppConfig) => new UnsubscribeTokens(config.cursorSecret), inject: [APP_CONFIG] },
    UnsubscribeService,
    DeliveryFeedbackBody,
    PageBodyParsers,
    ...TRACKING_PROVIDERS,
    McpEndpoint,
  ],
})
export class AppModule {}
