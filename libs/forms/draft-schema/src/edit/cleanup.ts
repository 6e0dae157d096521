import type { DraftSchema, Field, Operand, Target, WorkflowRule } from '../model';

/** A rule changed by a clean-up survives only while it still means something (see the rules below). */
function keepChanged(before: WorkflowRule, after: WorkflowRule): boolean {
  if (before.conditions.length > 0 && after.conditions.length === 0) return false;
  return after.actions.length > 0 || after.target !== undefined;
}

function mapRules(rules: readonly WorkflowRule[], change: (rule: WorkflowRule) => WorkflowRule | undefined): WorkflowRule[] {
  return rules.flatMap((rule) => {
    const after = change(rule);
    if (!after) return [];
    return after === rule || keepChanged(rule, after) ? [after] : [];
  });
}

const readsField = (operand: Operand | undefined, ids: ReadonlySet<string>) => operand?.type === 'field' && ids.has(operand.fieldId);

/**
 * Removes the references to fields that are going away:
 * - conditions reading them and actions whose operand reads them are removed;
 * - a rule that loses its last condition is removed (it would otherwise start to hold every time), and so is a
 *   rule left with neither actions nor a target;
 * - quiz mappings on them are removed;
 * - a payment amount taken from one of them becomes a fixed 0, which publishing rejects until it is set again.
 */
export function dropFieldReferences(schema: DraftSchema, fieldIds: ReadonlySet<string>): DraftSchema {
  const rules = mapRules(schema.workflow.rules, (rule) => {
    const conditions = rule.conditions.filter((c) => !readsField(c.subject, fieldIds));
    const actions = rule.actions.filter((a) => !readsField(a.operand, fieldIds));
    return conditions.length === rule.conditions.length && actions.length === rule.actions.length ? rule : { ...rule, conditions, actions };
  });
  const fixAmount = (field: Field): Field =>
    field.type === 'payment' && field.amount.type === 'field' && fieldIds.has(field.amount.fieldId) ? { ...field, amount: { type: 'fixed', value: 0 } } : field;
  return {
    ...schema,
    steps: schema.steps.map((step) => ({ ...step, fields: step.fields.map(fixAmount) })),
    workflow: { ...schema.workflow, rules },
    ...(schema.quiz && { quiz: { ...schema.quiz, mappings: schema.quiz.mappings.filter((m) => !fieldIds.has(m.fieldId)) } }),
  };
}

const pointsAt = (target: Target | undefined, stepId: string) => target?.type === 'step' && target.stepId === stepId;

/**
 * Removes the references to a step that is going away (its fields: see `dropFieldReferences`):
 * - the step's own rules and fallback;
 * - fallbacks of other steps that lead to it (those steps go on to their next step again);
 * - rule targets leading to it; such a rule is removed when it has no actions left to run.
 */
export function dropStepReferences(schema: DraftSchema, stepId: string): DraftSchema {
  const rules = mapRules(schema.workflow.rules, (rule) => {
    if (rule.stepId === stepId) return undefined;
    if (!pointsAt(rule.target, stepId)) return rule;
    const { target: _dropped, ...rest } = rule;
    return rest;
  });
  const fallbacks = Object.fromEntries(Object.entries(schema.workflow.fallbacks).filter(([from, target]) => from !== stepId && !pointsAt(target, stepId)));
  return { ...schema, workflow: { ...schema.workflow, rules, fallbacks } };
}
