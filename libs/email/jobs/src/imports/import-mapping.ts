import { EmailErrors } from '@email/contracts';
import {
  FieldDefinition,
  isBlank,
  normalizeFieldValue,
  subscriberEmail,
  subscriberName,
  subscriberStatus,
  SubscriberStatusName,
  toCountryCode,
} from '@email/audience';
import { DomainError, isStorableText, SharedErrors } from '@shared/errors';
import { SubscriberImportMappingDto } from './import.dto';

/** Where each subscriber field is read from in a record (column indexes), checked against the upload's headers. */
export interface CompiledMapping {
  email: { index: number; column: string };
  name?: { index: number; column: string };
  country?: { index: number; column: string };
  status?: { index: number; column: string };
  customFields: Array<{ index: number; column: string; definition: FieldDefinition }>;
}

/** One valid row: only the filled-in cells are set (a blank cell leaves the saved value as it is). */
export interface ImportRow {
  rowNumber: number;
  email: string;
  name?: string;
  country?: string;
  status?: SubscriberStatusName;
  customFields: Record<string, unknown>;
}

export interface Rejection {
  rowNumber: number;
  column: string | null;
  code: string;
  reason: string;
}

const mappingError = (index: number, message: string, suffix = '') =>
  EmailErrors.invalid('invalid_import_mapping', `mappings[${index}]: ${message}`, `mappings[${index}]${suffix}`);

/**
 * Checks `mappings` against the upload's headers and the workspace's custom fields: every column exists and is mapped
 * once, every field is mapped once (a custom field by its id), and one column is the email. A 400 names the mapping.
 */
export function compileMapping(mappings: SubscriberImportMappingDto[], headers: string[], definitions: Map<string, FieldDefinition>): CompiledMapping {
  const columns = new Set<string>();
  const fields = new Set<string>();
  const compiled: Partial<CompiledMapping> & { customFields: CompiledMapping['customFields'] } = { customFields: [] };
  mappings.forEach(({ csv_column: column, field }, i) => {
    const index = headers.indexOf(column);
    if (index < 0) throw mappingError(i, `the upload has no column named "${column}" (column names must match exactly).`, '.csv_column');
    if (columns.has(column)) throw mappingError(i, `the column "${column}" is mapped twice.`, '.csv_column');
    columns.add(column);
    if (field.type !== 'custom-field' && !isBlank(field.custom_field_id))
      throw mappingError(i, 'custom_field_id is only for a custom-field mapping.', '.field.custom_field_id');
    const key = field.type === 'custom-field' ? `custom-field:${field.custom_field_id ?? ''}` : field.type;
    if (fields.has(key))
      throw mappingError(
        i,
        `two columns are mapped to the ${field.type === 'custom-field' ? `custom field ${field.custom_field_id}` : `${field.type} field`}.`,
        '.field',
      );
    fields.add(key);
    const at = { index, column };
    if (field.type === 'email') compiled.email = at;
    else if (field.type === 'name') compiled.name = at;
    else if (field.type === 'country') compiled.country = at;
    else if (field.type === 'subscriber-status') compiled.status = at;
    else {
      if (isBlank(field.custom_field_id)) throw mappingError(i, 'a custom-field mapping needs custom_field_id.', '.field.custom_field_id');
      const definition = definitions.get(field.custom_field_id!);
      if (!definition) throw mappingError(i, `"${field.custom_field_id}" is not a custom field of this workspace.`, '.field.custom_field_id');
      compiled.customFields.push({ ...at, definition });
    }
  });
  if (!compiled.email) throw EmailErrors.invalid('invalid_import_mapping', 'mappings must map one column to the email field.', 'mappings');
  return compiled as CompiledMapping;
}

/** The custom field ids a request's mappings name, to look their definitions up. */
export const mappedCustomFieldIds = (mappings: SubscriberImportMappingDto[]): string[] =>
  mappings.flatMap(({ field }) => (field.type === 'custom-field' && field.custom_field_id ? [field.custom_field_id] : []));

/**
 * One record checked with the upsert's rules (the same functions): a valid email, a name of at most 255 characters, a
 * country name or code, a status, custom field values of their field's type, and no cell the database cannot store
 * (the upsert refuses those as `invalid_characters`). The first bad cell rejects the row.
 */
export function readRow(record: string[], rowNumber: number, mapping: CompiledMapping): ImportRow | Rejection {
  let column: string | null = mapping.email.column;
  const cell = (index: number) => {
    const text = record[index] ?? '';
    if (!isStorableText(text)) throw SharedErrors.fail('invalid_characters', UNSTORABLE_CELL);
    return text;
  };
  try {
    const email = cell(mapping.email.index);
    if (isBlank(email)) return { rowNumber, column, code: 'invalid_email', reason: 'The email cell is empty.' };
    const row: ImportRow = { rowNumber, email: subscriberEmail(email, column), customFields: {} };
    for (const [key, read] of [
      ['name', subscriberName],
      ['country', toCountryCode],
      ['status', subscriberStatus],
    ] as const) {
      const at = mapping[key];
      if (!at) continue;
      column = at.column;
      const text = cell(at.index);
      if (!isBlank(text)) (row as unknown as Record<string, unknown>)[key] = read(text, at.column);
    }
    for (const field of mapping.customFields) {
      column = field.column;
      const text = cell(field.index);
      if (!isBlank(text)) row.customFields[field.definition.id] = normalizeFieldValue(field.definition, text, field.column);
    }
    return row;
  } catch (error) {
    if (error instanceof DomainError) return { rowNumber, column, code: error.code, reason: error.message };
    throw error;
  }
}

const UNSTORABLE_CELL = 'The cell holds a NUL character or a broken (unpaired surrogate) character, which cannot be stored.';

export const isRejection = (result: ImportRow | Rejection): result is Rejection => 'code' in result;
