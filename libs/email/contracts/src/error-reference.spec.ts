import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { renderErrorReference } from '@shared/errors';
import { EMAIL_ERROR_CODES } from './errors';

const DOC = 'docs/errors/email.md';
const FIX = 'UPDATE_ERROR_DOCS=1 npm run test:unit -- error-reference';
const file = path.resolve(__dirname, '../../../..', DOC);

const INTRO = [
  'Every error the email API (`/v1`) answers with has the envelope `{"error":{"type","code","message","details"?}}`.',
  'Clients branch on `code`; `type` groups codes and fixes the HTTP status. No other codes are returned.',
].join(' ');

describe('the email error reference', () => {
  const expected = renderErrorReference('Email API error codes', INTRO, EMAIL_ERROR_CODES);

  it(`${DOC} is generated from EMAIL_ERROR_CODES`, () => {
    if (process.env.UPDATE_ERROR_DOCS === '1') {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, expected);
    }
    const actual = readFileSync(file, 'utf8');
    try {
      expect(actual).toBe(expected);
    } catch (error) {
      throw new Error(`${DOC} is out of date: run \`${FIX}\`.\n\n${(error as Error).message}`, { cause: error });
    }
  });
});
