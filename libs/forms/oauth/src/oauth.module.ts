import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AuthChangesModule } from '@shared/auth';
import { BrowserSessions, SignedOutCsrf, SignInFlow, SignInLimiter, useSecureCookies } from '@shared/browser-session';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { IdGenerator } from '@shared/core';
import { OAuthServer, RegistrationLimiter } from '@shared/oauth';
import { REDIS_CLIENT } from '@shared/redis';
import { FORMS_SCOPES, FormsAccountsModule } from '@forms/accounts';
import { FormsBearerVerifier } from './bearer-verifier';
import { ConnectionsService } from './connections.service';
import { FormsOAuthStore } from './forms-oauth.store';
import { OAuthRepository } from './oauth.repository';
import { FORMS_OAUTH } from './oauth-settings';
import { OwnerSignIn } from './owners.service';

const ID_PREFIXES = { client: 'oac', token: 'oat', family: 'oaf' } as const;

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
    {
      provide: OAuthServer,
      inject: [FormsOAuthStore, IdGenerator, APP_CONFIG],
      useFactory: (store: FormsOAuthStore, ids: IdGenerator, config: AppConfig) =>
        new OAuthServer(store, {
          issuer: config.formsPublicBaseUrl,
          scopes: FORMS_SCOPES,
          accessTokenPrefix: FORMS_OAUTH.accessTokenPrefix,
          refreshTokenPrefix: FORMS_OAUTH.refreshTokenPrefix,
          codePrefix: FORMS_OAUTH.codePrefix,
          accessTokenTtlMs: FORMS_OAUTH.accessTokenTtlMs,
          refreshTokenTtlMs: FORMS_OAUTH.refreshTokenTtlMs,
          codeTtlMs: FORMS_OAUTH.codeTtlMs,
          newId: (kind) => ids.newId(ID_PREFIXES[kind]),
        }),
    },
    {
      provide: BrowserSessions,
      inject: [FormsOAuthStore, IdGenerator, APP_CONFIG],
      useFactory: (store: FormsOAuthStore, ids: IdGenerator, config: AppConfig) =>
        new BrowserSessions(store, {
          cookieName: FORMS_OAUTH.sessionCookie,
          secure: useSecureCookies(config.formsPublicBaseUrl),
          ttlMs: FORMS_OAUTH.sessionTtlMs,
          newId: () => ids.newId('bss'),
        }),
    },
    {
      provide: SignedOutCsrf,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SignedOutCsrf(FORMS_OAUTH.signInCsrfCookie, useSecureCookies(config.formsPublicBaseUrl)),
    },
    {
      provide: SignInLimiter,
      inject: [REDIS_CLIENT, APP_CONFIG],
      useFactory: (redis: Redis, config: AppConfig) => new SignInLimiter(redis, `${config.queuePrefix}:forms-sign-in`),
    },
    {
      provide: SignInFlow,
      inject: [BrowserSessions, SignedOutCsrf, SignInLimiter, OwnerSignIn],
      useFactory: (sessions: BrowserSessions, csrf: SignedOutCsrf, limiter: SignInLimiter, owners: OwnerSignIn) =>
        new SignInFlow(sessions, csrf, limiter, {
          checkPassword: (email, password) => owners.checkPassword(email, password),
          // The authorization page (its query carries the request) and the account pages.
          returnTo: /^\/(oauth\/authorize\?|account\/)/,
          fallback: FORMS_OAUTH.connectedAppsPath,
        }),
    },
    {
      provide: RegistrationLimiter,
      inject: [REDIS_CLIENT, APP_CONFIG],
      useFactory: (redis: Redis, config: AppConfig) => new RegistrationLimiter(redis, `${config.queuePrefix}:forms-oauth-register`),
    },
  ],
  exports: [FormsOwnerSignInModule, ConnectionsService, FormsBearerVerifier, OAuthServer, BrowserSessions, SignInFlow, RegistrationLimiter],
})
export class FormsOAuthModule {}
