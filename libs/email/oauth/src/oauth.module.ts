import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AuthChangesModule } from '@shared/auth';
import { BrowserSessions, SignedOutCsrf, SignInFlow, SignInLimiter, useSecureCookies } from '@shared/browser-session';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { IdGenerator } from '@shared/core';
import { OAuthServer, RegistrationLimiter } from '@shared/oauth';
import { REDIS_CLIENT } from '@shared/redis';
import { EMAIL_SCOPES, EmailAccessModule } from '@email/access';
import { EmailBearerVerifier } from './bearer-verifier';
import { ConnectionsService } from './connections.service';
import { EmailOAuthStore } from './email-oauth.store';
import { OAuthRepository } from './oauth.repository';
import { EMAIL_OAUTH } from './oauth-settings';
import { UsersService } from './users.service';

const ID_PREFIXES = { client: 'oac', token: 'oat', family: 'oaf' } as const;

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
    {
      provide: OAuthServer,
      inject: [EmailOAuthStore, IdGenerator, APP_CONFIG],
      useFactory: (store: EmailOAuthStore, ids: IdGenerator, config: AppConfig) =>
        new OAuthServer(store, {
          issuer: config.publicBaseUrl,
          scopes: EMAIL_SCOPES,
          accessTokenPrefix: EMAIL_OAUTH.accessTokenPrefix,
          refreshTokenPrefix: EMAIL_OAUTH.refreshTokenPrefix,
          codePrefix: EMAIL_OAUTH.codePrefix,
          accessTokenTtlMs: EMAIL_OAUTH.accessTokenTtlMs,
          refreshTokenTtlMs: EMAIL_OAUTH.refreshTokenTtlMs,
          codeTtlMs: EMAIL_OAUTH.codeTtlMs,
          newId: (kind) => ids.newId(ID_PREFIXES[kind]),
        }),
    },
    {
      provide: BrowserSessions,
      inject: [EmailOAuthStore, IdGenerator, APP_CONFIG],
      useFactory: (store: EmailOAuthStore, ids: IdGenerator, config: AppConfig) =>
        new BrowserSessions(store, {
          cookieName: EMAIL_OAUTH.sessionCookie,
          secure: useSecureCookies(config.publicBaseUrl),
          ttlMs: EMAIL_OAUTH.sessionTtlMs,
          newId: () => ids.newId('bss'),
        }),
    },
    {
      provide: SignedOutCsrf,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SignedOutCsrf(EMAIL_OAUTH.signInCsrfCookie, useSecureCookies(config.publicBaseUrl)),
    },
    {
      provide: SignInLimiter,
      inject: [REDIS_CLIENT, APP_CONFIG],
      // Under the deployment's Redis namespace (QUEUE_PREFIX), like its queues.
      useFactory: (redis: Redis, config: AppConfig) => new SignInLimiter(redis, `${config.queuePrefix}:email-sign-in`),
    },
    {
      provide: SignInFlow,
      inject: [BrowserSessions, SignedOutCsrf, SignInLimiter, UsersService],
      useFactory: (sessions: BrowserSessions, csrf: SignedOutCsrf, limiter: SignInLimiter, users: UsersService) =>
        new SignInFlow(sessions, csrf, limiter, {
          checkPassword: (email, password) => users.checkPassword(email, password),
          // The authorization page (its query carries the request) and the account pages.
          returnTo: /^\/(oauth\/authorize\?|account\/)/,
          fallback: EMAIL_OAUTH.connectedAppsPath,
        }),
    },
    {
      provide: RegistrationLimiter,
      inject: [REDIS_CLIENT, APP_CONFIG],
      useFactory: (redis: Redis, config: AppConfig) => new RegistrationLimiter(redis, `${config.queuePrefix}:email-oauth-register`),
    },
  ],
  exports: [EmailUsersModule, ConnectionsService, EmailBearerVerifier, OAuthServer, BrowserSessions, SignInFlow, RegistrationLimiter],
})
export class EmailOAuthModule {}
