import type { IdSource } from '../issues';
import type { DraftSchema, Step } from '../model';
import { isRecord, mergePatch } from '../object';
import { dropFieldReferences, dropStepReferences } from './cleanup';
import { checkPosition, commit, insertAt, isPermutation, moveItem, nothing, under } from './commit';
import { badRequest, DraftEditError, stepNotFound } from './errors';

export interface Position {
  id: string;
  position: number;
}

export function stepPositions(schema: DraftSchema): Position[] {
  return schema.steps.map((step, position) => ({ id: step.id, position }));
}

export function stepIndexOf(schema: DraftSchema, stepId: string): number {
  const index = schema.steps.findIndex((step) => step.id === stepId);
  if (index === -1) throw stepNotFound(stepId);
  return index;
}

function requireObject(value: unknown): Record<string, unknown> {
  if (isRecord(value)) return value;
  throw badRequest('invalid_type', '', 'Send an object.');
}

/** Inserts a step at `position` (0-based; undefined appends). Its fields get new ids where they have none. */
export function addStep(
  schema: DraftSchema,
  input: { title?: unknown; description?: unknown; fields?: unknown },
  position: number | undefined,
  ids: IdSource,
): { schema: DraftSchema; step: Step } {
  const body = requireObject(input);
  const at = position === undefined ? schema.steps.length : checkPosition(position, schema.steps.length);
  const next = commit({ ...schema, steps: insertAt<unknown>(schema.steps, at, body) }, under(['steps', at]), ids);
  return { schema: next, step: next.steps[at] };
}

/** Changes a step's own properties (merge patch: null removes). Fields and id cannot be patched. */
export function updateStep(schema: DraftSchema, stepId: string, patch: Record<string, unknown>): { schema: DraftSchema; step: Step } {
  const index = stepIndexOf(schema, stepId);
  const body = requireObject(patch);
  if ('id' in body) throw badRequest('not_patchable', 'id', 'A step id cannot be changed.');
  if ('fields' in body) throw badRequest('not_patchable', 'fields', "Change a step's fields with the field operations.");
  const steps = schema.steps.map((step, i) => (i === index ? mergePatch({ ...step }, body) : step));
  const next = commit({ ...schema, steps }, under(['steps', index]));
  return { schema: next, step: next.steps[index] };
}

/** Deletes a step with its fields, then removes every reference to them (see `dropStepReferences`, `dropFieldReferences`). */
export function deleteStep(schema: DraftSchema, stepId: string): { schema: DraftSchema } {
  const index = stepIndexOf(schema, stepId);
  if (schema.steps.length === 1) throw new DraftEditError(400, 'last_step', stepId, 'A form keeps at least one step.');
  const fieldIds = new Set(schema.steps[index].fields.map((f) => f.id));
  const cleaned = dropStepReferences(dropFieldReferences(schema, fieldIds), stepId);
  return { schema: commit({ ...cleaned, steps: cleaned.steps.filter((_, i) => i !== index) }, nothing) };
}

/** `stepIds` must list every current step id exactly once. */
export function reorderSteps(schema: DraftSchema, stepIds: string[]): { schema: DraftSchema } {
  const current = schema.steps.map((s) => s.id);
  if (!isPermutation(stepIds, current)) throw badRequest('invalid_step_order', 'step_ids', 'List every step id of the form exactly once.');
  const steps = stepIds.map((id) => schema.steps[current.indexOf(id)]);
  return { schema: commit({ ...schema, steps }, nothing) };
}

export function moveStep(schema: DraftSchema, stepId: string, position: number): { schema: DraftSchema; step: Step } {
  const from = stepIndexOf(schema, stepId);
  const to = checkPosition(position, schema.steps.length - 1);
  const next = commit({ ...schema, steps: moveItem(schema.steps, from, to) }, nothing);
  return { schema: next, step: next.steps[to] };
}
