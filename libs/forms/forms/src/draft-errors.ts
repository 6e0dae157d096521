import { DraftEditError, DraftIssue } from '@forms/draft-schema';
import { Conflict, DomainError } from '@shared/errors';

const joinPath = (prefix: string, path: string) => (!prefix ? path : !path ? prefix : path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`);

/** 400 for a draft that does not validate: names the first problem and lists them all in `issues`. */
export function invalidDraft(issues: DraftIssue[], prefix: string, code = 'invalid_draft_schema'): DomainError {
  const listed = issues.map((issue) => ({ ...issue, path: joinPath(prefix, issue.path) }));
  const [first] = listed;
  return new DomainError('invalid_request', code, `${first.path ? `${first.path}: ` : ''}${first.message}`, { field: first.path, reason: first.code }, { issues: listed });
}

/** Maps an editing-operation failure (paths relative to the request body) onto the envelope. */
export function fromEditError(error: DraftEditError): DomainError {
  if (error.status === 404) {
    const resource = error.code.replace(/_not_found$/, '');
    return new DomainError('not_found', error.code, error.message, { resource: { type: resource, id: error.path } });
  }
  if (error.status === 409) {
    // The change is valid alone but would break another part of the draft; issues name those parts.
    const issues = error.issues?.map((issue) => ({ ...issue, path: joinPath('draftSchema', issue.path) }));
    return Conflict(error.code, error.message, { field: joinPath('draftSchema', error.path) }, issues ? { issues } : {});
  }
  if (error.issues?.length) return invalidDraft(error.issues, '', error.code);
  return new DomainError('invalid_request', error.code, error.message, error.path ? { field: error.path, reason: error.code } : { reason: error.code });
}

export function staleRevision(current: number, sent: number): DomainError {
  return Conflict(
    'stale_draft_revision',
    `The draft is at revision ${current}, not ${sent}. Reload the form, reapply your change and send the current draft_revision.`,
    { field: 'draft_revision' },
    { current_draft_revision: current },
  );
}

/** 413 for a draft body over FORMS_MAX_DRAFT_BYTES, raised before the body is parsed. */
export function draftTooLarge(maxBytes: number): DomainError {
  return new DomainError(
    'invalid_request',
    'draft_too_large',
    `The draft is larger than ${maxBytes} bytes of JSON, the most a draft may be. Split long option lists or texts across forms.`,
    { field: 'draftSchema', reason: 'draft_too_large' },
    { max_draft_bytes: maxBytes },
    413,
  );
}
