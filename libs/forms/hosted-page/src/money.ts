/** A minor-unit amount as money text (`$12.50`, `¥1,500`, `KWD 1.250`), given the currency's ISO 4217 exponent. */
export function formatMoney(minor: number, currency: string, minorDigits: number): string {
  const major = minor / 10 ** minorDigits;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: minorDigits, maximumFractionDigits: minorDigits }).format(major);
  } catch {
    return `${major.toFixed(minorDigits)} ${currency}`;
  }
}
