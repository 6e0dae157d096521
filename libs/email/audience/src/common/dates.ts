import { EmailErrors } from '@email/contracts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day in YYYY-MM-DD form, as a UTC midnight Date; 400 naming `field` otherwise. */
export function parseCalendarDate(value: string, field: string): Date {
  const match = DAY.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!date || date.toISOString().slice(0, 10) !== value) {
    throw EmailErrors.invalid('invalid_date', `"${field}" must be a calendar date in YYYY-MM-DD form.`, field);
  }
  return date;
}

/** ISO 8601 date-time with an explicit offset (Z or ±hh:mm) and a real calendar day. */
const OFFSET_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/**
 * The contract's pattern for the same thing, leap days included; it needs seconds. Everything it matches,
 * isOffsetDateTime accepts (a test holds this), so documenting it promises nothing we refuse.
 */
export const CONTRACT_OFFSET_DATE_TIME =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

export function isOffsetDateTime(value: string): boolean {
  const match = OFFSET_DATE_TIME.exec(value);
  if (!match) return false;
  try {
    parseCalendarDate(match[1], 'date');
    return true;
  } catch {
    return false;
  }
}
