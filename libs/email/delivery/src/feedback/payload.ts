import { EmailErrors } from '@email/contracts';

/** A JSON object of a provider's payload. */
export type Json = Record<string, unknown>;

/** The body as JSON; anything else is 400 invalid_json. */
export function parseJson(body: Buffer | string, field = 'body'): unknown {
  try {
    return JSON.parse(body.toString());
  } catch {
    throw EmailErrors.invalid('invalid_json', `"${field}" is not valid JSON.`, field);
  }
}

const invalid = (field: string, what: string) => EmailErrors.invalid('validation_failed', `"${field}" must be ${what}.`, field);

export function objectAt(value: unknown, field: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(field, 'an object');
  return value as Json;
}

export function arrayAt(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(field, 'an array');
  return value;
}

export function textAt(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(field, 'a non-empty string');
  return value;
}

/** An object value, or an empty object for anything else (for optional parts of a payload). */
export function optionalObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

/** A string value, or undefined for anything else. */
export function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An instant given as an ISO 8601 string, or as seconds (`unit: 's'`, fractions allowed) or milliseconds since the epoch. */
export function instantAt(value: unknown, field: string, unit: 's' | 'ms' = 's'): Date {
  const at =
    typeof value === 'number' ? new Date(unit === 's' ? value * 1000 : value) : typeof value === 'string' && value !== '' ? new Date(value) : undefined;
  if (!at || Number.isNaN(at.getTime())) throw invalid(field, 'a time');
  return at;
}
