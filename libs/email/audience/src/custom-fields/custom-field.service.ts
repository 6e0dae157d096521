import { Injectable } from '@nestjs/common';
import { CustomField, Prisma } from '@email/data-access';
import { IdGenerator, WorkspaceId } from '@shared/core';
import { CursorCodec, Page, keysetList } from '@shared/pagination';
import { EmailErrors } from '@email/contracts';
import { AudienceReferences, AudienceUse, describeUses, SegmentRepository } from '@email/audience-engine';
import { CustomFieldDto, CustomFieldUpdateRequestDto, CustomFieldUpsertRequestDto } from './custom-field.dto';
import { CustomFieldRepository } from './custom-field.repository';
import { CHOICE_TYPES, CustomFieldTypeName, toApiType, toDbType } from './custom-field-types';
import type { SqlTransaction } from '../common/sql-transaction';
import { FieldDefinition } from './custom-field-values';
import { BUILT_IN_TOKEN_IDENTITIES, personalizationToken, tokenIdentity } from './personalization-token';

export function toCustomFieldDto(field: CustomField): CustomFieldDto {
  return {
    self: `/v1/custom-fields/${field.id}`,
    id: field.id,
    label: field.label,
    type: toApiType(field.type),
    settings: { options: [...field.options] },
    personalization_token: personalizationToken(field.label),
    created_at: field.created_at.toISOString(),
    updated_at: field.updated_at.toISOString(),
  };
}

@Injectable()
export class CustomFieldService {
  constructor(
    private readonly repository: CustomFieldRepository,
    private readonly segments: SegmentRepository,
    private readonly references: AudienceReferences,
    private readonly ids: IdGenerator,
    private readonly cursors: CursorCodec,
  ) {}

  async list(workspaceId: WorkspaceId, query: { limit?: string; starting_after?: string; search?: string }): Promise<Page<CustomFieldDto>> {
    const search = query.search?.trim() || undefined;
    return keysetList(this.cursors, `${workspaceId}:custom_fields`, query, (page) => this.repository.list(workspaceId, page, search), toCustomFieldDto);
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<CustomFieldDto> {
    return toCustomFieldDto(await this.require(workspaceId, id));
  }

  async create(workspaceId: WorkspaceId, input: CustomFieldUpsertRequestDto): Promise<CustomFieldDto> {
    const label = checkedLabel(input.label);
    const options = checkedOptions(input.type, input.settings?.options ?? []);
    return toCustomFieldDto(await this.repository.create(workspaceId, { id: this.ids.newId('cf'), label, type: toDbType(input.type), options }));
  }

  async update(workspaceId: WorkspaceId, id: string, input: CustomFieldUpdateRequestDto): Promise<CustomFieldDto> {
    if (input.label === undefined && input.type === undefined && input.settings === undefined) {
      throw EmailErrors.invalid('empty_update', 'Send at least one of label, type or settings.', 'body');
    }
    const current = await this.require(workspaceId, id);
    const type = input.type ?? toApiType(current.type);
    const options = checkedOptions(type, input.settings?.options ?? current.options);
    const label = input.label === undefined ? undefined : checkedLabel(input.label);
    // The type is written only when sent, so a label or options change cannot undo a type change made meanwhile.
    const data = { label, type: input.type === undefined ? undefined : toDbType(type), options };
    const write = (tx?: Prisma.TransactionClient) => this.repository.update(workspaceId, id, data, tx);
    // A segment or broadcast condition on the field was written for its type (operators, values): changing the type
    // would break it, so like a delete it is refused while one names the field. Every write that names a type runs
    // under the workspace's segment lock, so neither a segment nor another type change can slip in between.
    const field =
      input.type === undefined
        ? await write()
        : await this.segments.locked(workspaceId, async (tx) => {
            const stored = await this.repository.find(workspaceId, id, tx);
            const uses = stored && toApiType(stored.type) !== type ? await this.references.referencing(tx, workspaceId, { customFieldId: id }) : [];
            if (uses.length) throw fieldInUse(uses, 'its type cannot change', { field: 'type' });
            return write(tx);
          });
    if (field === 'in_use') {
      throw EmailErrors.fail('custom_field_in_use', 'Subscribers hold values for this field; its type cannot change.', { details: { field: 'type' } });
    }
    if (!field) throw EmailErrors.notFound('custom_field', id);
    return toCustomFieldDto(field);
  }

  /**
   * Refused while a segment or a broadcast has a condition on the field (it would stop compiling). Under the workspace's segment
   * lock, so no segment can start naming the field between the check and the delete.
   */
  async delete(workspaceId: WorkspaceId, id: string): Promise<void> {
    const deleted = await this.segments.locked(workspaceId, async (tx) => {
      const uses = await this.references.referencing(tx, workspaceId, { customFieldId: id });
      if (uses.length) throw fieldInUse(uses, 'it cannot be deleted');
      return this.repository.delete(workspaceId, id, tx);
    });
    if (!deleted) throw EmailErrors.notFound('custom_field', id);
  }

  /** The workspace's definitions for the given ids, for validating subscriber values, held until `tx` ends (a type change waits). */
  async definitions(workspaceId: WorkspaceId, tx: SqlTransaction, ids: string[]): Promise<Map<string, FieldDefinition>> {
    if (!ids.length) return new Map();
    const fields = await this.repository.definitions(workspaceId, tx, ids);
    return new Map(fields.map((field) => [field.id, field]));
  }

  private async require(workspaceId: WorkspaceId, id: string): Promise<CustomField> {
    const field = await this.repository.find(workspaceId, id);
    if (!field) throw EmailErrors.notFound('custom_field', id);
    return field;
  }
}

/** 409 custom_field_in_use naming the segments and broadcasts whose conditions use the field. */
function fieldInUse(uses: AudienceUse[], consequence: string, details?: { field: string }) {
  const them = uses.length === 1 ? 'it' : 'them';
  return EmailErrors.fail('custom_field_in_use', `This field is used by a condition of ${describeUses(uses)}, so ${consequence}; change ${them} first.`, {
    details,
    extra: { used_by: uses },
  });
}

function checkedOptions(type: CustomFieldTypeName, options: string[]): string[] {
  const unique = [...new Set(options.map((o) => o.trim()).filter(Boolean))];
  if (CHOICE_TYPES.includes(type) && !unique.length) {
    throw EmailErrors.invalid('validation_failed', `A ${type} field needs at least one option.`, 'settings.options');
  }
  if (unique.some((o) => o.includes(',')) && type === 'Multi Select') {
    throw EmailErrors.invalid('validation_failed', 'Multi Select options cannot contain commas (values may be sent comma-separated).', 'settings.options');
  }
  return CHOICE_TYPES.includes(type) ? unique : [];
}

/** The trimmed label, refused when its personalization token would be empty or the subscriber's own name or email. */
function checkedLabel(label: string): string {
  const trimmed = label.trim();
  const identity = tokenIdentity(trimmed);
  if (!identity) throw EmailErrors.invalid('validation_failed', 'A label needs a letter or digit: its personalization token is made of them.', 'label');
  if (BUILT_IN_TOKEN_IDENTITIES.has(identity))
    throw EmailErrors.fail('custom_field_label_taken', `${personalizationToken(trimmed)} is the subscriber's own ${identity}; choose another label.`, {
      details: { field: 'label' },
    });
  return trimmed;
}
