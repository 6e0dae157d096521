import { SetMetadata, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Principal } from './principal';

export const PUBLIC_ROUTE = 'auth:public';
export const REQUIRED_SCOPES = 'auth:required-scopes';

/** The route needs no credential (metadata, health, public pages). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The credential must hold every listed scope. */
export const RequireScopes = (...scopes: string[]) => SetMetadata(REQUIRED_SCOPES, scopes);

/** Injects the verified principal into a handler parameter. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  return context.switchToHttp().getRequest<{ user: Principal }>().user;
});
