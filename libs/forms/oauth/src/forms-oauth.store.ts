import { Injectable } from '@nestjs/common';
import { AuthChangeBus, AuthServices } from '@shared/auth';
import type { BrowserSessionStore, StoredBrowserSession } from '@shared/browser-session';
import { Clock } from '@shared/core';
import type { Consumed, OAuthClient, OAuthStore, StoredAuthorizationCode, StoredToken } from '@shared/oauth';
import { OAuthRepository } from './oauth.repository';

/** The shared OAuth and browser-session mechanisms' storage, on the forms tables; revocations reach every replica's cache. */
@Injectable()
export class FormsOAuthStore implements OAuthStore, BrowserSessionStore {
  constructor(
    private readonly repository: OAuthRepository,
    private readonly changes: AuthChangeBus,
    private readonly clock: Clock,
  ) {}

  createClient(client: OAuthClient): Promise<void> {
    return this.repository.createClient(client);
  }

  findClient(id: string): Promise<OAuthClient | null> {
    return this.repository.findClient(id);
  }

  saveAuthorizationCode(code: StoredAuthorizationCode): Promise<void> {
    return this.repository.saveAuthorizationCode(code, this.clock.now());
  }

  consumeAuthorizationCode(codeHash: string, now: Date): Promise<Consumed<StoredAuthorizationCode> | null> {
    return this.repository.consumeAuthorizationCode(codeHash, now);
  }

  saveTokens(tokens: StoredToken[]): Promise<boolean> {
    return this.repository.saveTokens(tokens);
  }

  consumeRefreshToken(tokenHash: string, now: Date): Promise<Consumed<StoredToken> | null> {
    return this.repository.consumeRefreshToken(tokenHash, now);
  }

  findToken(tokenHash: string): Promise<StoredToken | null> {
    return this.repository.findToken(tokenHash);
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    await this.evict(await this.repository.revokeFamily(familyId, now));
  }

  /** Drops revoked access tokens from every replica's principal cache. */
  async evict(accessTokenIds: readonly string[]): Promise<void> {
    for (const id of accessTokenIds) await this.changes.publish(AuthServices.forms, { kind: 'credential', id });
  }

  createSession(session: StoredBrowserSession & { tokenHash: string }): Promise<void> {
    return this.repository.createSession(session, this.clock.now());
  }

  findSession(tokenHash: string, now: Date): Promise<StoredBrowserSession | null> {
    return this.repository.findSession(tokenHash, now);
  }

  deleteSession(tokenHash: string): Promise<void> {
    return this.repository.deleteSession(tokenHash);
  }
}
