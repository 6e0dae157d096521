import { EmailErrors } from '@email/contracts';
import type { AudienceCondition } from './audience-definition';

export type ConditionErrorCode = 'invalid_audience_condition' | 'segment_reference_cycle' | 'segment_nesting_too_deep' | 'audience_definition_too_large';

/** A 400 naming the condition's id in the message and as the envelope's `condition_id`. */
export function conditionError(condition: AudienceCondition, why: string, code: ConditionErrorCode = 'invalid_audience_condition') {
  return EmailErrors.fail(code, `Condition "${condition.id}" (${condition.field} ${condition.operator}): ${why}.`, { extra: { condition_id: condition.id } });
}

/** A string or a non-empty array of strings, trimmed, blanks refused. */
export function stringList(condition: AudienceCondition): string[] {
  const { value } = condition;
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  const trimmed = items?.map((item) => item.trim());
  if (!trimmed?.length || trimmed.some((item) => item === '')) throw conditionError(condition, 'value must be a non-empty string or a non-empty array of them');
  return [...new Set(trimmed)];
}

export function singleString(condition: AudienceCondition): string {
  if (typeof condition.value !== 'string' || condition.value === '') throw conditionError(condition, 'value must be a non-empty string');
  return condition.value;
}

export function finiteNumber(condition: AudienceCondition): number {
  const { value } = condition;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw conditionError(condition, 'value must be a number');
  return value;
}

export function wholeDays(condition: AudienceCondition): number {
  const { value } = condition;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 36_500)
    throw conditionError(condition, 'value must be a whole number of days from 1 to 36500');
  return value;
}

export function calendarDay(condition: AudienceCondition): string {
  const { value } = condition;
  const parts = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  const valid = parts !== null && new Date(Date.UTC(+parts[1], +parts[2] - 1, +parts[3])).toISOString().slice(0, 10) === value;
  if (!valid) throw conditionError(condition, 'value must be a calendar date in YYYY-MM-DD form');
  return value;
}

export function flag(condition: AudienceCondition): boolean {
  if (typeof condition.value !== 'boolean') throw conditionError(condition, 'value must be true or false');
  return condition.value;
}
