import { repeated, type FormIndex } from './form-index';
import { isCalendarDate, isTime } from './formats';
import { rawIssue, type PathSegment, type RawIssue } from './issues';
import { NUMBER_OPERATIONS, TEXT_OPERATIONS, type Condition, type Field, type Target, type VariableAction, type Workflow } from './model';
import { fieldValueKind, OPERATORS_BY_KIND, operandKind, type ValueKind } from './value-kinds';

function checkTarget(target: Target, path: PathSegment[], index: FormIndex): RawIssue[] {
  if (target.type === 'step' && !index.stepIndex.has(target.stepId)) return [rawIssue(path, 'unknown_reference', `No step has the id "${target.stepId}".`)];
  if (target.type === 'thank_you' && !index.screenIds.has(target.screenId)) {
    return [rawIssue(path, 'unknown_reference', `No thank-you screen has the id "${target.screenId}".`)];
  }
  return [];
}

/** Resolves a subject or operand reference, reporting a missing one at its id property. */
function resolve(
  ref: Condition['subject'] | NonNullable<VariableAction['operand']>,
  path: PathSegment[],
  index: FormIndex,
): { kind?: ValueKind; field?: Field; issues: RawIssue[] } {
  if (ref.type === 'field') {
    const field = index.fields.get(ref.fieldId)?.field;
    if (!field) return { issues: [rawIssue([...path, 'fieldId'], 'unknown_reference', 'No field has this id.')] };
    const kind = fieldValueKind(field);
    if (!kind) return { issues: [rawIssue([...path, 'fieldId'], 'not_answerable', `A ${field.type} field has no answer to use.`)] };
    return { kind, field, issues: [] };
  }
  if (ref.type === 'variable' && !index.variables.has(ref.variableId)) {
    return { issues: [rawIssue([...path, 'variableId'], 'unknown_reference', 'No workflow variable has this id.')] };
  }
  if (ref.type === 'score' && !index.hasScore) return { issues: [rawIssue(path, 'unknown_reference', 'Only a score quiz has a score.')] };
  return { kind: operandKind(ref, index), issues: [] };
}

/** The right-hand side a kind of subject needs, as a check plus what to say when it fails. */
function checkConditionValue(condition: Condition, kind: ValueKind, field: Field | undefined, path: PathSegment[]): RawIssue[] {
  const { operator, value } = condition;
  const at = [...path, 'value'];
  if (operator === 'is_empty' || operator === 'is_not_empty') {
    return value === undefined ? [] : [rawIssue(at, 'invalid_value', `${operator} takes no value.`)];
  }
  if (value === undefined) return [rawIssue(at, 'required', `${operator} needs a value.`)];
  const options = field && 'options' in field ? new Set(field.options.map((o) => o.value)) : undefined;
  switch (kind) {
    case 'number':
      return typeof value === 'number' ? [] : [rawIssue(at, 'invalid_value', 'Compare a number with a number.')];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [rawIssue(at, 'invalid_value', 'Compare a checkbox with true or false.')];
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? [] : [rawIssue(at, 'invalid_value', 'Use a date written YYYY-MM-DD.')];
    case 'time':
      return typeof value === 'string' && isTime(value) ? [] : [rawIssue(at, 'invalid_value', 'Use a time written HH:MM.')];
    case 'text':
      return typeof value === 'string' ? [] : [rawIssue(at, 'invalid_value', 'Compare text with text.')];
    case 'choice': {
      if (typeof value !== 'string') return [rawIssue(at, 'invalid_value', 'Use one option value.')];
      const other = field?.type === 'single_choice' && field.allowOther;
      return other || options?.has(value) ? [] : [rawIssue(at, 'unknown_reference', `"${value}" is not an option value of this field.`)];
    }
    case 'list': {
      if (!Array.isArray(value) || value.length === 0) return [rawIssue(at, 'invalid_value', 'Use a list of option values.')];
      return value.flatMap((v, i) => (options?.has(v) ? [] : [rawIssue([...at, i], 'unknown_reference', `"${v}" is not an option value of this field.`)]));
    }
    case 'presence':
      return [];
  }
}

function checkCondition(condition: Condition, path: PathSegment[], index: FormIndex): RawIssue[] {
  const subject = resolve(condition.subject, [...path, 'subject'], index);
  if (!subject.kind) return subject.issues;
  if (!OPERATORS_BY_KIND[subject.kind].includes(condition.operator)) {
    const allowed = OPERATORS_BY_KIND[subject.kind].join(', ');
    return [rawIssue([...path, 'operator'], 'incompatible_operator', `${condition.operator} does not apply here. Use one of: ${allowed}.`)];
  }
  return checkConditionValue(condition, subject.kind, subject.field, path);
}

function checkAction(action: VariableAction, path: PathSegment[], index: FormIndex): RawIssue[] {
  const variable = index.variables.get(action.variableId);
  if (!variable) return [rawIssue([...path, 'variableId'], 'unknown_reference', 'No workflow variable has this id.')];
  const allowed: readonly string[] = variable.type === 'number' ? NUMBER_OPERATIONS : TEXT_OPERATIONS;
  if (!allowed.includes(action.operation)) {
    return [rawIssue([...path, 'operation'], 'incompatible_operation', `A ${variable.type} variable supports: ${allowed.join(', ')}.`)];
  }
  const at = [...path, 'operand'];
  if (action.operation === 'clear') return action.operand ? [rawIssue(at, 'invalid_value', 'clear takes no operand.')] : [];
  if (!action.operand) return [rawIssue(at, 'required', `${action.operation} needs an operand.`)];
  const operand = resolve(action.operand, at, index);
  if (!operand.kind || variable.type === 'text') return operand.issues;
  if (operand.kind !== 'number') {
    return [rawIssue(at, 'non_numeric_operand', 'Number variables only take numeric answers, number hidden fields, number variables, the score or a number.')];
  }
  if (action.operation === 'divide' && action.operand.type === 'number' && action.operand.value === 0) {
    return [rawIssue([...at, 'value'], 'invalid_value', 'Cannot divide by zero.')];
  }
  return [];
}

/** Rules, conditions, actions and fallbacks: every reference resolves and every operation makes sense. */
export function checkWorkflow(workflow: Workflow, index: FormIndex): RawIssue[] {
  const issues: RawIssue[] = [];
  const rules = workflow.rules.map((rule, r) => ({ rule, path: ['workflow', 'rules', r] }));
  const ids = (kind: 'conditions' | 'actions') =>
    rules.flatMap(({ rule, path }) => rule[kind].map((item, i) => ({ key: item.id, path: [...path, kind, i, 'id'] })));
  issues.push(
    ...repeated(
      rules.map(({ rule, path }) => ({ key: rule.id, path: [...path, 'id'] })),
      'duplicate_id',
      'Another rule also uses this id.',
    ),
    ...repeated(ids('conditions'), 'duplicate_id', 'Another condition also uses this id.'),
    ...repeated(ids('actions'), 'duplicate_id', 'Another action also uses this id.'),
  );
  for (const { rule, path } of rules) {
    if (!index.stepIndex.has(rule.stepId)) issues.push(rawIssue([...path, 'stepId'], 'unknown_reference', `No step has the id "${rule.stepId}".`));
    rule.conditions.forEach((c, i) => issues.push(...checkCondition(c, [...path, 'conditions', i], index)));
    rule.actions.forEach((a, i) => issues.push(...checkAction(a, [...path, 'actions', i], index)));
    if (rule.target) issues.push(...checkTarget(rule.target, [...path, 'target'], index));
  }
  for (const [stepId, target] of Object.entries(workflow.fallbacks)) {
    const path = ['workflow', 'fallbacks', stepId];
    if (!index.stepIndex.has(stepId)) issues.push(rawIssue(path, 'unknown_reference', `No step has the id "${stepId}".`));
    else issues.push(...checkTarget(target, path, index));
  }
  return issues;
}
