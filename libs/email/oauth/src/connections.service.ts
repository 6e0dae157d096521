import { Injectable } from '@nestjs/common';
import { Principal } from '@shared/auth';
import { Clock, IdGenerator, trustedWorkspaceId, WorkspaceId } from '@shared/core';
import type { ConnectionView as SharedConnectionView } from '@shared/browser-session';
import { apiKeyConnectionUse, AuthorizationRequest } from '@shared/oauth';
import { EmailOAuthStore } from './email-oauth.store';
import { OAuthRepository } from './oauth.repository';

/** A connected app as its page lists it: a connection belongs to one workspace. */
export interface ConnectionView extends SharedConnectionView {
  workspace: { id: string; name: string };
}

/**
 * Connected apps: an OAuth grant (client + person + workspace + scopes) or an API key used on /mcp. Revoking one
 * revokes its tokens, or stops that key on /mcp; API keys themselves are never touched.
 */
@Injectable()
export class ConnectionsService {
  constructor(
    private readonly repository: OAuthRepository,
    private readonly store: EmailOAuthStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The workspace a person chose on the consent page, once their membership is confirmed. */
  async memberWorkspace(userId: string, workspaceId: unknown): Promise<WorkspaceId | null> {
    const workspaces = await this.repository.workspacesOf(userId);
    const chosen = workspaces.find((workspace) => workspace.id === workspaceId);
    // The person's membership is what makes this workspace theirs to grant.
    return chosen ? trustedWorkspaceId(chosen.id) : null;
  }

  /** Records the person's approval; returns the grant (connection) the code and its tokens belong to. */
  approve(workspaceId: WorkspaceId, userId: string, request: AuthorizationRequest): Promise<string> {
    return this.repository.approveConnection(workspaceId, { newId: this.ids.newId('mcn'), clientId: request.client.id, userId, scopes: request.scopes });
  }

  async list(userId: string): Promise<ConnectionView[]> {
    const workspaces = await this.repository.workspacesOf(userId);
    // Only the workspaces the person belongs to.
    const rows = await this.repository.connectionsIn(workspaces.map((workspace) => trustedWorkspaceId(workspace.id)));
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      name: row.client?.name ?? row.api_key?.name ?? 'API key',
      detail: row.kind === 'oauth' ? 'Signed in with OAuth' : `API key ${row.api_key?.key_preview ?? ''} on the MCP server`,
      workspace: row.workspace,
      scopes: row.scopes,
      last_used_at: row.last_used_at,
      revoked_at: row.revoked_at,
      created_at: row.created_at,
    }));
  }

  /** False when none of the person's workspaces has this live connection. */
  async revoke(userId: string, workspaceId: unknown, connectionId: string): Promise<boolean> {
    const workspace = await this.memberWorkspace(userId, workspaceId);
    const revoked = workspace && (await this.repository.revokeConnection(workspace, connectionId, this.clock.now()));
    if (!revoked) return false;
    await this.store.evict(revoked);
    return true;
  }

  /** Records an API key's use of /mcp as a connection; false when that connection was revoked. */
  async admitApiKeyOnMcp(principal: Principal): Promise<boolean> {
    const revoked = await this.repository.recordApiKeyConnection(
      trustedWorkspaceId(principal.subjectId),
      apiKeyConnectionUse(principal, this.ids.newId('mcn'), this.clock.now()),
    );
    return !revoked;
  }
}
