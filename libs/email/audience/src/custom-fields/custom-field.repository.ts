import { Injectable } from '@nestjs/common';
import { CustomField, CustomFieldType, EmailPrisma } from '@email/data-access';
import { WorkspaceId } from '@shared/core';
import { KeysetPage, keysetWhere } from '@shared/pagination';

/** Labels are unique per workspace regardless of case. */
const labelKey = (label: string) => label.toLowerCase();

@Injectable()
export class CustomFieldRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  list(workspaceId: WorkspaceId, page: KeysetPage, search?: string): Promise<CustomField[]> {
    return this.prisma.customField.findMany({
      where: {
        workspace_id: workspaceId,
        ...(search ? { label: { contains: search, mode: 'insensitive' } } : {}),
        ...keysetWhere(page),
      },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
  }

  find(workspaceId: WorkspaceId, id: string): Promise<CustomField | null> {
    return this.prisma.customField.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  findMany(workspaceId: WorkspaceId, ids: string[]): Promise<CustomField[]> {
    return this.prisma.customField.findMany({ where: { workspace_id: workspaceId, id: { in: ids } } });
  }

  /** Creates the field; a label another field has (in any case) fails on the unique (workspace_id, label_key). */
  create(workspaceId: WorkspaceId, data: { id: string; label: string; type: CustomFieldType; options: string[] }): Promise<CustomField> {
    return this.prisma.customField.create({ data: { ...data, label_key: labelKey(data.label), workspace_id: workspaceId } });
  }

  update(workspaceId: WorkspaceId, id: string, data: { label?: string; type?: CustomFieldType; options?: string[] }): Promise<CustomField> {
    const key = data.label === undefined ? {} : { label_key: labelKey(data.label) };
    return this.prisma.customField.update({ where: { id, workspace_id: workspaceId }, data: { ...data, ...key } });
  }

  /** Whether any subscriber holds a value for this field (a type change would invalidate it). */
  async inUse(workspaceId: WorkspaceId, id: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<unknown[]>`SELECT 1 FROM subscribers WHERE workspace_id = ${workspaceId} AND custom_fields ? ${id} LIMIT 1`;
    return rows.length > 0;
  }

  /** Deletes the field and strips its values from every subscriber, atomically. */
  async delete(workspaceId: WorkspaceId, id: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.customField.deleteMany({ where: { workspace_id: workspaceId, id } });
      if (count) await tx.$executeRaw`UPDATE subscribers SET custom_fields = custom_fields - ${id} WHERE workspace_id = ${workspaceId} AND custom_fields ? ${id}`;
      return count === 1;
    });
  }
}
