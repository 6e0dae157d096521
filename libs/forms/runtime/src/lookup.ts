import type { DraftSchema, Field } from '@forms/draft-schema';

/** Reads `record[key]` only when it is the record's own property (ids like `constructor` must not hit the prototype). */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function findField(schema: DraftSchema, fieldId: string): Field | undefined {
  for (const step of schema.steps) for (const field of step.fields) if (field.id === fieldId) return field;
  return undefined;
}
