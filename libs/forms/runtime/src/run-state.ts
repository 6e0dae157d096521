import type { AnswerValue, DraftSchema, HiddenField } from '@forms/draft-schema';
import { own } from './lookup';

export type VariableValue = number | string | null;

/** What a respondent's run carries besides the answers. */
export interface RunState {
  /** Workflow variables by variable id; null while a variable has no value. */
  variables: Record<string, VariableValue>;
  /** Hidden field values by field id; a field without a given or default value is absent. */
  hidden: Record<string, string | number>;
}

/** Answers by field id, as `coerceAnswer` normalizes them. */
export type Answers = Record<string, AnswerValue>;

export function createRunState(schema: DraftSchema, hiddenValues: Record<string, string | number>): RunState {
  const variables: Record<string, VariableValue> = {};
  for (const variable of schema.settings.hidden.variables) variables[variable.id] = variable.initialValue ?? null;
  const hidden: Record<string, string | number> = {};
  for (const field of hiddenFields(schema)) {
    const value = hiddenValue(field, own(hiddenValues, field.name)) ?? hiddenValue(field, field.defaultValue);
    if (value !== undefined) hidden[field.id] = value;
  }
  return { variables, hidden };
}

function hiddenFields(schema: DraftSchema): HiddenField[] {
  return schema.steps.flatMap((step) => step.fields).filter((field): field is HiddenField => field.type === 'hidden');
}

/** A given value in the field's data type; undefined when absent or not a number for a number field. */
function hiddenValue(field: HiddenField, value: string | number | undefined): string | number | undefined {
  if (value === undefined) return undefined;
  if (field.dataType === 'text') return String(value);
  const number = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
  return Number.isFinite(number) ? number : undefined;
}
