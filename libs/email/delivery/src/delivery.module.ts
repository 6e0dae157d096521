import { Module } from '@nestjs/common';
import { cursorCodecProvider } from '@shared/pagination';
import { secretBoxProvider } from '@shared/secrets';
import { EmailWorkspaceModule } from '@email/workspace';
import { DeliveryConnectionRepository } from './delivery-connection.repository';
import { DeliveryConnectionStateService } from './delivery-connection-state.service';
import { SenderIdentityService } from './sender-identity.service';
import { ConnectionFeedbackLookup } from './connections/connection-feedback-lookup';
import { ConnectionProviders } from './connections/connection-providers';
import { ConnectionSecrets } from './connections/connection-secrets';
import { ConnectionService } from './connections/connection.service';
import { ConnectionUsage } from './connections/connection-usage';
import { SetupPageService } from './connections/setup-page.service';
import { SetupSessionRepository } from './connections/setup-session.repository';
import { SetupSessionService } from './connections/setup-session.service';

/** Delivery connections (their API, setup sessions and page, sealed credentials), sender identities and the workspace's sending state. */
@Module({
  imports: [EmailWorkspaceModule],
  providers: [
    cursorCodecProvider,
    secretBoxProvider,
    DeliveryConnectionRepository,
    SetupSessionRepository,
    ConnectionSecrets,
    ConnectionProviders,
    ConnectionService,
    ConnectionUsage,
    SetupSessionService,
    SetupPageService,
    ConnectionFeedbackLookup,
    SenderIdentityService,
    DeliveryConnectionStateService,
  ],
  exports: [
    SenderIdentityService,
    DeliveryConnectionStateService,
    ConnectionService,
    ConnectionUsage,
    SetupSessionService,
    SetupPageService,
    ConnectionProviders,
    ConnectionFeedbackLookup,
    // Broadcasts read a connection with its sealed secrets to send through it and to check them.
    DeliveryConnectionRepository,
    ConnectionSecrets,
  ],
})
export class EmailDeliveryModule {}
