import { DEFAULT_MAX_LENGTH } from './defaults';
import { indexForm, type FormIndex } from './form-index';
import { rawIssue, sortByDocument, toDraftIssue, type DraftIssue, type PathSegment, type RawIssue } from './issues';
import type { DraftSchema, Field, Operand, Quiz, Target } from './model';

export interface PublishContext {
  plan: 'free' | 'pro' | 'business';
}

const range = <T extends number | string>(min: T | undefined, max: T | undefined, path: PathSegment[], what: string): RawIssue[] =>
  min !== undefined && max !== undefined && min > max ? [rawIssue(path, 'invalid_range', `The minimum ${what} is above the maximum.`)] : [];

function fieldIssues(field: Field, path: PathSegment[], ctx: PublishContext): RawIssue[] {
  const issues: RawIssue[] = [];
  if (field.type !== 'hidden' && field.type !== 'statement' && field.label.trim() === '') {
    issues.push(rawIssue([...path, 'label'], 'required', 'Give this field a label.'));
  }
  if ('options' in field) {
    const needed = field.type === 'ranking' ? 2 : 1;
    if (field.options.length < needed) issues.push(rawIssue([...path, 'options'], 'too_few', `Add at least ${needed} option${needed > 1 ? 's' : ''}.`));
  }
  switch (field.type) {
    case 'text':
    case 'long_text':
      issues.push(...range(field.minLength, field.maxLength, [...path, 'minLength'], 'length'));
      // Without a maxLength, answers are capped at the type's default (as `coerceAnswer` checks them).
      if (field.maxLength === undefined && (field.minLength ?? 0) > DEFAULT_MAX_LENGTH[field.type]) {
        const max = DEFAULT_MAX_LENGTH[field.type];
        issues.push(
          rawIssue([...path, 'minLength'], 'invalid_range', `The minimum length is above the default maximum of ${max} characters; set a maxLength.`),
        );
      }
      break;
    case 'number':
      issues.push(...range(field.min, field.max, [...path, 'min'], 'value'));
      if (
        field.allowDecimals === false &&
        field.min !== undefined &&
        field.max !== undefined &&
        field.min <= field.max &&
        Math.ceil(field.min) > Math.floor(field.max)
      ) {
        issues.push(rawIssue([...path, 'min'], 'invalid_range', 'No whole number lies between the minimum and the maximum, and decimals are not allowed.'));
      }
      break;
    case 'date':
      issues.push(...range(field.minDate, field.maxDate, [...path, 'minDate'], 'date'));
      break;
    case 'multiple_choice':
      issues.push(...range(field.minSelections, field.maxSelections, [...path, 'minSelections'], 'number of selections'));
      if ((field.minSelections ?? 0) > field.options.length) {
        issues.push(rawIssue([...path, 'minSelections'], 'invalid_range', 'More selections are required than there are options.'));
      }
      break;
    case 'payment':
      if (ctx.plan === 'free') issues.push(rawIssue([...path, 'type'], 'payment_requires_pro', 'Payment fields need the Pro or Business plan.'));
      if (field.amount.type === 'fixed' && field.amount.value <= 0) {
        issues.push(rawIssue([...path, 'amount', 'value'], 'invalid_amount', 'Set an amount above zero.'));
      }
      break;
  }
  return issues;
}

/** A jump must land after the step it leaves, so no path through the form can loop. */
function backward(target: Target, fromStep: number, path: PathSegment[], index: FormIndex): RawIssue[] {
  if (target.type !== 'step' || (index.stepIndex.get(target.stepId) ?? Infinity) > fromStep) return [];
  return [rawIssue(path, 'backward_target', 'Jumps can only go forward: to a later step, the end or a thank-you screen.')];
}

/** A rule may only read answers the respondent has given by then: fields on its own step or earlier ones. */
function future(operand: Operand | undefined, stepIndex: number, path: PathSegment[], index: FormIndex): RawIssue[] {
  if (operand?.type !== 'field') return [];
  const entry = index.fields.get(operand.fieldId);
  return entry && entry.stepIndex > stepIndex ? [rawIssue([...path, 'fieldId'], 'future_reference', 'This field comes after the step the rule runs on.')] : [];
}

function workflowIssues(schema: DraftSchema, index: FormIndex): RawIssue[] {
  const issues: RawIssue[] = [];
  schema.workflow.rules.forEach((rule, r) => {
    const stepIndex = index.stepIndex.get(rule.stepId) ?? -1;
    const path = ['workflow', 'rules', r];
    rule.conditions.forEach((c, i) => issues.push(...future(c.subject, stepIndex, [...path, 'conditions', i, 'subject'], index)));
    rule.actions.forEach((a, i) => issues.push(...future(a.operand, stepIndex, [...path, 'actions', i, 'operand'], index)));
    if (rule.target) issues.push(...backward(rule.target, stepIndex, [...path, 'target'], index));
  });
  for (const [stepId, target] of Object.entries(schema.workflow.fallbacks)) {
    issues.push(...backward(target, index.stepIndex.get(stepId) ?? -1, ['workflow', 'fallbacks', stepId], index));
  }
  return issues;
}

function paymentOrderIssues(schema: DraftSchema, index: FormIndex): RawIssue[] {
  return schema.steps.flatMap((step, s) =>
    step.fields.flatMap((field, f) => {
      if (field.type !== 'payment' || field.amount.type !== 'field') return [];
      const source = index.fields.get(field.amount.fieldId);
      const later = source && (source.stepIndex > s || (source.stepIndex === s && source.fieldIndex > f));
      const path = ['steps', s, 'fields', f, 'amount', 'fieldId'];
      return later ? [rawIssue(path, 'future_reference', 'The amount field must come before the payment field.')] : [];
    }),
  );
}

function quizIssues(quiz: Quiz): RawIssue[] {
  if (!quiz.enabled) return [];
  const issues: RawIssue[] = [];
  if (quiz.endings.length === 0) issues.push(rawIssue(['quiz', 'endings'], 'too_few', 'Add at least one ending.'));
  if (quiz.mappings.length === 0) issues.push(rawIssue(['quiz', 'mappings'], 'too_few', 'Map at least one answer to the quiz.'));
  if (quiz.type !== 'score') return issues;
  quiz.endings.forEach((ending, i) => {
    const path = ['quiz', 'endings', i];
    if (ending.minScore === undefined) issues.push(rawIssue([...path, 'minScore'], 'required', 'A score quiz ending needs a score range.'));
    if (ending.maxScore === undefined) issues.push(rawIssue([...path, 'maxScore'], 'required', 'A score quiz ending needs a score range.'));
    issues.push(...range(ending.minScore, ending.maxScore, [...path, 'minScore'], 'score'));
  });
  return issues;
}

/**
 * What publishing needs beyond a valid draft: completeness (labels, options, ranges, quiz endings), forward-only
 * jumps, rules reading only answers already given, and plan gates. `schema` must come from `parseDraftSchema`.
 */
export function validateForPublish(schema: DraftSchema, ctx: PublishContext): DraftIssue[] {
  const index = indexForm(schema.steps, schema.settings, schema.quiz);
  const issues = [
    ...schema.steps.flatMap((step, s) => {
      const path = ['steps', s];
      const empty = step.fields.length === 0 ? [rawIssue([...path, 'fields'], 'too_few', 'Add at least one field to this step.')] : [];
      return [...empty, ...step.fields.flatMap((field, f) => fieldIssues(field, [...path, 'fields', f], ctx))];
    }),
    ...paymentOrderIssues(schema, index),
    ...workflowIssues(schema, index),
    ...(schema.quiz ? quizIssues(schema.quiz) : []),
  ];
  return sortByDocument(issues, schema).map(toDraftIssue);
}

/** The `draftValidation` report: whether the draft can be published, and why not. */
export function draftValidationReport(schema: DraftSchema, ctx: PublishContext): { valid: boolean; issues: DraftIssue[] } {
  const issues = validateForPublish(schema, ctx);
  return { valid: issues.length === 0, issues };
}
