import { SharedErrors } from '@shared/errors';

export interface KeyRequest {
  scopes: string[];
  name?: string;
  expiresAt?: Date | null;
}

/** Rejects a key request with no scopes, an unknown scope, or an expiry that is not in the future. */
export function assertValidKeyRequest(request: KeyRequest, isKnownScope: (scope: string) => boolean, now: Date): void {
  const unknown = request.scopes.filter((s) => !isKnownScope(s));
  if (unknown.length) throw SharedErrors.invalid('unknown_scope', `Unknown scope(s): ${unknown.join(', ')}.`, 'scopes');
  if (!request.scopes.length) throw SharedErrors.invalid('validation_failed', 'At least one scope is required.', 'scopes');
  if (request.expiresAt && request.expiresAt.getTime() <= now.getTime()) {
    throw SharedErrors.invalid('validation_failed', 'expires_at must be in the future.', 'expires_at');
  }
}
