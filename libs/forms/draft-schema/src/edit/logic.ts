import type { IdSource, PathSegment } from '../issues';
import type { DraftSchema, StepLogic } from '../model';
import { isRecord } from '../object';
import { commit } from './commit';
import { badRequest } from './errors';
import { stepIndexOf } from './steps';

export function getStepLogic(schema: DraftSchema, stepId: string): StepLogic {
  stepIndexOf(schema, stepId);
  return {
    stepId,
    rules: schema.workflow.rules.filter((rule) => rule.stepId === stepId),
    fallbackTarget: schema.workflow.fallbacks[stepId] ?? null,
  };
}

/**
 * Replaces a step's rules (in the place its old rules held among the others) and its fallback target;
 * a null or absent `fallbackTarget` removes the fallback. A rule may omit `stepId`; if given it must be this step.
 */
export function setStepLogic(
  schema: DraftSchema,
  stepId: string,
  input: { rules: unknown; fallbackTarget?: unknown },
  ids: IdSource,
): { schema: DraftSchema; logic: StepLogic } {
  stepIndexOf(schema, stepId);
  if (!isRecord(input)) throw badRequest('invalid_type', '', 'Send an object with rules and fallbackTarget.');
  if (!Array.isArray(input.rules))
    throw badRequest(input.rules === undefined ? 'required' : 'invalid_type', 'rules', 'Send rules as a list (it may be empty).');
  const rules = input.rules.map((rule: unknown, i) => {
    if (!isRecord(rule)) return rule;
    if (rule.stepId !== undefined && rule.stepId !== stepId)
      throw badRequest('step_mismatch', `rules[${i}].stepId`, `These are the rules of step "${stepId}".`);
    return { ...rule, stepId };
  });

  const current = schema.workflow.rules;
  const others = current.filter((rule) => rule.stepId !== stepId);
  const firstOwn = current.findIndex((rule) => rule.stepId === stepId);
  const start = firstOwn === -1 ? others.length : firstOwn;
  const { [stepId]: _replaced, ...fallbacks } = schema.workflow.fallbacks;
  const fallbackTarget = input.fallbackTarget ?? undefined;
  const workflow = {
    ...schema.workflow,
    rules: [...others.slice(0, start), ...rules, ...others.slice(start)],
    fallbacks: fallbackTarget === undefined ? fallbacks : { ...fallbacks, [stepId]: fallbackTarget },
  };

  const toBody = (path: PathSegment[]): PathSegment[] | undefined => {
    const [section, list, key, ...rest] = path;
    if (section !== 'workflow') return undefined;
    if (list === 'rules' && typeof key === 'number' && key >= start && key < start + rules.length) return ['rules', key - start, ...rest];
    if (list === 'fallbacks' && key === stepId) return ['fallbackTarget', ...rest];
    return undefined;
  };
  const next = commit({ ...schema, workflow }, toBody, ids);
  return { schema: next, logic: getStepLogic(next, stepId) };
}
