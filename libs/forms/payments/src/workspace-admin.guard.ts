import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import { FormsWorkspaceContext, WorkspaceContextResolver } from '@forms/forms';
import type { Principal } from '@shared/auth';
import { findUnstorableInput } from '@shared/errors';

interface AdminRequest {
  user: Principal;
  params: Record<string, string | undefined>;
  adminWorkspace?: FormsWorkspaceContext;
}

/**
 * The route's `:workspace_id`, for a caller who is an owner (the workspace admin) there: 404 `workspace_not_found`
 * for a workspace the caller is not a member of, 403 `insufficient_role` for an editor or viewer. Today the caller is
 * the forms bearer credential's owner; the signed-in app session will resolve to the same principal.
 */
@Injectable()
export class WorkspaceAdminGuard implements CanActivate {
  constructor(private readonly resolver: WorkspaceContextResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AdminRequest>();
    const workspaceId = request.params.workspace_id ?? '';
    const unstorable = findUnstorableInput(workspaceId, 'workspace_id');
    if (unstorable) throw unstorable;
    const [workspace] = await this.resolver.forList(request.user, workspaceId || '-');
    if (workspace.role !== 'owner') {
      throw FormsErrors.fail('insufficient_role', `Your ${workspace.role} role in this workspace does not allow this; the owner role is needed.`, {
        extra: { role: workspace.role, required_roles: ['owner'] },
      });
    }
    request.adminWorkspace = workspace;
    return true;
  }
}

/** The workspace WorkspaceAdminGuard resolved for this request. */
export const AdminWorkspace = createParamDecorator((_: unknown, context: ExecutionContext): FormsWorkspaceContext => {
  const workspace = context.switchToHttp().getRequest<AdminRequest>().adminWorkspace;
  if (!workspace) throw new Error('WorkspaceAdminGuard did not run for this route');
  return workspace;
});
