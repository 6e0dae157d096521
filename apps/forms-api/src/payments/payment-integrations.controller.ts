import { Body, Controller, Delete, Get, Param, Put, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public, RequireScopes, ScopeGuard } from '@shared/auth';
import { RateLimitGuard } from '@shared/rate-limit';
import type { FormsWorkspaceContext } from '@forms/forms';
import { AlsoBearer, AppSessionGuard } from '@forms/oauth';
import { AdminWorkspace, PaymentIntegrations, PaymentsService, WorkspaceAdminGuard } from '@forms/payments';

/**
 * A workspace's payment-provider connections (app-session endpoints in the spec, outside the API-key schema pack).
 * The signed-in session (CSRF token in X-CSRF-Token on PUT and DELETE) or the forms bearer credential of a workspace
 * owner: WorkspaceAdminGuard is the one place that decides who is a workspace admin, whichever credential brought the
 * principal. The global scope and rate-limit guards ran before the credential was known, so both run here again: a
 * bearer credential needs `forms:read` to read the connection and `forms:publish` to change it (it changes what live
 * forms collect, see docs/decisions.md); the session holds every scope.
 */
@ApiExcludeController()
@Public()
@AlsoBearer()
@UseGuards(AppSessionGuard, ScopeGuard, RateLimitGuard, WorkspaceAdminGuard)
@Controller('api/workspaces/:workspace_id/integrations/:provider')
export class PaymentIntegrationsController {
  constructor(
    private readonly integrations: PaymentIntegrations,
    private readonly payments: PaymentsService,
  ) {}

  @Put()
  @RequireScopes('forms:publish')
  async put(@AdminWorkspace() workspace: FormsWorkspaceContext, @Param('provider') provider: string, @Body() body: unknown) {
    return { data: await this.integrations.put(workspace.workspaceId, this.payments.providerNamed(provider), body) };
  }

  @Get()
  @RequireScopes('forms:read')
  async get(@AdminWorkspace() workspace: FormsWorkspaceContext, @Param('provider') provider: string) {
    return { data: await this.integrations.get(workspace.workspaceId, this.payments.providerNamed(provider)) };
  }

  @Delete()
  @RequireScopes('forms:publish')
  delete(@AdminWorkspace() workspace: FormsWorkspaceContext, @Param('provider') provider: string) {
    return this.integrations.delete(workspace.workspaceId, this.payments.providerNamed(provider));
  }
}
