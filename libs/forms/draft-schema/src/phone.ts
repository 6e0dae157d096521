/**
 * A lenient phone parser producing E.164 (`+4930123456`). Pure (bundled into the browser script).
 * It checks shape only (8–15 digits), not whether a number is allocated.
 */

/** Calling code and national trunk prefix per supported `defaultCountry`. */
export const COUNTRY_CALLING_CODES: Readonly<Record<string, { code: string; trunk: string }>> = Object.freeze({
  US: { code: '1', trunk: '1' },
  CA: { code: '1', trunk: '1' },
  GB: { code: '44', trunk: '0' },
  IE: { code: '353', trunk: '0' },
  DE: { code: '49', trunk: '0' },
  AT: { code: '43', trunk: '0' },
  CH: { code: '41', trunk: '0' },
  FR: { code: '33', trunk: '0' },
  BE: { code: '32', trunk: '0' },
  NL: { code: '31', trunk: '0' },
  ES: { code: '34', trunk: '' },
  PT: { code: '351', trunk: '' },
  IT: { code: '39', trunk: '' },
  SE: { code: '46', trunk: '0' },
  NO: { code: '47', trunk: '' },
  DK: { code: '45', trunk: '' },
  FI: { code: '358', trunk: '0' },
  PL: { code: '48', trunk: '' },
  AU: { code: '61', trunk: '0' },
  NZ: { code: '64', trunk: '0' },
  IN: { code: '91', trunk: '0' },
  SG: { code: '65', trunk: '' },
  JP: { code: '81', trunk: '0' },
  BR: { code: '55', trunk: '0' },
  MX: { code: '52', trunk: '' },
  ZA: { code: '27', trunk: '0' },
});

/** Returns the E.164 form, or undefined when the input is not a plausible phone number. */
export function toE164(input: string, defaultCountry?: string): string | undefined {
  const trimmed = input.trim();
  if (!/^[+0-9 ()./-]+$/.test(trimmed)) return undefined;
  let digits = trimmed.replace(/[^0-9]/g, '');
  let international = trimmed.startsWith('+');
  if (!international && digits.startsWith('00')) {
    digits = digits.slice(2);
    international = true;
  }
  if (!international) {
    const country = defaultCountry ? COUNTRY_CALLING_CODES[defaultCountry] : undefined;
    if (!country) return undefined;
    if (country.trunk && digits.startsWith(country.trunk)) digits = digits.slice(country.trunk.length);
    digits = country.code + digits;
  }
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : undefined;
}
