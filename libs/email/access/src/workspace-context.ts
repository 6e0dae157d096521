import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Principal } from '@shared/auth';
import { trustedWorkspaceId, WorkspaceContext } from '@shared/core';
import type { EmailCredential } from './credential-verifier';

/** The workspace an email request acts in, with the credential that established it. */
export interface EmailWorkspaceContext extends WorkspaceContext {
  readonly principal: Principal;
  readonly credential: EmailCredential;
}

function isEmailCredential(value: unknown): value is EmailCredential {
  const candidate = value as Partial<EmailCredential> | null;
  return typeof candidate?.view === 'object' && candidate.view !== null && typeof candidate.workspace?.id === 'string';
}

/** The context of a verified email principal: an email credential's subject is the workspace it was issued for. */
export function emailWorkspaceContext(principal: Principal): EmailWorkspaceContext {
  if (!isEmailCredential(principal.credential)) throw new Error(`Not an email credential: ${principal.credentialType}`);
  return { workspaceId: trustedWorkspaceId(principal.subjectId), principal, credential: principal.credential };
}

/** Injects the request's EmailWorkspaceContext (authenticated routes only). */
export const CurrentWorkspace = createParamDecorator((_: unknown, context: ExecutionContext): EmailWorkspaceContext => {
  const request = context.switchToHttp().getRequest<{ user?: Principal; emailWorkspace?: EmailWorkspaceContext }>();
  if (!request.user) throw new Error('@CurrentWorkspace() on a route without a verified principal');
  // Resolved once per request, however many parameters ask for it.
  request.emailWorkspace ??= emailWorkspaceContext(request.user);
  return request.emailWorkspace;
});
