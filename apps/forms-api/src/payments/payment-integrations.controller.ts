import { Body, Controller, Delete, Get, Param, Put, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { RateLimitGuard } from '@shared/rate-limit';
import type { FormsWorkspaceContext } from '@forms/forms';
import { AlsoBearer, AppSessionGuard } from '@forms/oauth';
import { AdminWorkspace, PaymentIntegrations, PaymentsService, WorkspaceAdminGuard } from '@forms/payments';

/**
 * A workspace's payment-provider connections (app-session endpoints in the spec, outside the API-key schema pack).
 * The signed-in session (CSRF token in X-CSRF-Token on PUT and DELETE) or the forms bearer credential of a workspace
 * owner: WorkspaceAdminGuard is the one place that decides who is a workspace admin, whichever credential brought the
 * principal. The rate limit counts here, once the credential is known.
 */
@ApiExcludeController()
@Public()
@AlsoBearer()
@UseGuards(AppSessionGuard, RateLimitGuard, WorkspaceAdminGuard)
@Controller('api/workspaces/:workspace_id/integrations/:provider')
export class PaymentIntegrationsController {
  constructor(
    private readonly integrations: PaymentIntegrations,
    private readonly payments: PaymentsService,
  ) {}

  @Put()
  async put(@AdminWorkspace() workspace: FormsWorkspaceContext, @Param('provider') provider: string, @Body() body: unknown) {
    return { data: await this.integrations.put(workspace.workspaceId, this.payments.providerNamed(provider), body) };
  }

  @Get()
  async get(@AdminWorkspace() workspace: FormsWorkspaceContext, @Param('provider') provider: string) {
    return { data: await this.integrations.get(workspace.workspaceId, this.payments.providerNamed(provider)) };
  }

  @Delete()
  delete(@AdminWorkspace() workspace: FormsWorkspaceContext, @Param('provider') provider: string) {
    return this.integrations.delete(workspace.workspaceId, this.payments.providerNamed(provider));
  }
}
