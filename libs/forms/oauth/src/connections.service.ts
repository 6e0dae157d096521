import { Injectable } from '@nestjs/common';
import { Principal } from '@shared/auth';
import { Clock, IdGenerator } from '@shared/core';
import type { ConnectionView } from '@shared/browser-session';
import { apiKeyConnectionUse, AuthorizationRequest } from '@shared/oauth';
import { FormsOAuthStore } from './forms-oauth.store';
import { OAuthRepository } from './oauth.repository';

/** A connected app as its page lists it. */
export type { ConnectionView };

/**
 * Connected apps of an owner: an OAuth grant (client + owner + scopes) or an API key used on /api/mcp. Revoking one
 * revokes its tokens, or stops that key on /api/mcp; the key keeps working on /api/v1.
 */
@Injectable()
export class ConnectionsService {
  constructor(
    private readonly repository: OAuthRepository,
    private readonly store: FormsOAuthStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** Records the owner's approval; returns the grant (connection) the code and its tokens belong to. */
  approve(ownerId: string, request: AuthorizationRequest): Promise<string> {
    return this.repository.approveConnection(ownerId, { newId: this.ids.newId('mcn'), clientId: request.client.id, scopes: request.scopes });
  }

  async list(ownerId: string): Promise<ConnectionView[]> {
    const rows = await this.repository.connectionsOf(ownerId);
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      name: row.client?.name ?? row.api_key?.name ?? 'API key',
      detail: row.kind === 'oauth' ? 'Connected with OAuth' : `API key ${row.api_key ? `${row.api_key.prefix}…${row.api_key.last4}` : ''} on the MCP server`,
      scopes: row.scopes,
      last_used_at: row.last_used_at,
      revoked_at: row.revoked_at,
      created_at: row.created_at,
    }));
  }

  /** False when the owner has no such live connection. */
  async revoke(ownerId: string, connectionId: string): Promise<boolean> {
    const revoked = await this.repository.revokeConnection(ownerId, connectionId, this.clock.now());
    if (!revoked) return false;
    await this.store.evict(revoked);
    return true;
  }

  /** Records an API key's use of /api/mcp as a connection; false when that connection was revoked. */
  async admitApiKeyOnMcp(principal: Principal): Promise<boolean> {
    const revoked = await this.repository.recordApiKeyConnection(principal.subjectId, apiKeyConnectionUse(principal, this.ids.newId('mcn'), this.clock.now()));
    return !revoked;
  }
}
