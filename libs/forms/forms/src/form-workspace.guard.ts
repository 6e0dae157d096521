import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from '@shared/auth';
import { findUnstorableInput } from '@shared/errors';
import type { Permission } from './workspace-roles';
import { FormsWorkspaceContext, WorkspaceContextResolver } from './workspace-context';

const FORM_WORKSPACE = 'forms:form-workspace';

interface Requirement {
  permission: Permission;
  /** Resolve through the published-form and membership caches rather than one live read. */
  cached: boolean;
}

interface ResolvingRequest {
  user: Principal;
  params: Record<string, string | undefined>;
  formsWorkspace?: FormsWorkspaceContext;
}

const resolvedWorkspace = createParamDecorator((_: unknown, context: ExecutionContext): FormsWorkspaceContext => {
  const workspace = context.switchToHttp().getRequest<ResolvingRequest>().formsWorkspace;
  if (!workspace) throw new Error('FormWorkspaceGuard did not resolve a workspace for this route');
  return workspace;
});

function requiring(requirement: Requirement): ParameterDecorator {
  return (target, method, index) => {
    // Kept on the handler, where FormWorkspaceGuard reads it.
    Reflect.defineMetadata(FORM_WORKSPACE, requirement, (target as Record<string | symbol, object>)[method as string | symbol]);
    resolvedWorkspace()(target, method, index);
  };
}

/** Injects the workspace of the route's `:form_id`, with the caller's role checked against `permission`. */
export const FormWorkspace = (permission: Permission): ParameterDecorator => requiring({ permission, cached: false });

/** As FormWorkspace, resolved through the caches (the submission hot path). */
export const CachedFormWorkspace = (permission: Permission): ParameterDecorator => requiring({ permission, cached: true });

/**
 * Resolves the workspace of routes with a FormWorkspace parameter before the handler runs (after authentication,
 * scopes and rate limits): 404 `form_not_found` when the form is missing or in another workspace, 403 when the role
 * falls short. Other routes pass.
 */
@Injectable()
export class FormWorkspaceGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: WorkspaceContextResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.get<Requirement | undefined>(FORM_WORKSPACE, context.getHandler());
    if (!requirement) return true;
    const request = context.switchToHttp().getRequest<ResolvingRequest>();
    const formId = request.params.form_id ?? '';
    // What the validation pipe answers for an unstorable path parameter, before the id reaches a query.
    const unstorable = findUnstorableInput(formId, 'form_id');
    if (unstorable) throw unstorable;
    request.formsWorkspace = requirement.cached
      ? await this.resolver.forPublishedForm(request.user, formId, requirement.permission)
      : await this.resolver.forForm(request.user, formId, requirement.permission);
    return true;
  }
}
