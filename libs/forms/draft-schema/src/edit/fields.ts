import type { IdSource } from '../issues';
import { FIELD_TYPES, type DraftSchema, type Field, type FieldType, type Step } from '../model';
import { isRecord, mergePatch } from '../object';
import { COMMON_FIELD_KEYS, TYPE_PROPERTY_KEYS } from '../schemas/fields';
import { dropFieldReferences } from './cleanup';
import { checkPosition, commit, insertAt, isPermutation, nothing, under } from './commit';
import { badRequest, fieldNotFound } from './errors';
import { stepIndexOf, type Position } from './steps';

export function findField(schema: DraftSchema, fieldId: string): { step: Step; field: Field; index: number } | undefined {
  for (const step of schema.steps) {
    const index = step.fields.findIndex((f) => f.id === fieldId);
    if (index !== -1) return { step, field: step.fields[index], index };
  }
  return undefined;
}

export function fieldPositions(schema: DraftSchema, stepId: string): Position[] {
  return schema.steps[stepIndexOf(schema, stepId)].fields.map((field, position) => ({ id: field.id, position }));
}

function locate(schema: DraftSchema, fieldId: string): { stepIndex: number; fieldIndex: number } {
  const found = findField(schema, fieldId);
  if (!found) throw fieldNotFound(fieldId);
  return { stepIndex: schema.steps.indexOf(found.step), fieldIndex: found.index };
}

const withFields = (schema: DraftSchema, stepIndex: number, fields: readonly unknown[]) => ({
  ...schema,
  steps: schema.steps.map((step, i) => (i === stepIndex ? { ...step, fields } : step)),
});

/** Inserts a field into a step at `position` (0-based; undefined appends). */
export function addField(
  schema: DraftSchema,
  stepId: string,
  input: Record<string, unknown>,
  position: number | undefined,
  ids: IdSource,
): { schema: DraftSchema; field: Field } {
  const stepIndex = stepIndexOf(schema, stepId);
  if (!isRecord(input)) throw badRequest('invalid_type', '', 'Send the field as an object.');
  const fields = schema.steps[stepIndex].fields;
  const at = position === undefined ? fields.length : checkPosition(position, fields.length);
  const next = commit(withFields(schema, stepIndex, insertAt<unknown>(fields, at, input)), under(['steps', stepIndex, 'fields', at]), ids);
  return { schema: next, field: next.steps[stepIndex].fields[at] };
}

const NEVER_REQUIRED: readonly string[] = ['statement', 'hidden'];

/** On a type change, drops the old type's own properties the new type does not have. */
function forType(field: Field, type: unknown): Record<string, unknown> {
  if (type === field.type || !FIELD_TYPES.includes(type as FieldType)) return { ...field };
  const keep = new Set([...COMMON_FIELD_KEYS, ...TYPE_PROPERTY_KEYS[type as FieldType]]);
  if (NEVER_REQUIRED.includes(type as FieldType)) keep.delete('required');
  return Object.fromEntries(Object.entries(field).filter(([key]) => keep.has(key)));
}

/**
 * Changes a field (merge patch: null removes a property, so it falls back to its default). The type may change
 * when the result validates; properties of the old type that the new one lacks are dropped. `ids` mints ids for
 * new options.
 */
export function updateField(schema: DraftSchema, fieldId: string, patch: Record<string, unknown>, ids: IdSource): { schema: DraftSchema; field: Field } {
  const { stepIndex, fieldIndex } = locate(schema, fieldId);
  if (!isRecord(patch)) throw badRequest('invalid_type', '', 'Send the changes as an object.');
  if ('id' in patch) throw badRequest('not_patchable', 'id', 'A field id cannot be changed.');
  const field = schema.steps[stepIndex].fields[fieldIndex];
  const updated = mergePatch(forType(field, 'type' in patch ? patch.type : field.type), patch);
  const fields = schema.steps[stepIndex].fields.map((f, i) => (i === fieldIndex ? updated : f));
  const next = commit(withFields(schema, stepIndex, fields), under(['steps', stepIndex, 'fields', fieldIndex]), ids);
  return { schema: next, field: next.steps[stepIndex].fields[fieldIndex] };
}

/** Deletes a field and removes every reference to it (see `dropFieldReferences`). */
export function deleteField(schema: DraftSchema, fieldId: string): { schema: DraftSchema } {
  const { stepIndex, fieldIndex } = locate(schema, fieldId);
  const cleaned = dropFieldReferences(schema, new Set([fieldId]));
  const fields = cleaned.steps[stepIndex].fields.filter((_, i) => i !== fieldIndex);
  return { schema: commit(withFields(cleaned, stepIndex, fields), nothing) };
}

/** `fieldIds` must list every field id of the step exactly once. */
export function reorderFields(schema: DraftSchema, stepId: string, fieldIds: string[]): { schema: DraftSchema } {
  const stepIndex = stepIndexOf(schema, stepId);
  const fields = schema.steps[stepIndex].fields;
  const current = fields.map((f) => f.id);
  if (!isPermutation(fieldIds, current)) throw badRequest('invalid_field_order', 'field_ids', 'List every field id of the step exactly once.');
  return {
    schema: commit(
      withFields(
        schema,
        stepIndex,
        fieldIds.map((id) => fields[current.indexOf(id)]),
      ),
      nothing,
    ),
  };
}

/** Moves a field to `position` within its step or, with `stepId`, into another step. */
export function moveField(schema: DraftSchema, fieldId: string, target: { stepId?: string; position: number }): { schema: DraftSchema; field: Field } {
  const from = locate(schema, fieldId);
  const to = target.stepId === undefined ? from.stepIndex : stepIndexOf(schema, target.stepId);
  const max = to === from.stepIndex ? schema.steps[to].fields.length - 1 : schema.steps[to].fields.length;
  const position = checkPosition(target.position, max);
  const steps = schema.steps.map((step) => ({ ...step, fields: [...step.fields] }));
  const [field] = steps[from.stepIndex].fields.splice(from.fieldIndex, 1);
  steps[to].fields.splice(position, 0, field);
  const next = commit({ ...schema, steps }, nothing);
  return { schema: next, field: next.steps[to].fields[position] };
}
