/** A minor-unit amount as money text (`$12.50`); amounts are hundredths, as `paymentAmount` computes them. */
export function formatMoney(minor: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}
