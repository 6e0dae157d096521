import type { DraftEditCode, DraftIssueCode } from '@forms/contracts';
import type { DraftIssue } from '../issues';

/**
 * Why an editing operation was refused.
 * - 400: the request is wrong; `path` is relative to the request body (`fields[0].options[1].label`, `step_ids`).
 * - 404 (`step_not_found`, `field_not_found`): `path` holds the id that was not found.
 * - 409 (DraftEditConflict): the change is valid on its own but would leave the rest of the draft invalid.
 */
export class DraftEditError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    readonly code: DraftEditCode,
    readonly path: string,
    message: string,
    readonly issues?: DraftIssue[],
  ) {
    super(message);
    this.name = 'DraftEditError';
  }
}

/** The edit would break another part of the draft: `code` and `path` are the first issue's, `issues` paths are relative to the draft root. */
export class DraftEditConflict extends DraftEditError {
  declare readonly code: DraftIssueCode;

  constructor(issues: DraftIssue[], message: string) {
    super(409, issues[0].code, issues[0].path, message, issues);
  }
}

export const badRequest = (code: DraftEditCode, path: string, message: string) => new DraftEditError(400, code, path, message);
export const stepNotFound = (stepId: string) => new DraftEditError(404, 'step_not_found', stepId, `No step has the id "${stepId}".`);
export const fieldNotFound = (fieldId: string) => new DraftEditError(404, 'field_not_found', fieldId, `No field has the id "${fieldId}".`);
