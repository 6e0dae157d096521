import { Injectable } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import type { McpConnection, OAuthAuthorizationCode, OAuthClient as OAuthClientRow, OAuthToken } from '@email/data-access';
import { WorkspaceId } from '@shared/core';
import type { StoredBrowserSession } from '@shared/browser-session';
import { oauthClientColumns, oauthClientOf, oauthCodeColumns, oauthTokenColumns, purgeOAuthBatch, storedCodeOf, storedTokenOf } from '@shared/oauth';
import type { ApiKeyConnectionUse, Consumed, OAuthClient, OAuthPurgeCounts, OAuthPurgeCutoffs, StoredAuthorizationCode, StoredToken } from '@shared/oauth';

export type ConnectionRecord = McpConnection & {
  client: Pick<OAuthClientRow, 'id' | 'name'> | null;
  api_key: { id: string; name: string; key_preview: string } | null;
  workspace: { id: string; name: string };
};

export type TokenRecord = OAuthToken & {
  connection: Pick<McpConnection, 'created_by_user_id' | 'last_authorized_by_user_id' | 'revoked_at'> & {
    client: Pick<OAuthClientRow, 'id' | 'name'> | null;
    workspace: { id: string; name: string };
  };
};

const CONNECTION_INCLUDE = {
  client: { select: { id: true, name: true } },
  api_key: { select: { id: true, name: true, key_preview: true } },
  workspace: { select: { id: true, name: true } },
} as const;

/**
 * Users, memberships, browser sessions, OAuth clients, codes, tokens and MCP connections: the only Prisma user of this
 * domain. Sign-in, client registration and the token lookups come before any workspace is established, so those
 * take none; what a signed-in person sees is limited to the workspaces they belong to.
 */
@Injectable()
export class OAuthRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  // Users (admin and sign-in: no workspace yet).

  async createUser(user: { id: string; email: string; name: string; password_hash: string }, workspaceIds: string[]): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.user.create({ data: user }),
      this.prisma.workspaceMembership.createMany({ data: workspaceIds.map((workspace_id) => ({ workspace_id, user_id: user.id })) }),
    ]);
  }

  async addMembership(userId: string, workspaceId: string): Promise<void> {
    await this.prisma.workspaceMembership.createMany({ data: [{ workspace_id: workspaceId, user_id: userId }], skipDuplicates: true });
  }

  findUserByEmail(email: string) {
    return this.prisma.user.findUnique({ where: { email } });
  }

  findUser(userId: string) {
    return this.prisma.user.findUnique({ where: { id: userId }, select: { id: true, email: true, name: true } });
  }

  /** The workspaces a person belongs to, by name. */
  async workspacesOf(userId: string): Promise<Array<{ id: string; name: string }>> {
    const rows = await this.prisma.workspaceMembership.findMany({
      where: { user_id: userId },
      select: { workspace: { select: { id: true, name: true } } },
      orderBy: { workspace: { name: 'asc' } },
    });
    return rows.map((row) => row.workspace);
  }

  async workspaceExists(workspaceId: string): Promise<boolean> {
    return (await this.prisma.workspace.count({ where: { id: workspaceId } })) === 1;
  }

  // Browser sessions (the digest identifies the session).

  /** Also drops the person's expired sessions, so they do not pile up. */
  async createSession(session: StoredBrowserSession & { tokenHash: string }, now: Date): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.browserSession.deleteMany({ where: { user_id: session.userId, expires_at: { lte: now } } }),
      this.prisma.browserSession.create({ data: { id: session.id, token_hash: session.tokenHash, user_id: session.userId, expires_at: session.expiresAt } }),
    ]);
  }

  async findSession(tokenHash: string, now: Date): Promise<StoredBrowserSession | null> {
    const row = await this.prisma.browserSession.findFirst({ where: { token_hash: tokenHash, expires_at: { gt: now } } });
    return row && { id: row.id, userId: row.user_id, expiresAt: row.expires_at };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.prisma.browserSession.deleteMany({ where: { token_hash: tokenHash } });
  }

  // OAuth clients (registered before any workspace is chosen).

  async createClient(client: OAuthClient): Promise<void> {
    await this.prisma.oAuthClient.create({ data: oauthClientColumns(client) });
  }

  async findClient(id: string): Promise<OAuthClient | null> {
    const row = await this.prisma.oAuthClient.findUnique({ where: { id } });
    return row && oauthClientOf(row);
  }

  // Connections: the person chose the workspace on the consent page, among their memberships.

  /** Creates or renews the client's connection to the workspace with the approved scopes; returns its id. */
  async approveConnection(workspaceId: WorkspaceId, input: { newId: string; clientId: string; userId: string; scopes: string[] }): Promise<string> {
    const row = await this.prisma.mcpConnection.upsert({
      where: { workspace_id_client_id: { workspace_id: workspaceId, client_id: input.clientId } },
      create: {
        id: input.newId,
        workspace_id: workspaceId,
        kind: 'oauth',
        client_id: input.clientId,
        scopes: input.scopes,
        created_by_user_id: input.userId,
        last_authorized_by_user_id: input.userId,
      },
      update: { scopes: input.scopes, last_authorized_by_user_id: input.userId, revoked_at: null },
    });
    return row.id;
  }

  /** The connections of the person's workspaces, newest first. */
  connectionsIn(workspaceIds: WorkspaceId[]): Promise<ConnectionRecord[]> {
    return this.prisma.mcpConnection.findMany({ where: { workspace_id: { in: workspaceIds } }, include: CONNECTION_INCLUDE, orderBy: { created_at: 'desc' } });
  }

  /**
   * Revokes one connection of the workspace and every token issued under it; returns the revoked access tokens' ids
   * (to evict cached principals), or null when the workspace has no such live connection.
   */
  async revokeConnection(workspaceId: WorkspaceId, connectionId: string, at: Date): Promise<string[] | null> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.mcpConnection.updateMany({
        where: { id: connectionId, workspace_id: workspaceId, revoked_at: null },
        data: { revoked_at: at },
      });
      if (count === 0) return null;
      const tokens = await tx.oAuthToken.findMany({
        where: { connection_id: connectionId, workspace_id: workspaceId, kind: 'access', revoked_at: null },
        select: { id: true },
      });
      await tx.oAuthToken.updateMany({ where: { connection_id: connectionId, workspace_id: workspaceId, revoked_at: null }, data: { revoked_at: at } });
      return tokens.map((token) => token.id);
    });
  }

  /**
   * The API key's connection on /mcp, created on its first use there (the key names the workspace); returns whether
   * it was revoked. `last_used_at` moves only when older than `staleBefore`.
   */
  async recordApiKeyConnection(workspaceId: WorkspaceId, input: ApiKeyConnectionUse): Promise<boolean> {
    const row = await this.prisma.mcpConnection.upsert({
      where: { workspace_id_api_key_id: { workspace_id: workspaceId, api_key_id: input.apiKeyId } },
      create: { id: input.newId, workspace_id: workspaceId, kind: 'api_key', api_key_id: input.apiKeyId, scopes: input.scopes, last_used_at: input.at },
      update: {},
    });
    if (row.revoked_at) return true;
    if (!row.last_used_at || row.last_used_at < input.staleBefore) {
      await this.prisma.mcpConnection.updateMany({ where: { id: row.id, workspace_id: workspaceId }, data: { last_used_at: input.at } });
    }
    return false;
  }

  // Codes and tokens: their digest identifies them, and each row names its workspace.

  /** Also drops the connection's expired codes (a used code is kept until then, to recognise its replay). */
  async saveAuthorizationCode(code: StoredAuthorizationCode, now: Date): Promise<void> {
    await this.prisma.oAuthAuthorizationCode.deleteMany({ where: { connection_id: code.grantId, workspace_id: code.workspaceId, expires_at: { lte: now } } });
    await this.prisma.oAuthAuthorizationCode.create({ data: { ...oauthCodeColumns(code), user_id: code.userId, workspace_id: code.workspaceId } });
  }

  async consumeAuthorizationCode(codeHash: string, now: Date): Promise<Consumed<StoredAuthorizationCode> | null> {
    const { count } = await this.prisma.oAuthAuthorizationCode.updateMany({ where: { code_hash: codeHash, used_at: null }, data: { used_at: now } });
    const row = await this.prisma.oAuthAuthorizationCode.findUnique({ where: { code_hash: codeHash } });
    return row && { record: codeOf(row), firstUse: count === 1 };
  }

  /**
   * Saves the pair only while their connection is live, and drops the family's expired tokens (a rotated refresh
   * token is kept until it expires, to recognise its reuse).
   */
  async saveTokens(tokens: StoredToken[]): Promise<boolean> {
    const [{ grantId, workspaceId, familyId, createdAt }] = tokens;
    return this.prisma.$transaction(async (tx) => {
      const live = await tx.mcpConnection.count({ where: { id: grantId, workspace_id: workspaceId, revoked_at: null } });
      if (live === 0) return false;
      await tx.oAuthToken.deleteMany({ where: { family_id: familyId, workspace_id: workspaceId, expires_at: { lte: createdAt } } });
      await tx.oAuthToken.createMany({ data: tokens.map(rowOf) });
      return true;
    });
  }

  async consumeRefreshToken(tokenHash: string, now: Date): Promise<Consumed<StoredToken> | null> {
    const { count } = await this.prisma.oAuthToken.updateMany({ where: { token_hash: tokenHash, kind: 'refresh', used_at: null }, data: { used_at: now } });
    const row = await this.prisma.oAuthToken.findFirst({ where: { token_hash: tokenHash, kind: 'refresh' } });
    return row && { record: tokenOf(row), firstUse: count === 1 };
  }

  async findToken(tokenHash: string): Promise<StoredToken | null> {
    const row = await this.prisma.oAuthToken.findUnique({ where: { token_hash: tokenHash } });
    return row && tokenOf(row);
  }

  /** The access token with what the capabilities document shows of it (client, users, workspace). */
  findAccessToken(tokenHash: string): Promise<TokenRecord | null> {
    return this.prisma.oAuthToken.findFirst({
      where: { token_hash: tokenHash, kind: 'access' },
      include: {
        connection: {
          select: {
            created_by_user_id: true,
            last_authorized_by_user_id: true,
            revoked_at: true,
            client: { select: { id: true, name: true } },
            workspace: { select: { id: true, name: true } },
          },
        },
      },
    });
  }

  /** Revokes a family; returns the ids of its access tokens that were live. */
  async revokeFamily(familyId: string, at: Date): Promise<string[]> {
    return this.prisma.$transaction(async (tx) => {
      const live = await tx.oAuthToken.findMany({ where: { family_id: familyId, kind: 'access', revoked_at: null }, select: { id: true } });
      await tx.oAuthToken.updateMany({ where: { family_id: familyId, revoked_at: null }, data: { revoked_at: at } });
      return live.map((token) => token.id);
    });
  }

  /** Deletes up to `limit` each of expired codes, expired or long-revoked tokens and expired sessions (see purgeOAuthRecords). */
  // Across every workspace: the scheduled purge deletes by expiry alone, on behalf of no tenant.
  purgeOAuthBatchOfAllWorkspaces(cutoffs: OAuthPurgeCutoffs, limit: number): Promise<OAuthPurgeCounts> {
    return purgeOAuthBatch(this.prisma, cutoffs, limit);
  }

  /** Stamps the token and its connection, only when older than `staleBefore` (most calls write nothing). */
  async touchToken(tokenId: string, at: Date, staleBefore: Date): Promise<void> {
    const token = await this.prisma.oAuthToken.updateManyAndReturn({
      where: { id: tokenId, OR: [{ last_used_at: null }, { last_used_at: { lt: staleBefore } }] },
      data: { last_used_at: at },
      select: { connection_id: true, workspace_id: true },
    });
    if (token.length)
      await this.prisma.mcpConnection.updateMany({ where: { id: token[0].connection_id, workspace_id: token[0].workspace_id }, data: { last_used_at: at } });
  }
}

const holderOf = (row: { user_id: string; workspace_id: string }) => ({ userId: row.user_id, workspaceId: row.workspace_id });
const codeOf = (row: OAuthAuthorizationCode): StoredAuthorizationCode => storedCodeOf(row, holderOf(row));
const tokenOf = (row: OAuthToken): StoredToken => storedTokenOf(row, holderOf(row));
const rowOf = (token: StoredToken) => ({ ...oauthTokenColumns(token), user_id: token.userId, workspace_id: token.workspaceId });
