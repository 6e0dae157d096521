import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { SharedErrors } from '@shared/errors';
import { CREDENTIAL_VERIFIER, CredentialVerifier, Principal } from './principal';
import { PUBLIC_ROUTE, REQUIRED_SCOPES } from './decorators';

const BEARER = /^Bearer\s+(\S+)$/i;

/** The credential of an Authorization header, or the 401 a missing or malformed one gets. */
export function bearerToken(header: string | undefined): string {
  if (!header) throw SharedErrors.fail('missing_credential', 'Send your credential as "Authorization: Bearer <key>".');
  const match = BEARER.exec(header);
  if (!match) throw SharedErrors.fail('invalid_credential', 'The Authorization header must be "Bearer <key>".');
  return match[1];
}

/** Authenticates every route not marked @Public() with `Authorization: Bearer <credential>`. */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    bearerToken(context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization);
    return super.canActivate(context);
  }

  override handleRequest<T>(error: unknown, principal: T): T {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- passport hands over the strategy's error as it came
    if (error) throw error;
    if (!principal) throw SharedErrors.fail('invalid_credential', 'The credential is not valid.');
    return principal;
  }
}

/** Checks the scopes declared with @RequireScopes() against the authenticated principal. */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CREDENTIAL_VERIFIER) private readonly verifier: CredentialVerifier,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<string[] | undefined>(REQUIRED_SCOPES, [context.getHandler(), context.getClass()]);
    if (!required?.length) return true;
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
    if (!principal) return true; // public route: nothing to check
    const missing = required.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length) throw this.verifier.insufficientScope(principal, required, missing);
    return true;
  }
}
