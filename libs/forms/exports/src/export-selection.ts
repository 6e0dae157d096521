import { FormsErrors } from '@forms/contracts';

/** The statuses a stored submission can have (the record's `submission.status`). */
export const SUBMISSION_STATUSES = ['completed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Most submissions one export may name by id (a larger selection is a filter's job). */
export const MAX_SELECTED_SUBMISSIONS = 10_000;
const MAX_SEARCH_LENGTH = 200;

export interface ExportFilters {
  search: string | null;
  status: SubmissionStatus | null;
  /** Inclusive bounds on the submission time; a date-only `to` covers that whole UTC day. */
  from: Date | null;
  to: Date | null;
}

/** What an export covers: these submissions, or (when `selectedSubmissionIds` is null) every one matching the filters. */
export interface ExportSelection {
  selectedSubmissionIds: string[] | null;
  filters: ExportFilters;
}

const NO_FILTERS: ExportFilters = { search: null, status: null, from: null, to: null };
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** RFC 3339 date-time with an explicit zone (Z or ±hh:mm), fractions optional. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const refuse = (field: string, message: string) => FormsErrors.invalid('validation_failed', `${field}: ${message}`, field);

function closed(value: Record<string, unknown>, allowed: readonly string[], prefix: string): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw refuse(`${prefix}${unknown}`, 'is not a property this request takes.');
}

/** Whether the text's `YYYY-MM-DD` names a real calendar day (Date would roll 2026-02-30 over into March). */
const realDay = (day: string) => {
  const midnight = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(midnight.getTime()) && midnight.toISOString().slice(0, 10) === day;
};

/** A date (`YYYY-MM-DD`, UTC) or an RFC 3339 date-time; `endOfDay` makes a date-only value its day's last millisecond. */
function readInstant(value: unknown, field: string, endOfDay: boolean): Date | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : '';
  const dateOnly = DATE_ONLY.test(text);
  const instant = new Date(dateOnly ? `${text}T00:00:00Z` : text);
  if (!(dateOnly || DATE_TIME.test(text)) || Number.isNaN(instant.getTime()) || !realDay(text.slice(0, 10))) {
    throw refuse(field, 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone.');
  }
  return dateOnly && endOfDay ? new Date(instant.getTime() + DAY_MS - 1) : instant;
}

function readFilters(value: unknown): ExportFilters {
  if (value === undefined || value === null) return NO_FILTERS;
  if (!isObject(value)) throw refuse('filters', 'must be an object.');
  closed(value, ['search', 'status', 'from', 'to'], 'filters.');
  const { search, status } = value;
  if (search !== undefined && search !== null && (typeof search !== 'string' || search.length > MAX_SEARCH_LENGTH)) {
    throw refuse('filters.search', `must be a string of at most ${MAX_SEARCH_LENGTH} characters.`);
  }
  if (status !== undefined && status !== null && !(SUBMISSION_STATUSES as readonly unknown[]).includes(status)) {
    throw refuse('filters.status', `must be one of ${SUBMISSION_STATUSES.join(', ')}.`);
  }
  const from = readInstant(value.from, 'filters.from', false);
  const to = readInstant(value.to, 'filters.to', true);
  if (from && to && from > to) throw refuse('filters.to', 'must not be before filters.from.');
  const trimmed = typeof search === 'string' ? search.trim() : '';
  return { search: trimmed || null, status: (status as SubmissionStatus | undefined) ?? null, from, to };
}

function readIds(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SELECTED_SUBMISSIONS) {
    throw refuse('selectedSubmissionIds', `must be a list of 1 to ${MAX_SELECTED_SUBMISSIONS} submission ids.`);
  }
  const index = value.findIndex((id) => typeof id !== 'string' || id.length === 0 || id.length > 100);
  if (index >= 0) throw refuse(`selectedSubmissionIds[${index}]`, 'must be a submission id.');
  return [...new Set(value as string[])];
}

/**
 * Reads an export request body: `selectedSubmissionIds`, or else `filters.search`, `filters.status`, `filters.from`,
 * `filters.to`. Both are checked; with ids, the filters do not apply (the spec: filters select when ids are omitted).
 * A bad value is a 400 naming it. Whether the ids are submissions of the form is the service's check.
 */
export function readExportSelection(body: unknown): ExportSelection {
  if (body === undefined || body === null) return { selectedSubmissionIds: null, filters: NO_FILTERS };
  if (!isObject(body)) throw refuse('body', 'must be a JSON object.');
  closed(body, ['selectedSubmissionIds', 'filters'], '');
  const filters = readFilters(body.filters);
  const selectedSubmissionIds = readIds(body.selectedSubmissionIds);
  return { selectedSubmissionIds, filters: selectedSubmissionIds ? NO_FILTERS : filters };
}
