import { renderErrorReference } from '@shared/errors';
import { expectGeneratedDoc } from '@shared/testing';
import { FORMS_ERROR_CODES } from './errors';

const INTRO = [
  'Every error from `/api/v1` and the public form endpoints has the body `{"error":{"type","code","message","details"?,…}}`, the envelope of the email service too.',
  '',
  '- Branch on `code`, which is stable, not on `message`, which is written for people. `type` fixes the status unless the table gives another.',
  '- `details.field` names the request member at fault as a path (`draftSchema.steps[1].fields[0].options`, `values.fld_email`, `step_ids`), `details.reason` what was wrong with it, `details.resource` the resource that was not found.',
  '- Refused drafts and answers may carry `issues`: every problem found, each `{ path, code, message }`, with the codes below.',
  '- A draft edit (step, field, logic, design) refused for a draft problem answers that problem’s code: 400 when it lies in the request body, 409 `conflict` when the edit is valid alone but would break another part of the draft (`issues` name those parts).',
  '- A 429 or 503 carries `Retry-After` (seconds). The hosted page (`GET /f/{public_id}`) answers its 429 as an HTML page, not as JSON.',
  '- Errors Node answers before a request is read (408, 431, 400 `malformed_request`) have the same body but close the connection and carry no request id.',
].join('\n');

it('docs/errors/forms.md is generated from FORMS_ERROR_CODES', () => {
  expectGeneratedDoc('docs/errors/forms.md', renderErrorReference('Forms API errors', INTRO, FORMS_ERROR_CODES));
});
