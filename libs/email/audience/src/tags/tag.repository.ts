import { Injectable } from '@nestjs/common';
import { EmailPrisma, Prisma, Tag } from '@email/data-access';
import { KeysetPage, keysetWhere } from '@shared/pagination';
import { gdprPurposeOf } from './gdpr-tags';

export const tagKey = (name: string) => name.trim().toLowerCase();

@Injectable()
export class TagRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  list(workspaceId: string, page: KeysetPage, search?: string): Promise<Tag[]> {
    return this.prisma.tag.findMany({
      where: {
        workspace_id: workspaceId,
        ...(search ? { name: { contains: search, mode: 'insensitive' } } : {}),
        ...keysetWhere(page),
      },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
  }

  find(workspaceId: string, id: string): Promise<Tag | null> {
    return this.prisma.tag.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  create(workspaceId: string, data: { id: string; name: string; description: string | null }): Promise<Tag> {
    const name = data.name.trim();
    return this.prisma.tag.create({
      data: { ...data, name, name_key: tagKey(name), workspace_id: workspaceId, gdpr_consent_purpose: gdprPurposeOf(name) },
    });
  }

  update(workspaceId: string, id: string, data: { name?: string; description?: string | null }): Promise<Tag> {
    const name = data.name?.trim();
    return this.prisma.tag.update({
      where: { id, workspace_id: workspaceId },
      data: { ...data, ...(name ? { name, name_key: tagKey(name), gdpr_consent_purpose: gdprPurposeOf(name) } : {}) },
    });
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.tag.deleteMany({ where: { workspace_id: workspaceId, id } });
    return count === 1;
  }

  /** Ids of the given tags that exist in the workspace. */
  async existing(tx: Prisma.TransactionClient, workspaceId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await tx.tag.findMany({ where: { workspace_id: workspaceId, id: { in: ids } }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }

  /** Finds tags by name (any case), creating the missing ones, in one statement; safe under concurrent callers. */
  async findOrCreateByNames(tx: Prisma.TransactionClient, workspaceId: string, names: string[], newId: () => string): Promise<string[]> {
    const unique = new Map<string, string>();
    for (const name of names) if (!unique.has(tagKey(name))) unique.set(tagKey(name), name.trim());
    if (!unique.size) return [];
    const keys = [...unique.keys()];
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      WITH wanted (id, name, name_key, purpose) AS (
        SELECT * FROM unnest(${keys.map(() => newId())}::text[], ${[...unique.values()]}::text[], ${keys}::text[],
                             ${keys.map((key) => gdprPurposeOf(key))}::"GdprConsentPurpose"[])
      ), created AS (
        INSERT INTO tags (id, workspace_id, name, name_key, gdpr_consent_purpose, created_at, updated_at)
        SELECT id, ${workspaceId}, name, name_key, purpose, now(), now() FROM wanted
        ON CONFLICT (workspace_id, name_key) DO NOTHING RETURNING id, name_key
      )
      SELECT id FROM created
      UNION ALL
      SELECT t.id FROM tags t WHERE t.workspace_id = ${workspaceId} AND t.name_key = ANY(${keys}::text[])
        AND t.name_key NOT IN (SELECT name_key FROM created)`;
    return rows.map((r) => r.id);
  }
}
