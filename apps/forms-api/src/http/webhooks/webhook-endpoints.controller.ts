import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScopes } from '@shared/auth';
import {
  WebhookEndpointCreateDto,
  WebhookEndpointDeletedDto,
  WebhookEndpointListDto,
  WebhookEndpointResponseDto,
  WebhookEndpointSecretDto,
  WebhookEndpointService,
  WebhookEndpointUpdateDto,
} from '@forms/webhooks';

/**
 * A workspace's webhook endpoints, under the workspace-administration paths (`/api/workspaces/{workspace_id}/…`, like
 * the payment integrations), outside the `/api/v1` schema pack. Workspace owners only; the key needs
 * `submissions:read`, since an endpoint receives every submission's answers.
 */
@ApiExcludeController()
@Controller('api/workspaces/:workspace_id/webhooks')
@RequireScopes('submissions:read')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointService) {}

  @Get()
  async list(@CurrentPrincipal() principal: Principal, @Param('workspace_id') workspaceId: string): Promise<WebhookEndpointListDto> {
    return { data: await this.endpoints.list(principal, workspaceId), next_cursor: null };
  }

  @Post()
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('workspace_id') workspaceId: string,
    @Body() body: WebhookEndpointCreateDto,
  ): Promise<WebhookEndpointSecretDto> {
    return this.endpoints.create(principal, workspaceId, body);
  }

  @Get(':endpoint_id')
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('workspace_id') workspaceId: string,
    @Param('endpoint_id') id: string,
  ): Promise<WebhookEndpointResponseDto> {
    return { data: await this.endpoints.get(principal, workspaceId, id) };
  }

  @Patch(':endpoint_id')
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('workspace_id') workspaceId: string,
    @Param('endpoint_id') id: string,
    @Body() body: WebhookEndpointUpdateDto,
  ): Promise<WebhookEndpointResponseDto> {
    return { data: await this.endpoints.update(principal, workspaceId, id, body) };
  }

  @Delete(':endpoint_id')
  delete(
    @CurrentPrincipal() principal: Principal,
    @Param('workspace_id') workspaceId: string,
    @Param('endpoint_id') id: string,
  ): Promise<WebhookEndpointDeletedDto> {
    return this.endpoints.delete(principal, workspaceId, id);
  }

  @Post(':endpoint_id/rotate-secret')
  @HttpCode(200)
  rotateSecret(
    @CurrentPrincipal() principal: Principal,
    @Param('workspace_id') workspaceId: string,
    @Param('endpoint_id') id: string,
  ): Promise<WebhookEndpointSecretDto> {
    return this.endpoints.rotateSecret(principal, workspaceId, id);
  }
}
