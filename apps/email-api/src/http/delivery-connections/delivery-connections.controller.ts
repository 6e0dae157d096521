import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import { PageQueryDto } from '@shared/pagination';
import {
  ConnectionListDto,
  ConnectionResponseDto,
  ConnectionSendLimitsResponseDto,
  ConnectionSendLimitsUpdateRequestDto,
  ConnectionService,
  ConnectionStatusRequestDto,
  ConnectionTestRequestDto,
  ConnectionTestResultResponseDto,
  ConnectionUpdateRequestDto,
  ConnectionVerificationResponseDto,
} from '@email/delivery';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

const TAG = 'Email Delivery Connections';

@ApiTags(TAG)
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/email-delivery-connections')
export class DeliveryConnectionsController {
  constructor(private readonly connections: ConnectionService) {}

  @Get()
  @RequireScopes('email_delivery_connections:read')
  @ApiOperation({ operationId: 'listEmailDeliveryConnections', summary: 'List email delivery connections' })
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: ConnectionListDto })
  list(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Query() query: PageQueryDto): Promise<ConnectionListDto> {
    return this.connections.list(workspace.workspaceId, query);
  }

  @Get(':connection_id')
  @RequireScopes('email_delivery_connections:read')
  @ApiOperation({ operationId: 'getEmailDeliveryConnection', summary: 'Get an email delivery connection' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: ConnectionResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('connection_id') id: string): Promise<ConnectionResponseDto> {
    return { data: await this.connections.get(workspace.workspaceId, id) };
  }

  @Patch(':connection_id')
  @RequireScopes('email_delivery_connections:write')
  @ApiOperation({ operationId: 'updateEmailDeliveryConnection', summary: 'Update an email delivery connection' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: ConnectionResponseDto })
  async update(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('connection_id') id: string,
    @Body() body: ConnectionUpdateRequestDto,
  ): Promise<ConnectionResponseDto> {
    return { data: await this.connections.update(workspace.workspaceId, id, body) };
  }

  @Delete(':connection_id')
  @HttpCode(204)
  @RequireScopes('email_delivery_connections:write')
  @ApiOperation({ operationId: 'deleteEmailDeliveryConnection', summary: 'Delete an email delivery connection' })
  @ApiErrorResponses(404, 409)
  @ApiNoContentResponse()
  async delete(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('connection_id') id: string): Promise<void> {
    await this.connections.delete(workspace.workspaceId, id);
  }

  @Put(':connection_id/status')
  @RequireScopes('email_delivery_connections:write')
  @ApiOperation({ operationId: 'updateEmailDeliveryConnectionStatus', summary: 'Enable or disable an email delivery connection' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: ConnectionResponseDto })
  async setStatus(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('connection_id') id: string,
    @Body() body: ConnectionStatusRequestDto,
  ): Promise<ConnectionResponseDto> {
    return { data: await this.connections.setEnabled(workspace.workspaceId, id, body.enabled) };
  }

  @Post(':connection_id/verify')
  @HttpCode(200)
  @RequireScopes('email_delivery_connections:write')
  @ApiOperation({ operationId: 'verifyEmailDeliveryConnection', summary: 'Verify an email delivery connection' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: ConnectionVerificationResponseDto })
  async verify(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('connection_id') id: string): Promise<ConnectionVerificationResponseDto> {
    return { data: await this.connections.verify(workspace.workspaceId, id) };
  }

  @Post(':connection_id/test')
  @HttpCode(200)
  @Idempotent({ required: true })
  @RequireScopes('live_actions:write', 'email_delivery_connections:write')
  @ApiOperation({ operationId: 'testEmailDeliveryConnection', summary: 'Send an email delivery connection test' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: ConnectionTestResultResponseDto })
  async test(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('connection_id') id: string,
    @Body() body: ConnectionTestRequestDto,
  ): Promise<ConnectionTestResultResponseDto> {
    return { data: await this.connections.sendTest(workspace.workspaceId, id, body.to) };
  }

  @Get(':connection_id/send-limits')
  @ApiExtension('x-postline-extension', true)
  @RequireScopes('email_delivery_connections:read')
  @ApiOperation({
    operationId: 'getEmailDeliveryConnectionSendLimits',
    summary: "Get an email delivery connection's send limits",
    description: 'Postline extension: the rate, concurrency and daily quota the send worker holds this connection to.',
  })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: ConnectionSendLimitsResponseDto })
  async sendLimits(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('connection_id') id: string): Promise<ConnectionSendLimitsResponseDto> {
    return { data: await this.connections.sendLimits(workspace.workspaceId, id) };
  }

  @Put(':connection_id/send-limits')
  @ApiExtension('x-postline-extension', true)
  @RequireScopes('email_delivery_connections:write')
  @ApiOperation({
    operationId: 'updateEmailDeliveryConnectionSendLimits',
    summary: "Set an email delivery connection's send limits",
    description:
      "Postline extension: a number sets the connection's own limit, null returns it to the provider's default. Running sends pick the change up within seconds.",
  })
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: ConnectionSendLimitsResponseDto })
  async updateSendLimits(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('connection_id') id: string,
    @Body() body: ConnectionSendLimitsUpdateRequestDto,
  ): Promise<ConnectionSendLimitsResponseDto> {
    return { data: await this.connections.updateSendLimits(workspace.workspaceId, id, body) };
  }
}
