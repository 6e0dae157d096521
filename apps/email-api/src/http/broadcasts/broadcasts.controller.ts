import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import { SearchablePageQueryDto } from '@shared/pagination';
import {
  BroadcastCancelResponseDto,
  BroadcastDeliveryErrorsResponseDto,
  BroadcastListDto,
  BroadcastResponseDto,
  BroadcastScheduleRequestDto,
  BroadcastSendPreflightResponseDto,
  BroadcastSendProgressResponseDto,
  BroadcastSendRequestDto,
  BroadcastSendResponseDto,
  BroadcastSendService,
  BroadcastService,
  BroadcastTestRequestDto,
  BroadcastTestResultResponseDto,
  BroadcastUpdateRequestDto,
  BroadcastUpsertRequestDto,
  DeliveryErrorsQueryDto,
} from '@email/broadcasts';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

interface Reply {
  header(name: string, value: string): unknown;
}

/** Preflight warnings (not blocking, not in the contract's closed-to-clients body): their codes, comma-separated. */
export const PREFLIGHT_WARNINGS_HEADER = 'x-preflight-warnings';

type Workspace = EmailWorkspaceContext;

@ApiTags('Broadcasts')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/broadcasts')
export class BroadcastsController {
  constructor(
    private readonly broadcasts: BroadcastService,
    private readonly sends: BroadcastSendService,
  ) {}

  @Get()
  @RequireScopes('broadcasts:read')
  @ApiOperation({ operationId: 'listBroadcasts', summary: 'List broadcasts' })
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: BroadcastListDto })
  list(@CurrentWorkspace() workspace: Workspace, @Query() query: SearchablePageQueryDto): Promise<BroadcastListDto> {
    return this.broadcasts.list(workspace.workspaceId, query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('broadcasts:write')
  @ApiOperation({ operationId: 'createBroadcast', summary: 'Create a broadcast' })
  @ApiErrorResponses(400, 409)
  @ApiCreatedResponse({ type: BroadcastResponseDto })
  async create(@CurrentWorkspace() workspace: Workspace, @Body() body: BroadcastUpsertRequestDto): Promise<BroadcastResponseDto> {
    return { data: await this.broadcasts.create(workspace.workspaceId, body) };
  }

  @Get(':broadcast_id')
  @RequireScopes('broadcasts:read')
  @ApiOperation({ operationId: 'getBroadcast', summary: 'Get a broadcast' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: BroadcastResponseDto })
  async get(@CurrentWorkspace() workspace: Workspace, @Param('broadcast_id') id: string): Promise<BroadcastResponseDto> {
    return { data: await this.broadcasts.get(workspace.workspaceId, id) };
  }

  @Put(':broadcast_id')
  @RequireScopes('broadcasts:write')
  @ApiOperation({ operationId: 'updateBroadcast', summary: 'Update a broadcast' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: BroadcastResponseDto })
  async update(
    @CurrentWorkspace() workspace: Workspace,
    @Param('broadcast_id') id: string,
    @Body() body: BroadcastUpdateRequestDto,
  ): Promise<BroadcastResponseDto> {
    return { data: await this.broadcasts.update(workspace.workspaceId, id, body) };
  }

  @Delete(':broadcast_id')
  @HttpCode(204)
  @RequireScopes('broadcasts:write')
  @ApiOperation({ operationId: 'deleteBroadcast', summary: 'Delete a broadcast' })
  @ApiErrorResponses(404, 409)
  @ApiNoContentResponse()
  async delete(@CurrentWorkspace() workspace: Workspace, @Param('broadcast_id') id: string): Promise<void> {
    await this.broadcasts.delete(workspace.workspaceId, id);
  }

  @Get(':broadcast_id/preflight')
  @RequireScopes('broadcasts:read')
  @ApiOperation({ operationId: 'preflightBroadcast', summary: 'Inspect broadcast readiness' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: BroadcastSendPreflightResponseDto })
  async preflight(
    @CurrentWorkspace() workspace: Workspace,
    @Param('broadcast_id') id: string,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<BroadcastSendPreflightResponseDto> {
    const { report, warnings } = await this.sends.preflight(workspace.workspaceId, id);
    if (warnings.length) reply.header(PREFLIGHT_WARNINGS_HEADER, warnings.map((warning) => warning.code).join(', '));
    return { data: report };
  }

  @Get(':broadcast_id/progress')
  @RequireScopes('broadcasts:read')
  @ApiOperation({ operationId: 'getBroadcastSendProgress', summary: 'Get broadcast send progress' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: BroadcastSendProgressResponseDto })
  async progress(@CurrentWorkspace() workspace: Workspace, @Param('broadcast_id') id: string): Promise<BroadcastSendProgressResponseDto> {
    return { data: await this.sends.progress(workspace.workspaceId, id) };
  }

  @Get(':broadcast_id/delivery-errors')
  @RequireScopes('broadcasts:read')
  @ApiOperation({ operationId: 'listBroadcastDeliveryErrors', summary: 'List broadcast delivery errors' })
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: BroadcastDeliveryErrorsResponseDto })
  async deliveryErrors(
    @CurrentWorkspace() workspace: Workspace,
    @Param('broadcast_id') id: string,
    @Query() query: DeliveryErrorsQueryDto,
  ): Promise<BroadcastDeliveryErrorsResponseDto> {
    return { data: await this.sends.deliveryErrors(workspace.workspaceId, id, query) };
  }

  @Put(':broadcast_id/schedule')
  @RequireScopes('live_actions:write', 'broadcasts:write')
  @ApiOperation({ operationId: 'scheduleBroadcast', summary: 'Schedule or reschedule a broadcast' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: BroadcastResponseDto })
  async schedule(
    @CurrentWorkspace() workspace: Workspace,
    @Param('broadcast_id') id: string,
    @Body() body: BroadcastScheduleRequestDto,
  ): Promise<BroadcastResponseDto> {
    return { data: await this.broadcasts.schedule(workspace.workspaceId, id, body.scheduled_at) };
  }

  @Delete(':broadcast_id/schedule')
  @RequireScopes('live_actions:write', 'broadcasts:write')
  @ApiOperation({ operationId: 'unscheduleBroadcast', summary: 'Unschedule a broadcast' })
  @ApiErrorResponses(404, 409)
  @ApiOkResponse({ type: BroadcastResponseDto })
  async unschedule(@CurrentWorkspace() workspace: Workspace, @Param('broadcast_id') id: string): Promise<BroadcastResponseDto> {
    return { data: await this.broadcasts.unschedule(workspace.workspaceId, id) };
  }

  @Post(':broadcast_id/send')
  @HttpCode(202)
  @Idempotent()
  @RequireScopes('live_actions:write', 'broadcasts:write')
  @ApiOperation({ operationId: 'sendBroadcast', summary: 'Send a broadcast now' })
  @ApiBody({ type: BroadcastSendRequestDto, required: false })
  @ApiErrorResponses(400, 404, 409)
  @ApiAcceptedResponse({ type: BroadcastSendResponseDto })
  async send(
    @CurrentWorkspace() workspace: Workspace,
    @Param('broadcast_id') id: string,
    @Body() body?: BroadcastSendRequestDto,
  ): Promise<BroadcastSendResponseDto> {
    // A null proof is no proof: the send runs the checks itself.
    return { data: await this.sends.send(workspace.workspaceId, id, body?.preflight_proof ?? undefined) };
  }

  @Post(':broadcast_id/cancel')
  @HttpCode(202)
  @Idempotent()
  @RequireScopes('live_actions:write', 'broadcasts:write')
  @ApiOperation({ operationId: 'cancelBroadcastSend', summary: 'Cancel a broadcast send' })
  @ApiErrorResponses(404, 409)
  @ApiAcceptedResponse({ type: BroadcastCancelResponseDto })
  async cancel(@CurrentWorkspace() workspace: Workspace, @Param('broadcast_id') id: string): Promise<BroadcastCancelResponseDto> {
    return { data: await this.sends.cancel(workspace.workspaceId, id) };
  }

  @Post(':broadcast_id/test')
  @HttpCode(200)
  @Idempotent()
  @RequireScopes('live_actions:write', 'subscribers:read', 'broadcasts:write')
  @ApiOperation({ operationId: 'testBroadcast', summary: 'Send a broadcast test email' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: BroadcastTestResultResponseDto })
  async test(
    @CurrentWorkspace() workspace: Workspace,
    @Param('broadcast_id') id: string,
    @Body() body: BroadcastTestRequestDto,
  ): Promise<BroadcastTestResultResponseDto> {
    return { data: await this.sends.test(workspace.workspaceId, id, body.recipient, body.subscriber_id) };
  }
}
