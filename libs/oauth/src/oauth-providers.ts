import type { Provider, Type } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { BrowserSessions, type BrowserSessionStore, SignedOutCsrf, SignInFlow, SignInLimiter, useSecureCookies } from '@shared/browser-session';
import { APP_CONFIG, type AppConfig } from '@shared/config';
import { IdGenerator } from '@shared/core';
import { REDIS_CLIENT } from '@shared/redis';
import { OAuthServer, type OAuthServerOptions } from './oauth-server';
import { RegistrationLimiter } from './registration-limiter';
import type { OAuthStore } from './store';

/** Lifetimes both services give their OAuth credentials and browser sessions. */
export const OAUTH_LIFETIMES = {
  accessTokenTtlMs: 60 * 60_000,
  refreshTokenTtlMs: 30 * 24 * 60 * 60_000,
  codeTtlMs: 5 * 60_000,
  sessionTtlMs: 12 * 60 * 60_000,
} as const;

/**
 * How long the scheduled purge keeps a revoked token. Codes, sessions and tokens past expiry go at once: each is refused
 * anyway, and a rotated refresh token is kept until it expires, so reuse detection still sees it. A revoked token's
 * whole family was revoked with it; a day keeps it visible while the revocation is recent.
 */
export const REVOKED_TOKEN_RETENTION_MS = 24 * 60 * 60_000;

/** A service's OAuth credentials and browser sessions: lifetimes, secret prefixes, cookie names. */
export interface OAuthServiceSettings extends Pick<
  OAuthServerOptions,
  'accessTokenPrefix' | 'refreshTokenPrefix' | 'codePrefix' | 'accessTokenTtlMs' | 'refreshTokenTtlMs' | 'codeTtlMs'
> {
  sessionTtlMs: number;
  sessionCookie: string;
  signInCsrfCookie: string;
  connectedAppsPath: string;
}

export interface OAuthProvidersOptions {
  /** The service's store (a provider of the same module). */
  store: Type<OAuthStore & BrowserSessionStore>;
  /** Whose passwords the sign-in form checks (a provider of the module or its imports). */
  accounts: Type<{ checkPassword(email: string, password: string): Promise<string | null> }>;
  settings: OAuthServiceSettings;
  scopes: readonly string[];
  /** The origin the service's pages and authorization server answer on. */
  publicBaseUrl(config: AppConfig): string;
  /** Names the service's Redis keys: `<QUEUE_PREFIX>:<name>-sign-in`, `<QUEUE_PREFIX>:<name>-oauth-register`. */
  name: string;
}

const ID_PREFIXES = { client: 'oac', token: 'oat', family: 'oaf' } as const;

/** The Nest providers of a service's authorization server and browser sessions: OAuthServer, BrowserSessions, SignedOutCsrf, SignInLimiter, SignInFlow, RegistrationLimiter. */
export function oauthProviders(options: OAuthProvidersOptions): Provider[] {
  const { settings } = options;
  return [
    {
      provide: OAuthServer,
      inject: [options.store, IdGenerator, APP_CONFIG],
      useFactory: (store: OAuthStore, ids: IdGenerator, config: AppConfig) =>
        new OAuthServer(store, {
          issuer: options.publicBaseUrl(config),
          scopes: options.scopes,
          accessTokenPrefix: settings.accessTokenPrefix,
          refreshTokenPrefix: settings.refreshTokenPrefix,
          codePrefix: settings.codePrefix,
          accessTokenTtlMs: settings.accessTokenTtlMs,
          refreshTokenTtlMs: settings.refreshTokenTtlMs,
          codeTtlMs: settings.codeTtlMs,
          newId: (kind) => ids.newId(ID_PREFIXES[kind]),
        }),
    },
    {
      provide: BrowserSessions,
      inject: [options.store, IdGenerator, APP_CONFIG],
      useFactory: (store: BrowserSessionStore, ids: IdGenerator, config: AppConfig) =>
        new BrowserSessions(store, {
          cookieName: settings.sessionCookie,
          secure: useSecureCookies(options.publicBaseUrl(config)),
          ttlMs: settings.sessionTtlMs,
          newId: () => ids.newId('bss'),
        }),
    },
    {
      provide: SignedOutCsrf,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SignedOutCsrf(settings.signInCsrfCookie, useSecureCookies(options.publicBaseUrl(config))),
    },
    {
      provide: SignInLimiter,
      inject: [REDIS_CLIENT, APP_CONFIG],
      // Under the deployment's Redis namespace (QUEUE_PREFIX), like its queues.
      useFactory: (redis: Redis, config: AppConfig) => new SignInLimiter(redis, `${config.queuePrefix}:${options.name}-sign-in`),
    },
    {
      provide: SignInFlow,
      inject: [BrowserSessions, SignedOutCsrf, SignInLimiter, options.accounts],
      useFactory: (sessions: BrowserSessions, csrf: SignedOutCsrf, limiter: SignInLimiter, accounts: InstanceType<OAuthProvidersOptions['accounts']>) =>
        new SignInFlow(sessions, csrf, limiter, {
          checkPassword: (email, password) => accounts.checkPassword(email, password),
          // The authorization page (its query carries the request) and the account pages.
          returnTo: /^\/(oauth\/authorize\?|account\/)/,
          fallback: settings.connectedAppsPath,
        }),
    },
    {
      provide: RegistrationLimiter,
      inject: [REDIS_CLIENT, APP_CONFIG],
      useFactory: (redis: Redis, config: AppConfig) => new RegistrationLimiter(redis, `${config.queuePrefix}:${options.name}-oauth-register`),
    },
  ];
}
