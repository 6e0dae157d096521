import { Module } from '@nestjs/common';
import { AuthChangesModule } from '@shared/auth';
import { BrowserSessions, SignInFlow } from '@shared/browser-session';
import { OAuthServer, oauthProviders, RegistrationLimiter } from '@shared/oauth';
import { EMAIL_SCOPES, EmailAccessModule } from '@email/access';
import { EmailBearerVerifier } from './bearer-verifier';
import { ConnectionsService } from './connections.service';
import { EmailOAuthStore } from './email-oauth.store';
import { OAuthRepository } from './oauth.repository';
import { EMAIL_OAUTH } from './oauth-settings';
import { UsersService } from './users.service';

/** Users only: what the admin CLI needs to create people and add them to workspaces. */
@Module({ providers: [OAuthRepository, UsersService], exports: [OAuthRepository, UsersService] })
export class EmailUsersModule {}

/** email-api's authorization server, browser sessions, connected apps and bearer verifier. */
@Module({
  imports: [EmailUsersModule, EmailAccessModule, AuthChangesModule],
  providers: [
    EmailOAuthStore,
    ConnectionsService,
    EmailBearerVerifier,
    ...oauthProviders({
      store: EmailOAuthStore,
      accounts: UsersService,
      settings: EMAIL_OAUTH,
      scopes: EMAIL_SCOPES,
      publicBaseUrl: (config) => config.publicBaseUrl,
      name: 'email',
    }),
  ],
  exports: [EmailUsersModule, ConnectionsService, EmailBearerVerifier, OAuthServer, BrowserSessions, SignInFlow, RegistrationLimiter],
})
export class EmailOAuthModule {}
