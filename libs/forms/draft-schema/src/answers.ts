/**
 * Turns what a respondent sent into the stored answer (see `AnswerValue` in model.ts).
 * Pure and dependency-free: it is bundled into the hosted form's browser script, so no zod, no node modules.
 */
import type { AnswerCode } from '@forms/contracts';
import { DEFAULT_MAX_LENGTH } from './defaults';
import { isCalendarDate, isEmail, isHttpUrl, isTime } from './formats';
import type { AnswerValue, ChoiceOption, Field, UploadedFile } from './model';
import { toE164 } from './phone';

export type CoerceResult = { ok: true; value: AnswerValue | undefined } | { ok: false; code: AnswerCode; message: string };

const ok = (value: AnswerValue | undefined): CoerceResult => ({ ok: true, value });
const fail = (code: AnswerCode, message: string): CoerceResult => ({ ok: false, code, message });

const SIGNATURE_PREFIX = 'data:image/png;base64,';
const SIGNATURE_MAX = 300_000;
const OTHER_MAX = 500;
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

const isBlank = (raw: unknown) =>
  raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '') || (Array.isArray(raw) && raw.length === 0);
const asText = (raw: unknown) => (typeof raw === 'string' ? raw : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : undefined);

function asNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  return typeof raw === 'string' && NUMERIC.test(raw.trim()) ? Number(raw.trim()) : undefined;
}

/** Whole-number scales (rating, opinion scale, NPS). */
function scale(raw: unknown, min: number, max: number): CoerceResult {
  const value = asNumber(raw);
  if (value === undefined || !Number.isInteger(value) || value < min || value > max) return fail('out_of_range', `Choose a number from ${min} to ${max}.`);
  return ok(value);
}

function text(raw: unknown, min: number | undefined, max: number): CoerceResult {
  const value = asText(raw)?.trim();
  if (value === undefined) return fail('invalid_type', 'Enter text.');
  const length = [...value].length;
  if (min !== undefined && length < min) return fail('too_short', `Enter at least ${min} characters.`);
  if (length > max) return fail('too_long', `Enter at most ${max} characters.`);
  return ok(value);
}

function number(raw: unknown, field: Extract<Field, { type: 'number' }>): CoerceResult {
  const value = asNumber(raw);
  if (value === undefined) return fail('invalid_number', 'Enter a number.');
  if (field.allowDecimals === false && !Number.isInteger(value)) return fail('not_integer', 'Enter a whole number.');
  if (field.min !== undefined && value < field.min) return fail('too_small', `Enter ${field.min} or more.`);
  if (field.max !== undefined && value > field.max) return fail('too_large', `Enter ${field.max} or less.`);
  return ok(value);
}

function url(raw: unknown): CoerceResult {
  const input = asText(raw)?.trim() ?? '';
  // People type "example.com": a value without a scheme is taken as https.
  const value = /^[a-z][a-z0-9+.-]*:/i.test(input) ? input : `https://${input}`;
  if (value.length > 2000 || !isHttpUrl(value) || !new URL(value).hostname.includes('.')) return fail('invalid_url', 'Enter a valid web address (https://…).');
  return ok(value);
}

function date(raw: unknown, field: Extract<Field, { type: 'date' }>): CoerceResult {
  const value = asText(raw)?.trim() ?? '';
  if (!isCalendarDate(value)) return fail('invalid_date', 'Enter a valid date (YYYY-MM-DD).');
  if (field.minDate && value < field.minDate) return fail('date_too_early', `Choose ${field.minDate} or later.`);
  if (field.maxDate && value > field.maxDate) return fail('date_too_late', `Choose ${field.maxDate} or earlier.`);
  return ok(value);
}

function time(raw: unknown): CoerceResult {
  const input = asText(raw)?.trim() ?? '';
  const value = /^\d:\d\d$/.test(input) ? `0${input}` : input;
  return isTime(value) ? ok(value) : fail('invalid_time', 'Enter a valid time (HH:MM).');
}

function choices(raw: unknown): string[] | undefined {
  const list = Array.isArray(raw) ? raw : [raw];
  const values = list.map(asText);
  return values.every((v): v is string => v !== undefined) ? values : undefined;
}

function singleChoice(raw: unknown, field: Extract<Field, { type: 'single_choice' | 'dropdown' }>): CoerceResult {
  const value = asText(raw);
  if (value !== undefined && field.options.some((o) => o.value === value)) return ok(value);
  if (value !== undefined && field.type === 'single_choice' && field.allowOther) {
    return value.trim().length <= OTHER_MAX ? ok(value.trim()) : fail('too_long', `Enter at most ${OTHER_MAX} characters.`);
  }
  return fail('invalid_choice', 'Choose one of the options.');
}

function multipleChoice(raw: unknown, field: Extract<Field, { type: 'multiple_choice' }>): CoerceResult {
  const values = choices(raw);
  const known = new Set(field.options.map((o) => o.value));
  if (!values || !values.every((v) => known.has(v))) return fail('invalid_choice', 'Choose from the options.');
  if (new Set(values).size !== values.length) return fail('duplicate_choice', 'Choose each option only once.');
  if (field.minSelections !== undefined && values.length < field.minSelections) return fail('too_few_choices', `Choose at least ${field.minSelections}.`);
  if (field.maxSelections !== undefined && values.length > field.maxSelections) return fail('too_many_choices', `Choose at most ${field.maxSelections}.`);
  return ok(field.options.map((o) => o.value).filter((v) => values.includes(v)));
}

function ranking(raw: unknown, options: ChoiceOption[]): CoerceResult {
  const values = choices(raw);
  const all = options.map((o) => o.value);
  const complete = values && values.length === all.length && new Set(values).size === all.length && values.every((v) => all.includes(v));
  return complete ? ok(values) : fail('invalid_ranking', 'Rank every option exactly once.');
}

function checkbox(raw: unknown): CoerceResult {
  if (raw === true || raw === 'true' || raw === 'on') return ok(true);
  if (raw === false || raw === 'false') return ok(false);
  return fail('invalid_boolean', 'Check or uncheck the box.');
}

function signature(raw: unknown): CoerceResult {
  if (typeof raw !== 'string' || !raw.startsWith(SIGNATURE_PREFIX) || !/^[A-Za-z0-9+/]+=*$/.test(raw.slice(SIGNATURE_PREFIX.length))) {
    return fail('invalid_signature', 'Sign in the box.');
  }
  return raw.length <= SIGNATURE_MAX ? ok(raw) : fail('too_long', 'The signature is too large. Clear it and sign again.');
}

function uploadedFile(raw: unknown): UploadedFile | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { id, fileName, mimeType, size, url: address } = raw as Record<string, unknown>;
  const valid =
    typeof id === 'string' &&
    id !== '' &&
    typeof fileName === 'string' &&
    fileName !== '' &&
    fileName.length <= 255 &&
    typeof mimeType === 'string' &&
    typeof size === 'number' &&
    Number.isInteger(size) &&
    size >= 0 &&
    typeof address === 'string' &&
    isHttpUrl(address);
  return valid ? { id, fileName, mimeType, size, url: address } : undefined;
}

/** `accept` entries are MIME types (`image/png`), MIME families (`image/*`) or extensions (`.pdf`). */
const accepts = (accept: string[], file: UploadedFile) =>
  accept.length === 0 ||
  accept.some((entry) => {
    const mime = file.mimeType.toLowerCase();
    if (entry.startsWith('.')) return file.fileName.toLowerCase().endsWith(entry);
    return entry.endsWith('/*') ? mime.startsWith(entry.slice(0, -1)) : mime === entry;
  });

function files(raw: unknown, field: Extract<Field, { type: 'file_upload' }>): CoerceResult {
  const list = (Array.isArray(raw) ? raw : [raw]).map(uploadedFile);
  if (!list.every((f): f is UploadedFile => f !== undefined)) return fail('invalid_file', 'Upload the file again.');
  if (list.length > field.maxFiles) return fail('too_many_files', `Upload at most ${field.maxFiles} file${field.maxFiles > 1 ? 's' : ''}.`);
  if (list.some((f) => f.size > field.maxSizeMb * 1024 * 1024)) return fail('file_too_large', `Each file can be at most ${field.maxSizeMb} MB.`);
  if (!list.every((f) => accepts(field.accept, f))) return fail('file_type_not_accepted', `Upload a file of type ${field.accept.join(', ')}.`);
  return ok(list);
}

/**
 * Checks and normalizes one answer. Blank input (undefined, null, whitespace, []) is `value: undefined`: not
 * answered. Whether a required field was answered is the caller's concern (it knows which steps were shown).
 */
export function coerceAnswer(field: Field, raw: unknown): CoerceResult {
  if (field.type === 'statement' || field.type === 'payment') return fail('not_answerable', 'This field takes no answer.');
  if (isBlank(raw)) return ok(undefined);
  switch (field.type) {
    case 'text':
    case 'long_text':
      return text(raw, field.minLength, field.maxLength ?? DEFAULT_MAX_LENGTH[field.type]);
    case 'email': {
      const value = asText(raw)?.trim().toLowerCase() ?? '';
      return isEmail(value) ? ok(value) : fail('invalid_email', 'Enter a valid email address.');
    }
    case 'url':
      return url(raw);
    case 'phone': {
      const value = typeof raw === 'string' ? toE164(raw, field.defaultCountry) : undefined;
      if (value) return ok(value);
      return fail('invalid_phone', field.defaultCountry ? 'Enter a valid phone number.' : 'Enter a phone number with its country code, e.g. +1 555 123 4567.');
    }
    case 'number':
      return number(raw, field);
    case 'date':
      return date(raw, field);
    case 'time':
      return time(raw);
    case 'single_choice':
    case 'dropdown':
      return singleChoice(raw, field);
    case 'multiple_choice':
      return multipleChoice(raw, field);
    case 'ranking':
      return ranking(raw, field.options);
    case 'checkbox':
      return checkbox(raw);
    case 'rating':
      return scale(raw, 1, field.max);
    case 'opinion_scale':
      return scale(raw, field.min, field.max);
    case 'nps':
      return scale(raw, 0, 10);
    case 'signature':
      return signature(raw);
    case 'file_upload':
      return files(raw, field);
    case 'hidden': {
      if (field.dataType === 'text') return text(raw, undefined, OTHER_MAX);
      const value = asNumber(raw);
      return value === undefined ? fail('invalid_number', 'Expected a number.') : ok(value);
    }
  }
}

/** Whether a stored answer holds something: not undefined, null, an empty string or an empty list. */
export function isAnswered(value: AnswerValue | null | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  return !Array.isArray(value) || value.length > 0;
}

/** An answer as display text: option labels for choices, Yes/No for a checkbox, file names for uploads. */
export function answerToText(field: Field, value: AnswerValue | undefined): string {
  if (value === undefined) return '';
  const label = (v: string) => ('options' in field ? (field.options.find((o) => o.value === v)?.label ?? v) : v);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field.type === 'signature') return 'Signed';
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? label(item) : item.fileName)).join(', ');
  return typeof value === 'string' ? label(value) : String(value);
}
