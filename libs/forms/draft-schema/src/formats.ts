/**
 * Format checks shared by the validator and the answer coercion. Pure: no zod, no node modules
 * (answers.ts, which uses these, is bundled into the hosted form's browser script).
 */

/** Stable ids: what the service mints (`fld_01H…`) and what clients may choose. Safe in URL paths. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const HIDDEN_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
/** Font family names go into CSS, so only plain name characters. */
export const FONT_FAMILY_PATTERN = /^[A-Za-z0-9 _-]{1,100}$/;
/** CSS gradients without anything that could close the declaration or load a resource. */
export const GRADIENT_PATTERN = /^(repeating-)?(linear|radial|conic)-gradient\([^;{}<>\\"'`]*\)$/;
/** File-upload `accept` entries: a MIME type (`image/png`, `image/*`) or an extension (`.pdf`). */
export const ACCEPT_PATTERN = /^(\.[a-z0-9]{1,10}|[a-z]+\/([a-z0-9.+-]+|\*))$/;
export const COLOR_PATTERN = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}$/;

export const isColor = (value: string): boolean => COLOR_PATTERN.test(value);
export const isTime = (value: string): boolean => TIME_PATTERN.test(value);

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value) && !value.includes('..');
}

/** An absolute http(s) URL (rejects `javascript:`, `data:` and relative URLs). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** `YYYY-MM-DD` naming a real calendar day. */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
