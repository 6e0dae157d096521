import { isAnswered, type AnswerValue, type Condition, type ConditionOperator, type WorkflowRule } from '@forms/draft-schema';
import { readOperand, variableType, type RunContext } from './operands';

/*
 * Condition semantics (docs/decisions.md, "Hosted forms"):
 * - Text compares are case-insensitive and ignore surrounding spaces; file answers compare by file name.
 * - Numbers compare numerically (numeric strings count as numbers); dates (YYYY-MM-DD) and times (HH:MM)
 *   compare in calendar order; anything else makes an ordering operator false.
 * - List answers (multiple choice, ranking): equals compares as sets (a single right-hand value is a one-item set),
 *   contains / starts_with / ends_with hold when any item does, includes_* test membership.
 * - An unanswered field holds only for is_empty and the negative operators (not_equals, not_contains, includes_none).
 * - A number variable without a value reads as 0 and a text variable as '', except for is_empty / is_not_empty.
 */

type Value = AnswerValue | null | undefined;
type RightValue = Condition['value'];
type PositiveOperator = Exclude<ConditionOperator, 'not_equals' | 'not_contains' | 'includes_none' | 'is_empty' | 'is_not_empty'>;

const NEGATED: Partial<Record<ConditionOperator, PositiveOperator>> = {
  not_equals: 'equals',
  not_contains: 'contains',
  includes_none: 'includes_any',
};

export function ruleHolds(context: RunContext, rule: WorkflowRule): boolean {
  if (rule.conditions.length === 0) return true;
  const holds = (condition: Condition) => conditionHolds(context, condition);
  return rule.match === 'any' ? rule.conditions.some(holds) : rule.conditions.every(holds);
}

export function conditionHolds(context: RunContext, condition: Condition): boolean {
  const value = readOperand(context, condition.subject);
  if (condition.operator === 'is_empty') return isEmpty(value);
  if (condition.operator === 'is_not_empty') return !isEmpty(value);
  const left = value ?? emptyVariableValue(context, condition.subject);
  const negated = NEGATED[condition.operator];
  if (left === undefined) return negated !== undefined;
  return negated ? !compare(negated, left, condition.value) : compare(condition.operator as PositiveOperator, left, condition.value);
}

/** No answer, a blank text, an empty list, or an unchecked checkbox. */
export function isEmpty(value: Value): boolean {
  return value === false || !isAnswered(value);
}

function emptyVariableValue(context: RunContext, subject: Condition['subject']): number | string | undefined {
  if (subject.type !== 'variable') return undefined;
  return variableType(context.schema, subject.variableId) === 'number' ? 0 : '';
}

function compare(operator: PositiveOperator, left: AnswerValue, right: RightValue): boolean {
  switch (operator) {
    case 'equals':
      return equals(left, right);
    case 'contains':
      return texts(left).some((text) => text.includes(rightText(right)));
    case 'starts_with':
      return texts(left).some((text) => text.startsWith(rightText(right)));
    case 'ends_with':
      return texts(left).some((text) => text.endsWith(rightText(right)));
    case 'greater_than':
      return (order(left, right) ?? NaN) > 0;
    case 'greater_or_equal':
      return (order(left, right) ?? NaN) >= 0;
    case 'less_than':
      return (order(left, right) ?? NaN) < 0;
    case 'less_or_equal':
      return (order(left, right) ?? NaN) <= 0;
    case 'includes_any':
      return rightTexts(right).some((item) => texts(left).includes(item));
    case 'includes_all':
      return rightTexts(right).every((item) => texts(left).includes(item));
  }
}

function equals(left: AnswerValue, right: RightValue): boolean {
  if (typeof left === 'number') return left === toNumber(right);
  if (typeof left === 'boolean') return String(left) === rightText(right);
  const a = new Set(texts(left));
  const b = new Set(rightTexts(right));
  return a.size === b.size && [...a].every((item) => b.has(item));
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;

/** Negative, zero or positive like a comparator; null when the two values have no common order. */
function order(left: AnswerValue, right: RightValue): number | null {
  const a = toNumber(left);
  const b = toNumber(right);
  if (a !== null && b !== null) return a - b;
  if (typeof left !== 'string' || typeof right !== 'string') return null;
  const [l, r] = [left.trim(), right.trim()];
  if (!(DATE.test(l) && DATE.test(r)) && !(TIME.test(l) && TIME.test(r))) return null;
  return l < r ? -1 : l > r ? 1 : 0;
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : null;
}

const normalize = (text: string) => text.trim().toLowerCase();

/** A value as a list of comparable texts. */
function texts(value: AnswerValue): string[] {
  if (!Array.isArray(value)) return [normalize(String(value))];
  return value.map((item) => normalize(typeof item === 'string' ? item : item.fileName));
}

function rightTexts(right: RightValue): string[] {
  if (right === undefined) return [];
  return Array.isArray(right) ? right.map(normalize) : [normalize(String(right))];
}

function rightText(right: RightValue): string {
  return rightTexts(right).join(',');
}
