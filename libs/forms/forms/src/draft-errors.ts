import { DraftEditCode, FormsErrors } from '@forms/contracts';
import { DraftEditConflict, DraftEditError, DraftIssue } from '@forms/draft-schema';
import type { DomainError } from '@shared/errors';

const joinPath = (prefix: string, path: string) => (!prefix ? path : !path ? prefix : path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`);

/** 400 for a draft that does not validate: names the first problem and lists them all in `issues`. */
export function invalidDraft(
  issues: DraftIssue[],
  prefix: string,
  code: DraftEditCode | 'invalid_draft_schema' | 'draft_not_publishable' = 'invalid_draft_schema',
): DomainError {
  const listed = issues.map((issue) => ({ ...issue, path: joinPath(prefix, issue.path) }));
  const [first] = listed;
  return FormsErrors.fail(code, `${first.path ? `${first.path}: ` : ''}${first.message}`, {
    details: { field: first.path, reason: first.code },
    extra: { issues: listed },
  });
}

/** Maps an editing-operation failure (paths relative to the request body) onto the envelope. */
export function fromEditError(error: DraftEditError): DomainError {
  if (error.status === 404) {
    const resource = error.code.replace(/_not_found$/, '');
    return FormsErrors.fail(error.code, error.message, { details: { resource: { type: resource, id: error.path } } });
  }
  if (error instanceof DraftEditConflict) {
    // The change is valid alone but would break another part of the draft; issues name those parts.
    const issues = error.issues?.map((issue) => ({ ...issue, path: joinPath('draftSchema', issue.path) }));
    return FormsErrors.failAs('conflict', error.code, error.message, {
      details: { field: joinPath('draftSchema', error.path) },
      extra: issues ? { issues } : {},
    });
  }
  if (error.issues?.length) return invalidDraft(error.issues, '', error.code);
  return FormsErrors.fail(error.code, error.message, { details: error.path ? { field: error.path, reason: error.code } : { reason: error.code } });
}

export function staleRevision(current: number, sent: number): DomainError {
  return FormsErrors.fail(
    'stale_draft_revision',
    `The draft is at revision ${current}, not ${sent}. Reload the form, reapply your change and send the current draft_revision.`,
    { details: { field: 'draft_revision' }, extra: { current_draft_revision: current } },
  );
}

/** 413 for a draft body over FORMS_MAX_DRAFT_BYTES, raised before the body is parsed. */
export function draftTooLarge(maxBytes: number): DomainError {
  return FormsErrors.fail(
    'draft_too_large',
    `The draft is larger than ${maxBytes} bytes of JSON, the most a draft may be. Split long option lists or texts across forms.`,
    { details: { field: 'draftSchema', reason: 'draft_too_large' }, extra: { max_draft_bytes: maxBytes } },
  );
}
