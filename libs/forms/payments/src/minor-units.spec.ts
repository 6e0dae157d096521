import { currencyMinorDigits } from './minor-units';

describe('currencyMinorDigits', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['INR', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['CLP', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['TND', 3],
    ['CLF', 4],
    ['XOF', 0],
  ])('%s has %i', (currency, digits) => {
    expect(currencyMinorDigits(currency)).toBe(digits);
  });

  it.each(['ABC', 'XXX', 'XTS', 'XAU', 'XDR', 'usd', ''])('%s is no chargeable currency', (currency) => {
    expect(currencyMinorDigits(currency)).toBeNull();
  });
});
