import { Injectable } from '@nestjs/common';
import { FormsPrisma } from '@forms/data-access';
import type { McpConnection, OAuthAuthorizationCode, OAuthClient as OAuthClientRow, OAuthToken } from '@forms/data-access';
import type { StoredBrowserSession } from '@shared/browser-session';
import { oauthClientColumns, oauthClientOf, oauthCodeColumns, oauthTokenColumns, purgeOAuthBatch, storedCodeOf, storedTokenOf } from '@shared/oauth';
import type { ApiKeyConnectionUse, Consumed, OAuthClient, OAuthPurgeCounts, OAuthPurgeCutoffs, StoredAuthorizationCode, StoredToken } from '@shared/oauth';

export type ConnectionRecord = McpConnection & {
  client: Pick<OAuthClientRow, 'id' | 'name'> | null;
  api_key: { id: string; name: string; prefix: string; last4: string } | null;
};

export type TokenRecord = OAuthToken & {
  connection: Pick<McpConnection, 'revoked_at'> & { client: Pick<OAuthClientRow, 'id' | 'name'> | null };
  owner: { id: string; email: string; username: string; created_at: Date; updated_at: Date; preferred_workspace_id: string | null };
};

/** A workspace the owner belongs to, with their role there (what the consent page shows). */
export interface OwnerWorkspace {
  id: string;
  name: string;
  role: string;
}

/**
 * Owner passwords, browser sessions, OAuth clients, codes, tokens and MCP connections: the only Prisma user of this
 * domain. A forms grant belongs to an owner account, not a workspace (forms credentials are account-owned and act
 * with the owner's live memberships), so these rows are keyed by owner; sign-in, registration and token lookups come
 * before any owner is known and take none.
 */
@Injectable()
export class OAuthRepository {
  constructor(private readonly prisma: FormsPrisma) {}

  // Owners and passwords (admin and sign-in).

  findOwnerByEmail(email: string) {
    return this.prisma.owner.findUnique({ where: { email }, select: { id: true, email: true, password: { select: { password_hash: true } } } });
  }

  findOwner(ownerId: string) {
    return this.prisma.owner.findUnique({ where: { id: ownerId }, select: { id: true, email: true, username: true } });
  }

  async setPassword(ownerId: string, passwordHash: string): Promise<void> {
    await this.prisma.ownerPassword.upsert({
      where: { owner_id: ownerId },
      create: { owner_id: ownerId, password_hash: passwordHash },
      update: { password_hash: passwordHash },
    });
  }

  /** Every session of the owner ends (a password change signs them out everywhere). */
  async deleteSessionsOf(ownerId: string): Promise<void> {
    await this.prisma.browserSession.deleteMany({ where: { owner_id: ownerId } });
  }

  /** The workspaces the owner belongs to, by name, with their role read now. */
  async workspacesOf(ownerId: string): Promise<OwnerWorkspace[]> {
    const rows = await this.prisma.membership.findMany({
      where: { owner_id: ownerId },
      select: { role: true, workspace: { select: { id: true, name: true } } },
      orderBy: { workspace: { name: 'asc' } },
    });
    return rows.map((row) => ({ ...row.workspace, role: row.role }));
  }

  // Browser sessions (the digest identifies the session).

  /** Also drops the owner's expired sessions, so they do not pile up. */
  async createSession(session: StoredBrowserSession & { tokenHash: string }, now: Date): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.browserSession.deleteMany({ where: { owner_id: session.userId, expires_at: { lte: now } } }),
      this.prisma.browserSession.create({ data: { id: session.id, token_hash: session.tokenHash, owner_id: session.userId, expires_at: session.expiresAt } }),
    ]);
  }

  async findSession(tokenHash: string, now: Date): Promise<StoredBrowserSession | null> {
    const row = await this.prisma.browserSession.findFirst({ where: { token_hash: tokenHash, expires_at: { gt: now } } });
    return row && { id: row.id, userId: row.owner_id, expiresAt: row.expires_at };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.prisma.browserSession.deleteMany({ where: { token_hash: tokenHash } });
  }

  // OAuth clients (registered before anyone signs in).

  async createClient(client: OAuthClient): Promise<void> {
    await this.prisma.oAuthClient.create({ data: oauthClientColumns(client) });
  }

  async findClient(id: string): Promise<OAuthClient | null> {
    const row = await this.prisma.oAuthClient.findUnique({ where: { id } });
    return row && oauthClientOf(row);
  }

  // Connections of one owner.

  /** Creates or renews the client's connection for the owner with the approved scopes; returns its id. */
  async approveConnection(ownerId: string, input: { newId: string; clientId: string; scopes: string[] }): Promise<string> {
    const row = await this.prisma.mcpConnection.upsert({
      where: { owner_id_client_id: { owner_id: ownerId, client_id: input.clientId } },
      create: { id: input.newId, owner_id: ownerId, kind: 'oauth', client_id: input.clientId, scopes: input.scopes },
      update: { scopes: input.scopes, revoked_at: null },
    });
    return row.id;
  }

  connectionsOf(ownerId: string): Promise<ConnectionRecord[]> {
    return this.prisma.mcpConnection.findMany({
      where: { owner_id: ownerId },
      include: { client: { select: { id: true, name: true } }, api_key: { select: { id: true, name: true, prefix: true, last4: true } } },
      orderBy: { created_at: 'desc' },
    });
  }

  /**
   * Revokes one live connection of the owner and every token issued under it; returns the revoked access tokens' ids
   * (to evict cached principals), or null when the owner has no such live connection.
   */
  async revokeConnection(ownerId: string, connectionId: string, at: Date): Promise<string[] | null> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.mcpConnection.updateMany({ where: { id: connectionId, owner_id: ownerId, revoked_at: null }, data: { revoked_at: at } });
      if (count === 0) return null;
      const live = { connection_id: connectionId, owner_id: ownerId, revoked_at: null };
      const tokens = await tx.oAuthToken.findMany({ where: { ...live, kind: 'access' }, select: { id: true } });
      await tx.oAuthToken.updateMany({ where: live, data: { revoked_at: at } });
      return tokens.map((token) => token.id);
    });
  }

  /**
   * The API key's connection on /api/mcp, created on its first use there; returns whether it was revoked.
   * `last_used_at` moves only when older than `staleBefore`.
   */
  async recordApiKeyConnection(ownerId: string, input: ApiKeyConnectionUse): Promise<boolean> {
    const row = await this.prisma.mcpConnection.upsert({
      where: { owner_id_api_key_id: { owner_id: ownerId, api_key_id: input.apiKeyId } },
      create: { id: input.newId, owner_id: ownerId, kind: 'api_key', api_key_id: input.apiKeyId, scopes: input.scopes, last_used_at: input.at },
      update: {},
    });
    if (row.revoked_at) return true;
    if (!row.last_used_at || row.last_used_at < input.staleBefore) {
      await this.prisma.mcpConnection.updateMany({ where: { id: row.id, owner_id: ownerId }, data: { last_used_at: input.at } });
    }
    return false;
  }

  // Codes and tokens: their digest identifies them.

  /** Also drops the connection's expired codes (a used code is kept until then, to recognise its replay). */
  async saveAuthorizationCode(code: StoredAuthorizationCode, now: Date): Promise<void> {
    await this.prisma.oAuthAuthorizationCode.deleteMany({ where: { connection_id: code.grantId, owner_id: code.userId, expires_at: { lte: now } } });
    await this.prisma.oAuthAuthorizationCode.create({ data: { ...oauthCodeColumns(code), owner_id: code.userId } });
  }

  async consumeAuthorizationCode(codeHash: string, now: Date): Promise<Consumed<StoredAuthorizationCode> | null> {
    const { count } = await this.prisma.oAuthAuthorizationCode.updateMany({ where: { code_hash: codeHash, used_at: null }, data: { used_at: now } });
    const row = await this.prisma.oAuthAuthorizationCode.findUnique({ where: { code_hash: codeHash } });
    return row && { record: codeOf(row), firstUse: count === 1 };
  }

  /** Saves the pair only while their connection is live, and drops the family's expired tokens. */
  async saveTokens(tokens: StoredToken[]): Promise<boolean> {
    const [{ grantId, userId, familyId, createdAt }] = tokens;
    return this.prisma.$transaction(async (tx) => {
      const live = await tx.mcpConnection.count({ where: { id: grantId, owner_id: userId, revoked_at: null } });
      if (live === 0) return false;
      await tx.oAuthToken.deleteMany({ where: { family_id: familyId, owner_id: userId, expires_at: { lte: createdAt } } });
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

  /** The access token with its connection's state and client, and its owner (what /api/v1/me shows). */
  findAccessToken(tokenHash: string): Promise<TokenRecord | null> {
    return this.prisma.oAuthToken.findFirst({
      where: { token_hash: tokenHash, kind: 'access' },
      include: {
        connection: { select: { revoked_at: true, client: { select: { id: true, name: true } } } },
        owner: { select: { id: true, email: true, username: true, preferred_workspace_id: true, created_at: true, updated_at: true } },
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
      select: { connection_id: true, owner_id: true },
    });
    if (token.length)
      await this.prisma.mcpConnection.updateMany({ where: { id: token[0].connection_id, owner_id: token[0].owner_id }, data: { last_used_at: at } });
  }
}

/** The shared mechanism's `workspaceId` carries the grant's owner here: a forms grant names no workspace. */
const holderOf = (row: { owner_id: string }) => ({ userId: row.owner_id, workspaceId: row.owner_id });
const codeOf = (row: OAuthAuthorizationCode): StoredAuthorizationCode => storedCodeOf(row, holderOf(row));
const tokenOf = (row: OAuthToken): StoredToken => storedTokenOf(row, holderOf(row));
const rowOf = (token: StoredToken) => ({ ...oauthTokenColumns(token), owner_id: token.userId });
