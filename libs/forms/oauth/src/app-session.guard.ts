import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { BearerStrategy, Principal } from '@shared/auth';
import { ActiveBrowserSession, BrowserSessions } from '@shared/browser-session';
import { FormsErrors } from '@forms/contracts';
import { FORMS_SCOPES } from '@forms/accounts';
import { FORMS_OAUTH } from './oauth-settings';

export const APP_SESSION_CREDENTIAL_TYPE = 'app_session';
const ALSO_BEARER = 'forms:app-session-also-bearer';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The route also takes the forms bearer credential (API key or OAuth token) when an Authorization header is sent. */
export const AlsoBearer = () => SetMetadata(ALSO_BEARER, true);

/** The signed-in person as a principal: the owner themselves, every scope (their live role in each workspace still applies). */
export function sessionPrincipal(session: ActiveBrowserSession): Principal {
  return {
    credentialType: APP_SESSION_CREDENTIAL_TYPE,
    credentialId: session.id,
    subjectId: session.userId,
    scopes: FORMS_SCOPES,
    expiresAt: session.expiresAt,
    credential: null,
  };
}

/**
 * Authenticates an app-session route (mark it @Public() so the global bearer guard leaves it alone): the signed-in
 * session cookie gives the owner's principal, and every unsafe request must carry the session's CSRF token in the
 * `X-CSRF-Token` header (a custom header no cross-site form can send, holding a value no other site can read; a JS app
 * reads it from GET /api/session). With @AlsoBearer(), an Authorization header is verified as on any API route instead.
 * The owner's membership and role are checked by the route's workspace resolution, as for any principal.
 */
@Injectable()
export class AppSessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly modules: ModuleRef,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const alsoBearer = this.reflector.getAllAndOverride<boolean | undefined>(ALSO_BEARER, [context.getHandler(), context.getClass()]);
    if (alsoBearer && request.headers.authorization) {
      // Resolved app-wide: the guard runs in whichever module declares the route, and AuthModule lives in the app's root.
      request.user = await this.modules.get(BearerStrategy, { strict: false }).verifyAuthorization(request.ip, request.headers.authorization);
      return true;
    }
    const sessions = this.modules.get(BrowserSessions, { strict: false });
    const session = await sessions.current(request);
    if (!session) throw FormsErrors.fail('sign_in_required', 'Sign in at /account/sign-in first; this endpoint works in a signed-in browser session.');
    if (!SAFE_METHODS.has(request.method) && !sessions.verifyCsrf(request, request.headers[FORMS_OAUTH.csrfHeader]))
      throw FormsErrors.fail('csrf_token_invalid', 'Send the session’s CSRF token (from GET /api/session) in the X-CSRF-Token header.');
    request.user = sessionPrincipal(session);
    return true;
  }
}
