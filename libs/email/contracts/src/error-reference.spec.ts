import { renderErrorReference } from '@shared/errors';
import { expectGeneratedDoc } from '@shared/testing';
import { EMAIL_ERROR_CODES } from './errors';

const INTRO = [
  'Every error the email API (`/v1`) answers with has the envelope `{"error":{"type","code","message","details"?}}`.',
  'Clients branch on `code`; `type` groups codes and fixes the HTTP status. No other codes are returned.',
].join(' ');

it('docs/errors/email.md is generated from EMAIL_ERROR_CODES', () => {
  expectGeneratedDoc('docs/errors/email.md', renderErrorReference('Email API error codes', INTRO, EMAIL_ERROR_CODES));
});
