import type { ConditionOperator, Field, Operand } from './model';
import type { FormIndex } from './form-index';

/** What kind of value an answer, variable or score is, as far as conditions and workflow math care. */
export type ValueKind = 'number' | 'text' | 'choice' | 'list' | 'boolean' | 'date' | 'time' | 'presence';

/** The kind of a field's answer; undefined for fields that take none (statement, payment). */
export function fieldValueKind(field: Field): ValueKind | undefined {
  switch (field.type) {
    case 'number':
    case 'rating':
    case 'opinion_scale':
    case 'nps':
      return 'number';
    case 'text':
    case 'long_text':
    case 'email':
    case 'phone':
    case 'url':
      return 'text';
    case 'single_choice':
    case 'dropdown':
      return 'choice';
    case 'multiple_choice':
    case 'ranking':
      return 'list';
    case 'checkbox':
      return 'boolean';
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    case 'file_upload':
    case 'signature':
      return 'presence';
    case 'hidden':
      return field.dataType === 'number' ? 'number' : 'text';
    case 'statement':
    case 'payment':
      return undefined;
  }
}

/** The kind an operand resolves to, or undefined when its reference is missing or has no value. */
export function operandKind(operand: Operand, index: FormIndex): ValueKind | undefined {
  switch (operand.type) {
    case 'field': {
      const entry = index.fields.get(operand.fieldId);
      return entry && fieldValueKind(entry.field);
    }
    case 'variable':
      return index.variables.get(operand.variableId)?.type;
    case 'score':
      return index.hasScore ? 'number' : undefined;
    case 'number':
      return 'number';
    case 'text':
      return 'text';
  }
}

const ORDERED: readonly ConditionOperator[] = [
  'equals',
  'not_equals',
  'greater_than',
  'greater_or_equal',
  'less_than',
  'less_or_equal',
  'is_empty',
  'is_not_empty',
];

/** Operators that make sense for each kind of subject. */
export const OPERATORS_BY_KIND: Readonly<Record<ValueKind, readonly ConditionOperator[]>> = {
  number: ORDERED,
  date: ORDERED,
  time: ORDERED,
  text: ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty'],
  choice: ['equals', 'not_equals', 'is_empty', 'is_not_empty'],
  list: ['includes_any', 'includes_all', 'includes_none', 'is_empty', 'is_not_empty'],
  boolean: ['equals', 'not_equals'],
  presence: ['is_empty', 'is_not_empty'],
};
