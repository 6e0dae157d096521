import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json';
import { EmailErrors } from '@email/contracts';

countries.registerLocale(english);

/**
 * Saves a country as its ISO 3166-1 alpha-2 code: accepts the code itself (any case), an alpha-3 code
 * or an English name ("Germany", "United States"). Anything else is a 400 naming the field.
 */
export function toCountryCode(input: string, field = 'country'): string {
  const value = input.trim();
  const upper = value.toUpperCase();
  if (/^[A-Z]{2}$/.test(upper) && countries.isValid(upper)) return upper;
  if (/^[A-Z]{3}$/.test(upper) && countries.alpha3ToAlpha2(upper)) return countries.alpha3ToAlpha2(upper)!;
  const byName = countries.getAlpha2Code(value, 'en');
  if (byName) return byName;
  throw EmailErrors.invalid('invalid_country', `"${value}" is not a country name or ISO 3166 code.`, field);
}
