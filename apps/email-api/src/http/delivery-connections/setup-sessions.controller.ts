import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { SetupRequestDto, SetupSessionResponseDto, SetupSessionService } from '@email/delivery';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

/** Setup sessions need the write scope even to read: their status tells whether credentials were just entered. */
@ApiTags('Email Delivery Connections')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/email-delivery-connection-setup-sessions')
export class SetupSessionsController {
  constructor(private readonly sessions: SetupSessionService) {}

  @Post()
  @RequireScopes('email_delivery_connections:write')
  @ApiOperation({ operationId: 'startEmailDeliveryConnectionSetup', summary: 'Start secure email delivery connection setup' })
  @ApiErrorResponses(400)
  @ApiCreatedResponse({ type: SetupSessionResponseDto })
  async start(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Body() body: SetupRequestDto): Promise<SetupSessionResponseDto> {
    return { data: await this.sessions.start(workspace.workspaceId, body) };
  }

  @Get(':setup_session_id')
  @RequireScopes('email_delivery_connections:write')
  @ApiOperation({ operationId: 'getEmailDeliveryConnectionSetup', summary: 'Get secure setup status' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: SetupSessionResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('setup_session_id') id: string): Promise<SetupSessionResponseDto> {
    return { data: await this.sessions.get(workspace.workspaceId, id) };
  }

  @Post(':setup_session_id/renew')
  @RequireScopes('email_delivery_connections:write')
  @ApiOperation({ operationId: 'renewEmailDeliveryConnectionSetup', summary: 'Renew secure email delivery setup' })
  @ApiErrorResponses(404, 409)
  @ApiCreatedResponse({ type: SetupSessionResponseDto })
  async renew(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('setup_session_id') id: string): Promise<SetupSessionResponseDto> {
    return { data: await this.sessions.renew(workspace.workspaceId, id) };
  }
}
