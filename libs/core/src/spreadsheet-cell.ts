/** Characters a spreadsheet reads as the start of a formula (or that hide one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text for a spreadsheet or CSV cell, neutralised against formula injection: text starting with `=`, `+`, `-`, `@`,
 * tab or carriage return gets a leading single quote (OWASP's advice; the quote stays visible and survives a save as
 * CSV). Numbers written as numbers need nothing.
 */
export function spreadsheetSafeText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
