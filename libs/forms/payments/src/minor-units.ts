import { code as currencyByCode } from 'currency-codes';

/** Supranational units of account in the ISO list: nobody pays in them. */
const UNITS_OF_ACCOUNT = new Set(['XDR', 'XSU', 'XUA']);

/**
 * The ISO 4217 minor-unit exponent of a currency (USD 2, JPY 0, KWD 3, CLF 4), from the `currency-codes` table of the
 * ISO list; null for codes that are no chargeable currency: unknown, not upper case, units of account, and the ISO
 * list's placeholder entries (metals, bond units, XTS, XXX), which it files under `Zz…` pseudo-countries.
 */
export function currencyMinorDigits(currency: string): number | null {
  const entry = currencyByCode(currency);
  if (!entry || entry.code !== currency || UNITS_OF_ACCOUNT.has(currency)) return null;
  if (entry.countries.every((country) => country.startsWith('Zz'))) return null;
  return Number.isInteger(entry.digits) ? entry.digits : null;
}
