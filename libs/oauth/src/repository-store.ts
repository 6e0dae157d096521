import type { BrowserSessionStore, StoredBrowserSession } from '@shared/browser-session';
import type { Consumed, OAuthClient, OAuthStore, StoredAuthorizationCode, StoredToken } from './store';

/** The statements a service's OAuth repository runs on its own tables (the `now` arguments date clean-ups). */
export interface OAuthRepositoryPort {
  createClient(client: OAuthClient): Promise<void>;
  findClient(id: string): Promise<OAuthClient | null>;
  saveAuthorizationCode(code: StoredAuthorizationCode, now: Date): Promise<void>;
  consumeAuthorizationCode(codeHash: string, now: Date): Promise<Consumed<StoredAuthorizationCode> | null>;
  saveTokens(tokens: StoredToken[]): Promise<boolean>;
  consumeRefreshToken(tokenHash: string, now: Date): Promise<Consumed<StoredToken> | null>;
  findToken(tokenHash: string): Promise<StoredToken | null>;
  /** Revokes the family's live tokens; the ids of the access tokens it revoked. */
  revokeFamily(familyId: string, now: Date): Promise<string[]>;
  createSession(session: StoredBrowserSession & { tokenHash: string }, now: Date): Promise<void>;
  findSession(tokenHash: string, now: Date): Promise<StoredBrowserSession | null>;
  deleteSession(tokenHash: string): Promise<void>;
}

/**
 * The shared OAuth and browser-session mechanisms' storage over a service's repository. `evictAccessToken` drops a
 * revoked access token from every replica's principal cache (each service publishes on its own auth channel).
 */
export class RepositoryOAuthStore implements OAuthStore, BrowserSessionStore {
  constructor(
    private readonly repository: OAuthRepositoryPort,
    private readonly now: () => Date,
    private readonly evictAccessToken: (id: string) => Promise<void>,
  ) {}

  createClient(client: OAuthClient): Promise<void> {
    return this.repository.createClient(client);
  }

  findClient(id: string): Promise<OAuthClient | null> {
    return this.repository.findClient(id);
  }

  saveAuthorizationCode(code: StoredAuthorizationCode): Promise<void> {
    return this.repository.saveAuthorizationCode(code, this.now());
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
    for (const id of accessTokenIds) await this.evictAccessToken(id);
  }

  createSession(session: StoredBrowserSession & { tokenHash: string }): Promise<void> {
    return this.repository.createSession(session, this.now());
  }

  findSession(tokenHash: string, now: Date): Promise<StoredBrowserSession | null> {
    return this.repository.findSession(tokenHash, now);
  }

  deleteSession(tokenHash: string): Promise<void> {
    return this.repository.deleteSession(tokenHash);
  }
}
