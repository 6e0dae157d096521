import { Module } from '@nestjs/common';
import { AuthChangesModule } from '@shared/auth';
import { BrowserSessions, SignInFlow } from '@shared/browser-session';
import { OAuthServer, oauthProviders, RegistrationLimiter } from '@shared/oauth';
import { FORMS_SCOPES, FormsAccountsModule } from '@forms/accounts';
import { FormsBearerVerifier } from './bearer-verifier';
import { ConnectionsService } from './connections.service';
import { FormsOAuthStore } from './forms-oauth.store';
import { OAuthRepository } from './oauth.repository';
import { FORMS_OAUTH } from './oauth-settings';
import { OwnerSignIn } from './owners.service';

/** Owner passwords only: what the admin CLI needs. */
@Module({ providers: [OAuthRepository, OwnerSignIn], exports: [OAuthRepository, OwnerSignIn] })
export class FormsOwnerSignInModule {}

/** forms-api's authorization server, browser sessions, connected apps and bearer verifier (API keys and OAuth tokens). */
@Module({
  imports: [FormsOwnerSignInModule, FormsAccountsModule, AuthChangesModule],
  providers: [
    FormsOAuthStore,
    ConnectionsService,
    FormsBearerVerifier,
    ...oauthProviders({
      store: FormsOAuthStore,
      accounts: OwnerSignIn,
      settings: FORMS_OAUTH,
      scopes: FORMS_SCOPES,
      publicBaseUrl: (config) => config.formsPublicBaseUrl,
      name: 'forms',
    }),
  ],
  exports: [FormsOwnerSignInModule, ConnectionsService, FormsBearerVerifier, OAuthServer, BrowserSessions, SignInFlow, RegistrationLimiter],
})
export class FormsOAuthModule {}
