import { spreadsheetSafeText } from './spreadsheet-cell';

describe('spreadsheetSafeText', () => {
  it('quotes text a spreadsheet would read as a formula, and nothing else', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(spreadsheetSafeText(text)).toBe(`'${text}`);
    for (const text of ['plain', ' =not first', 'a=b', '', '1.5']) expect(spreadsheetSafeText(text)).toBe(text);
  });
});
