import { Injectable } from '@nestjs/common';
import { CustomField, CustomFieldType, EmailPrisma, Prisma } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { WorkspaceId, likeLiteral } from '@shared/core';
import { isRecordGone, isUniqueViolation } from '@shared/errors';
import { KeysetPage, keysetWhere } from '@shared/pagination';
import type { SqlTransaction } from '../common/sql-transaction';
import { CustomFieldTypeName, toApiType } from './custom-field-types';
import type { FieldDefinition } from './custom-field-values';
import { tokenIdentity } from './personalization-token';

/** Labels are unique per workspace by the token they give (see tokenIdentity). */
const labelKey = tokenIdentity;

/** The unique (workspace_id, label_key) index is the only label check, so concurrent writers cannot both pass it. */
function labelTakenOn(error: unknown): never {
  throw isUniqueViolation(error, 'label_key')
    ? EmailErrors.fail('custom_field_label_taken', 'Another custom field already has this label, or one that gives the same personalization token.', {
        details: { field: 'label' },
      })
    : error;
}

@Injectable()
export class CustomFieldRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  list(workspaceId: WorkspaceId, page: KeysetPage, search?: string): Promise<CustomField[]> {
    return this.prisma.customField.findMany({
      where: {
        workspace_id: workspaceId,
        ...(search ? { label: { contains: likeLiteral(search), mode: 'insensitive' } } : {}),
        ...keysetWhere(page),
      },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
  }

  find(workspaceId: WorkspaceId, id: string, db: Prisma.TransactionClient = this.prisma): Promise<CustomField | null> {
    return db.customField.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  /**
   * The workspace's fields among the ids, as a subscriber write validates values against them, held in key-share mode
   * until the write commits: a type change (see update) waits for the write, and a write that comes after it sees the
   * new type. The stored enum labels are the API's names.
   */
  definitions(workspaceId: WorkspaceId, tx: SqlTransaction, ids: string[]): Promise<FieldDefinition[]> {
    return tx.$queryRaw<FieldDefinition[]>`
      SELECT id, type::text AS type, options FROM custom_fields WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::text[]) FOR KEY SHARE`;
  }

  /** Creates the field; a label whose token another field's label gives fails on the unique (workspace_id, label_key). */
  create(workspaceId: WorkspaceId, data: { id: string; label: string; type: CustomFieldType; options: string[] }): Promise<CustomField> {
    return this.prisma.customField.create({ data: { ...data, label_key: labelKey(data.label), workspace_id: workspaceId } }).catch(labelTakenOn);
  }

  /**
   * The updated field; null when the workspace has no such field (or it was deleted meanwhile); `in_use` when the type
   * would change while subscribers hold values. Under the field's row lock, which subscriber writes wait for (see
   * definitions), so no value of the old type lands between the check and the change. Inside `db` when given (a
   * type change runs in the transaction holding the workspace's segment lock, see CustomFieldService.update).
   */
  update(
    workspaceId: WorkspaceId,
    id: string,
    data: { label?: string; type?: CustomFieldType; options?: string[] },
    db?: Prisma.TransactionClient,
  ): Promise<CustomField | 'in_use' | null> {
    const key = data.label === undefined ? {} : { label_key: labelKey(data.label) };
    const work = async (tx: Prisma.TransactionClient) => {
      const [locked] = await tx.$queryRaw<Array<{ type: CustomFieldTypeName }>>`
        SELECT type::text AS type FROM custom_fields WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`;
      if (!locked) return null;
      if (data.type !== undefined && toApiType(data.type) !== locked.type && (await this.inUse(workspaceId, id, tx))) return 'in_use';
      return tx.customField.update({ where: { id, workspace_id: workspaceId }, data: { ...data, ...key } });
    };
    return (db ? work(db) : this.prisma.$transaction(work)).catch((error: unknown) => (isRecordGone(error) ? null : labelTakenOn(error)));
  }

  /** Whether any subscriber holds a value for this field (a type change would invalidate it). */
  async inUse(workspaceId: WorkspaceId, id: string, db: Prisma.TransactionClient = this.prisma): Promise<boolean> {
    const rows = await db.$queryRaw<unknown[]>`SELECT 1 FROM subscribers WHERE workspace_id = ${workspaceId} AND custom_fields ? ${id} LIMIT 1`;
    return rows.length > 0;
  }

  /** Deletes the field and strips its values from every subscriber, atomically. */
  /** Deletes the field and its values, inside the caller's transaction (see CustomFieldService.delete). */
  async delete(workspaceId: WorkspaceId, id: string, tx: Prisma.TransactionClient): Promise<boolean> {
    const { count } = await tx.customField.deleteMany({ where: { workspace_id: workspaceId, id } });
    if (count) await tx.$executeRaw`UPDATE subscribers SET custom_fields = custom_fields - ${id} WHERE workspace_id = ${workspaceId} AND custom_fields ? ${id}`;
    return count === 1;
  }
}
