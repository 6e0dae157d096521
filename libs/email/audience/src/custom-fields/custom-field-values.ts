import { EmailErrors } from '@email/contracts';
import { isBlank } from '../common/blank';
import { parseCalendarDate } from '../common/dates';
import { CustomFieldTypeName } from './custom-field-types';

export interface FieldDefinition {
  id: string;
  type: CustomFieldTypeName;
  options: string[];
}

const TEXT_MAX = 255;
const TEXT_AREA_MAX = 10_000;

/**
 * Checks one filled-in value against its field and returns the value to store:
 * Number → number, Date → "YYYY-MM-DD", Multi Select → array of option names, Checkbox → boolean.
 * Blank values never reach here (they leave the saved value unchanged).
 */
export function normalizeFieldValue(field: FieldDefinition, value: unknown, path: string): unknown {
  const invalid = (why: string) => EmailErrors.invalid('invalid_custom_field_value', `${path} ${why}.`, path);
  switch (field.type) {
    case 'Text':
    case 'Text Area': {
      if (typeof value !== 'string' && typeof value !== 'number') throw invalid('must be text');
      const text = String(value);
      const max = field.type === 'Text' ? TEXT_MAX : TEXT_AREA_MAX;
      if (text.length > max) throw invalid(`must be at most ${max} characters`);
      return text;
    }
    case 'Number': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
      if (!Number.isFinite(number)) throw invalid('must be a number');
      return number;
    }
    case 'Date': {
      if (typeof value !== 'string') throw invalid('must be a date in YYYY-MM-DD form');
      parseCalendarDate(value.trim(), path);
      return value.trim();
    }
    case 'Select (Dropdown)':
    case 'Single Select': {
      if (typeof value !== 'string' || !field.options.includes(value.trim())) throw invalid(`must be one of: ${field.options.join(', ')}`);
      return value.trim();
    }
    case 'Multi Select': {
      const names = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
      if (!names || names.some((n) => typeof n !== 'string')) throw invalid('must be an array of option names or a comma-separated string');
      const chosen = [...new Set((names as string[]).map((n) => n.trim()).filter(Boolean))];
      const unknown = chosen.filter((n) => !field.options.includes(n));
      if (unknown.length) throw invalid(`has unknown option(s): ${unknown.join(', ')}`);
      return chosen;
    }
    case 'Checkbox': {
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw invalid('must be true or false');
    }
  }
}

/**
 * Validates a `custom_fields` object keyed by field id against the workspace's fields.
 * Blank values are dropped (saved values stay); unknown ids and invalid values are 400s naming the key.
 */
export function normalizeCustomFields(input: Record<string, unknown>, fields: Map<string, FieldDefinition>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(input)) {
    const path = `custom_fields.${id}`;
    const field = fields.get(id);
    if (!field) throw EmailErrors.invalid('unknown_custom_field', `${path} is not a custom field of this workspace.`, path);
    if (isBlank(value)) continue;
    out[id] = normalizeFieldValue(field, value, path);
  }
  return out;
}
