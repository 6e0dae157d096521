import { FormsErrors } from '@forms/contracts';

/** A submission body, either the plain field-value map or the wrapper form. */
export interface SubmissionInput {
  values: Record<string, unknown>;
  hiddenValues: Record<string, unknown>;
  /** Prefix of answer paths in error details: `values.` for the wrapper, empty for a plain map. */
  valuesPath: string;
  completedStepIds: string[] | null;
  analyticsSessionId: string | null;
  marketingTrackingAllowed: boolean | null;
  viewerCountry: string | null;
  /** The verified (or started) payment of each payment field: field id → the payment id the order endpoint returned. */
  payments: Record<string, string>;
}

const WRAPPER_KEYS = new Set(['values', 'hiddenValues', 'completedStepIds', 'analyticsSessionId', 'marketingTrackingAllowed', 'viewerCountry', 'payments']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A body with `values` is the wrapper: its `values` must be an object and every other key a wrapper key (a typo or an
 * unsupported key such as `refillToken` is named, not read as an answer). Any other body is the field-value map.
 */
export function readSubmissionInput(body: unknown): SubmissionInput {
  if (!isObject(body)) throw FormsErrors.invalid('validation_failed', 'The body must be a JSON object.', 'body');
  if (body.values === undefined) {
    return {
      values: body,
      hiddenValues: {},
      valuesPath: '',
      completedStepIds: null,
      analyticsSessionId: null,
      marketingTrackingAllowed: null,
      viewerCountry: null,
      payments: {},
    };
  }
  if (!isObject(body.values)) throw FormsErrors.invalid('validation_failed', 'values must be an object of answers by field id.', 'values');
  const unknown = Object.keys(body).find((key) => !WRAPPER_KEYS.has(key));
  if (unknown !== undefined)
    throw FormsErrors.invalid('validation_failed', `${unknown} is not a member of the submission wrapper.`, unknown, 'unknown_property');
  return {
    values: body.values,
    hiddenValues: optional(body, 'hiddenValues', isObject, 'an object') ?? {},
    valuesPath: 'values.',
    completedStepIds:
      optional(
        body,
        'completedStepIds',
        (v): v is string[] => Array.isArray(v) && v.length <= 200 && v.every((s) => typeof s === 'string'),
        'an array of step ids',
      ) ?? null,
    analyticsSessionId:
      optional(body, 'analyticsSessionId', (v): v is string => typeof v === 'string' && v.length > 0 && v.length <= 128, 'a string of 1 to 128 characters') ??
      null,
    marketingTrackingAllowed: optional(body, 'marketingTrackingAllowed', (v): v is boolean => typeof v === 'boolean', 'a boolean') ?? null,
    viewerCountry:
      optional(body, 'viewerCountry', (v): v is string => typeof v === 'string' && /^[A-Za-z]{2}$/.test(v), 'a two-letter country code')?.toUpperCase() ?? null,
    payments:
      optional(
        body,
        'payments',
        (v): v is Record<string, string> =>
          isObject(v) && Object.keys(v).length <= 20 && Object.values(v).every((id) => typeof id === 'string' && id.length <= 100),
        'an object of payment ids by field id',
      ) ?? {},
  };
}

function optional<T>(body: Record<string, unknown>, key: string, accept: (value: unknown) => value is T, expected: string): T | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!accept(value)) throw FormsErrors.invalid('validation_failed', `${key} must be ${expected}.`, key);
  return value;
}
