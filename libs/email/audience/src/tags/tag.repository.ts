import { Injectable } from '@nestjs/common';
import { EmailPrisma, Prisma, Tag } from '@email/data-access';
import { WorkspaceId, likeLiteral } from '@shared/core';
import { isRecordGone, isUniqueViolation } from '@shared/errors';
import { KeysetPage, keysetWhere } from '@shared/pagination';
import { EmailErrors } from '@email/contracts';
import { SqlTransaction } from '../common/sql-transaction';
import { gdprPurposeOf } from './gdpr-tags';
import { shardDeltas, TagWithShards, withExactCount } from './tag-counts';

export const tagKey = (name: string) => name.trim().toLowerCase();

/** The unique (workspace_id, name_key) index is the only name check, so concurrent writers cannot both pass it. */
function nameTakenOn(error: unknown): never {
  throw isUniqueViolation(error, 'name_key') ? EmailErrors.fail('tag_name_taken', 'Another tag already has this name.', { details: { field: 'name' } }) : error;
}

@Injectable()
export class TagRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  /** Tags read here carry their exact subscriber_count (the row's base plus its count shards, read together). */
  async list(workspaceId: WorkspaceId, page: KeysetPage, search?: string): Promise<Tag[]> {
    const tags: TagWithShards[] = await this.prisma.tag.findMany({
      where: {
        workspace_id: workspaceId,
        ...(search ? { name: { contains: likeLiteral(search), mode: 'insensitive' } } : {}),
        ...keysetWhere(page),
      },
      include: { count_shards: shardDeltas(workspaceId) },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
    return tags.map(withExactCount);
  }

  async find(workspaceId: WorkspaceId, id: string): Promise<Tag | null> {
    const tag: TagWithShards | null = await this.prisma.tag.findFirst({
      where: { workspace_id: workspaceId, id },
      include: { count_shards: shardDeltas(workspaceId) },
    });
    return tag && withExactCount(tag);
  }

  /** Creates the tag; a name another tag has (in any case) fails on the unique (workspace_id, name_key). */
  create(workspaceId: WorkspaceId, data: { id: string; name: string; description: string | null }): Promise<Tag> {
    const name = data.name.trim();
    return this.prisma.tag
      .create({ data: { ...data, name, name_key: tagKey(name), workspace_id: workspaceId, gdpr_consent_purpose: gdprPurposeOf(name) } })
      .catch(nameTakenOn);
  }

  /** The updated tag, or null when the workspace has no such tag (or it was deleted meanwhile). */
  update(workspaceId: WorkspaceId, id: string, data: { name?: string; description?: string | null }): Promise<Tag | null> {
    const name = data.name?.trim();
    return this.prisma.tag
      .update({
        where: { id, workspace_id: workspaceId },
        data: { ...data, ...(name ? { name, name_key: tagKey(name), gdpr_consent_purpose: gdprPurposeOf(name) } : {}) },
        include: { count_shards: shardDeltas(workspaceId) },
      })
      .then(withExactCount)
      .catch((error: unknown) => (isRecordGone(error) ? null : nameTakenOn(error)));
  }

  async delete(workspaceId: WorkspaceId, id: string, db: Prisma.TransactionClient = this.prisma): Promise<boolean> {
    const { count } = await db.tag.deleteMany({ where: { workspace_id: workspaceId, id } });
    return count === 1;
  }

  /**
   * Ids of the given tags that exist in the workspace, key-share locked until commit: a concurrent tag delete
   * waits for this transaction instead of breaking its memberships (counter updates are not blocked).
   */
  async existing(workspaceId: WorkspaceId, tx: SqlTransaction, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM tags WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::text[]) ORDER BY id FOR KEY SHARE`;
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Finds tags by name (any case), creating the missing ones; safe under concurrent callers. The insert waits
   * for a concurrent creator of the same name and skips it; only the next statement, with a fresh snapshot under
   * READ COMMITTED, sees that creator's committed row (a single statement would read its older snapshot and miss
   * it). Names are inserted in key order so two callers naming the same new tags in other orders cannot deadlock.
   * A tag deleted between the two statements is created again on the next pass.
   */
  async findOrCreateByNames(workspaceId: WorkspaceId, tx: SqlTransaction, names: string[], newId: () => string, now: Date): Promise<string[]> {
    const wanted = new Map<string, string>();
    for (const name of names) if (!wanted.has(tagKey(name))) wanted.set(tagKey(name), name.trim());
    const keys = [...wanted.keys()].sort();
    const found = new Map<string, string>();
    for (let pass = 0; pass < 3 && found.size < keys.length; pass++) {
      const missing = keys.filter((key) => !found.has(key));
      await tx.$executeRaw`
        INSERT INTO tags (id, workspace_id, name, name_key, gdpr_consent_purpose, created_at, updated_at)
        SELECT id, ${workspaceId}, name, name_key, purpose, ${now}, ${now}
        FROM unnest(${missing.map(() => newId())}::text[], ${missing.map((key) => wanted.get(key)!)}::text[], ${missing}::text[],
                    ${missing.map((key) => gdprPurposeOf(key))}::"GdprConsentPurpose"[]) AS wanted (id, name, name_key, purpose)
        ORDER BY name_key
        ON CONFLICT (workspace_id, name_key) DO NOTHING`;
      const rows = await tx.$queryRaw<Array<{ id: string; name_key: string }>>`
        SELECT id, name_key FROM tags WHERE workspace_id = ${workspaceId} AND name_key = ANY(${missing}::text[]) ORDER BY id FOR KEY SHARE`;
      for (const row of rows) found.set(row.name_key, row.id);
    }
    if (found.size < keys.length)
      throw EmailErrors.fail('tag_deleted', 'A tag named in new_tags was deleted while it was being attached; retry.', { details: { field: 'new_tags' } });
    return keys.map((key) => found.get(key)!);
  }
}
