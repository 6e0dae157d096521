import { isAnswered, type DraftSchema, type Field } from '@forms/draft-schema';
import { own } from './lookup';
import type { Answers } from './run-state';

const NEVER_REQUIRED: Field['type'][] = ['hidden', 'statement', 'payment'];

/** Required fields on the visited steps (in visiting order) that have no answer; a required checkbox must be checked. */
export function missingRequired(schema: DraftSchema, visitedStepIds: string[], answers: Answers): string[] {
  return visitedStepIds
    .flatMap((stepId) => schema.steps.find((step) => step.id === stepId)?.fields ?? [])
    .filter((field) => field.required && !NEVER_REQUIRED.includes(field.type) && !hasRequiredAnswer(field, own(answers, field.id)))
    .map((field) => field.id);
}

export function hasRequiredAnswer(field: Field, value: Answers[string] | undefined): boolean {
  if (field.type === 'checkbox') return value === true;
  return value !== undefined && isAnswered(value);
}
