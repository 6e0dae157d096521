import { SEQUENCE_OPERATORS, TAG_OPERATORS } from './membership';
import { EmailErrors } from '@email/contracts';

export const AUDIENCE_MATCHES = ['all', 'any'] as const;
export const AUDIENCE_FIELDS = [
  'subscriber_status',
  'country',
  'segment',
  'tag',
  'sequence',
  'form',
  'custom_field',
  'email_opened',
  'email_unsubscribed',
  'magic_link_clicked',
] as const;
/** The contract's operator enum; the tag and sequence ones are those the subscriber list filters use too. */
export const AUDIENCE_OPERATORS = [
  'is',
  'is_not',
  ...TAG_OPERATORS,
  ...SEQUENCE_OPERATORS,
  'contains',
  'does_not_contain',
  'is_empty',
  'is_not_empty',
  'before',
  'after',
  'on',
  'in_last_days',
  'greater_than',
  'less_than',
  'in_region',
  'not_in_region',
] as const;

export type AudienceMatch = (typeof AUDIENCE_MATCHES)[number];
export type AudienceField = (typeof AUDIENCE_FIELDS)[number];
export type AudienceOperator = (typeof AUDIENCE_OPERATORS)[number];
export type AudienceValue = string | number | boolean | string[] | null;

export interface AudienceCondition {
  id: string;
  field: AudienceField;
  operator: AudienceOperator;
  value?: AudienceValue;
  customFieldId?: string | null;
}

export interface AudienceConditionGroup {
  id: string;
  match: AudienceMatch;
  conditions: AudienceCondition[];
}

export interface AudienceDefinition {
  match: AudienceMatch;
  groups: AudienceConditionGroup[];
}

/** Bounds on one definition, so a single request cannot make the compiled statement arbitrarily large. */
export const AUDIENCE_LIMITS = { groups: 20, conditionsPerGroup: 20, valuesPerCondition: 1000, valueLength: 1000 } as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (path: string, why: string) => EmailErrors.invalid('validation_failed', `${path} ${why}.`, path);

function object(value: unknown, path: string, keys: readonly string[], required: readonly string[]): Json {
  if (!isObject(value)) throw invalid(path, 'must be an object');
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) throw invalid(`${path}.${unknown}`, 'is not a property of this object');
  const missing = required.find((key) => value[key] === undefined);
  if (missing !== undefined) throw invalid(`${path}.${missing}`, 'is required');
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) throw invalid(path, `must be one of: ${allowed.join(', ')}`);
  return value as T;
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) throw invalid(path, 'must be a non-empty string');
  return value;
}

const tooLong = (text: string) => text.length > AUDIENCE_LIMITS.valueLength;

function conditionValue(value: unknown, path: string): AudienceValue | undefined {
  if (typeof value === 'string' && tooLong(value)) throw invalid(path, `must be at most ${AUDIENCE_LIMITS.valueLength} characters`);
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value) && value.length > AUDIENCE_LIMITS.valuesPerCondition)
    throw invalid(path, `must list at most ${AUDIENCE_LIMITS.valuesPerCondition} values`);
  if (Array.isArray(value) && value.every((item): item is string => typeof item === 'string' && !tooLong(item))) return value;
  throw invalid(path, `must be a string, a finite number, a boolean, an array of strings (each at most ${AUDIENCE_LIMITS.valueLength} characters) or null`);
}

/**
 * Fields whose values the compiler reads as a list of ids or codes, each trimmed: they are stored trimmed too, so what
 * is stored is what is evaluated, and the checks before deleting a tag or segment find every condition naming it.
 */
const ID_LIST_FIELDS: readonly AudienceField[] = ['subscriber_status', 'country', 'segment', 'tag', 'sequence', 'form'];

const trimmed = (value: AudienceValue): AudienceValue =>
  typeof value === 'string' ? value.trim() : Array.isArray(value) ? value.map((item) => item.trim()) : value;

function parseCondition(input: unknown, path: string): AudienceCondition {
  const raw = object(input, path, ['id', 'field', 'operator', 'value', 'customFieldId'], ['id', 'field', 'operator']);
  const customFieldId = raw.customFieldId;
  if (customFieldId !== undefined && customFieldId !== null && typeof customFieldId !== 'string')
    throw invalid(`${path}.customFieldId`, 'must be a string or null');
  const condition: AudienceCondition = {
    id: text(raw.id, `${path}.id`),
    field: oneOf(raw.field, AUDIENCE_FIELDS, `${path}.field`),
    operator: oneOf(raw.operator, AUDIENCE_OPERATORS, `${path}.operator`),
  };
  const value = conditionValue(raw.value, `${path}.value`);
  if (value !== undefined) condition.value = ID_LIST_FIELDS.includes(condition.field) ? trimmed(value) : value;
  if (customFieldId !== undefined) condition.customFieldId = customFieldId;
  return condition;
}

function parseGroup(input: unknown, path: string): AudienceConditionGroup {
  const raw = object(input, path, ['id', 'match', 'conditions'], ['id', 'match', 'conditions']);
  if (!Array.isArray(raw.conditions) || raw.conditions.length === 0) throw invalid(`${path}.conditions`, 'must be an array with at least one condition');
  if (raw.conditions.length > AUDIENCE_LIMITS.conditionsPerGroup)
    throw invalid(`${path}.conditions`, `must have at most ${AUDIENCE_LIMITS.conditionsPerGroup} conditions`);
  return {
    id: text(raw.id, `${path}.id`),
    match: oneOf(raw.match, AUDIENCE_MATCHES, `${path}.match`),
    conditions: raw.conditions.map((condition, index) => parseCondition(condition, `${path}.conditions[${index}]`)),
  };
}

/**
 * The contract's structural rules for an AudienceDefinition (closed objects, enums, at least one condition per
 * group), as 400 `validation_failed` naming the path. Whether an operator suits its field is checked when compiling.
 */
export function parseAudienceDefinition(input: unknown, path = 'definition'): AudienceDefinition {
  const raw = object(input, path, ['match', 'groups'], ['match', 'groups']);
  if (!Array.isArray(raw.groups)) throw invalid(`${path}.groups`, 'must be an array');
  if (raw.groups.length > AUDIENCE_LIMITS.groups) throw invalid(`${path}.groups`, `must have at most ${AUDIENCE_LIMITS.groups} groups`);
  return {
    match: oneOf(raw.match, AUDIENCE_MATCHES, `${path}.match`),
    groups: raw.groups.map((group, index) => parseGroup(group, `${path}.groups[${index}]`)),
  };
}
