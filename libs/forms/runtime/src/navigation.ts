import type { DraftSchema, Target } from '@forms/draft-schema';
import { applyAction } from './actions';
import { ruleHolds } from './conditions';
import { own } from './lookup';
import type { Answers, RunState } from './run-state';

export interface Transition {
  next: Target;
  state: RunState;
}

/**
 * Leaving `stepId`: the step's rules run in order; every holding rule applies its actions (later conditions see the
 * variables earlier actions changed) and the first holding rule with a target decides. Otherwise the step's fallback,
 * otherwise the next step in order, or the end after the last. A disabled workflow goes in order and runs no actions.
 */
export function leaveStep(schema: DraftSchema, state: RunState, answers: Answers, stepId: string): Transition {
  if (!schema.workflow.enabled) return { next: stepAfter(schema, stepId), state };
  let current = state;
  let decided: Target | undefined;
  for (const rule of schema.workflow.rules) {
    if (rule.stepId !== stepId || !ruleHolds({ schema, state: current, answers }, rule)) continue;
    for (const action of rule.actions) current = applyAction({ schema, state: current, answers }, action);
    decided ??= rule.target;
  }
  return { next: decided ?? own(schema.workflow.fallbacks, stepId) ?? stepAfter(schema, stepId), state: current };
}

/**
 * Leaves the last of `visitedStepIds` the way a respondent does: only answers on visited steps count, and a step target
 * that is unknown or already visited ends the form (the loop guard, shared by `walk` and the hosted page).
 */
export function advance(schema: DraftSchema, state: RunState, answers: Answers, visitedStepIds: string[]): Transition {
  const stepId = visitedStepIds[visitedStepIds.length - 1];
  const transition = leaveStep(schema, state, answersOnSteps(schema, visitedStepIds, answers), stepId);
  const { next } = transition;
  if (next.type === 'step' && (visitedStepIds.includes(next.stepId) || !schema.steps.some((step) => step.id === next.stepId))) {
    return { next: { type: 'end' }, state: transition.state };
  }
  return transition;
}

/** The answers to fields on the given steps (answers left behind on steps the respondent routed away from drop out). */
export function answersOnSteps(schema: DraftSchema, stepIds: string[], answers: Answers): Answers {
  const kept: Answers = {};
  for (const step of schema.steps) {
    if (!stepIds.includes(step.id)) continue;
    for (const field of step.fields) {
      const value = own(answers, field.id);
      if (value !== undefined) kept[field.id] = value;
    }
  }
  return kept;
}

function stepAfter(schema: DraftSchema, stepId: string): Target {
  const index = schema.steps.findIndex((step) => step.id === stepId);
  const next = schema.steps[index + 1];
  return index >= 0 && next ? { type: 'step', stepId: next.id } : { type: 'end' };
}
