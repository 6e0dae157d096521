import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import {
  SubscriberListDto,
  SubscriberListQueryDto,
  SubscriberResponseDto,
  SubscriberService,
  SubscriberStatusRequestDto,
  SubscriberUpdateRequestDto,
  SubscriberUpsertRequestDto,
} from '@email/audience';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

interface Reply {
  status(code: number): unknown;
  header(name: string, value: string): unknown;
}

@ApiTags('Subscribers')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/subscribers')
export class SubscribersController {
  constructor(private readonly subscribers: SubscriberService) {}

  @Get()
  @RequireScopes('subscribers:read')
  @ApiOperation({ operationId: 'listSubscribers', summary: 'List subscribers' })
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: SubscriberListDto })
  async list(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Query() query: SubscriberListQueryDto,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<string> {
    // Serialized by PostgreSQL (see subscriberPageQuery); sent as it is.
    reply.header('content-type', 'application/json; charset=utf-8');
    return this.subscribers.listJson(workspace.workspaceId, query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('live_actions:write', 'subscribers:write')
  @ApiOperation({ operationId: 'upsertSubscriber', summary: 'Create or upsert a subscriber' })
  @ApiErrorResponses(400, 409)
  @ApiCreatedResponse({ type: SubscriberResponseDto, description: 'Created.' })
  @ApiOkResponse({ type: SubscriberResponseDto, description: 'An existing subscriber was updated.' })
  async upsert(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Body() body: SubscriberUpsertRequestDto,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<SubscriberResponseDto> {
    const { created, subscriber } = await this.subscribers.upsert(workspace.workspaceId, body);
    reply.status(created ? 201 : 200);
    return { data: subscriber };
  }

  @Get(':subscriber_id')
  @RequireScopes('subscribers:read')
  @ApiOperation({ operationId: 'getSubscriber', summary: 'Get a subscriber' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: SubscriberResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('subscriber_id') id: string): Promise<SubscriberResponseDto> {
    return { data: await this.subscribers.get(workspace.workspaceId, id) };
  }

  @Patch(':subscriber_id')
  @RequireScopes('subscribers:write')
  @ApiOperation({ operationId: 'updateSubscriber', summary: 'Update a subscriber' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: SubscriberResponseDto })
  async update(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('subscriber_id') id: string,
    @Body() body: SubscriberUpdateRequestDto,
  ): Promise<SubscriberResponseDto> {
    return { data: await this.subscribers.update(workspace.workspaceId, id, body) };
  }

  @Delete(':subscriber_id')
  @HttpCode(204)
  @RequireScopes('subscribers:write')
  @ApiOperation({ operationId: 'deleteSubscriber', summary: 'Delete a subscriber' })
  @ApiErrorResponses(404)
  @ApiNoContentResponse()
  async delete(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('subscriber_id') id: string): Promise<void> {
    await this.subscribers.delete(workspace.workspaceId, id);
  }

  @Put(':subscriber_id/status')
  @RequireScopes('live_actions:write', 'subscribers:write')
  @ApiOperation({ operationId: 'updateSubscriberStatus', summary: 'Change Subscriber sending eligibility' })
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: SubscriberResponseDto })
  async setStatus(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('subscriber_id') id: string,
    @Body() body: SubscriberStatusRequestDto,
  ): Promise<SubscriberResponseDto> {
    return { data: await this.subscribers.setStatus(workspace.workspaceId, id, body) };
  }

  @Put(':subscriber_id/tags/:tag_id')
  @RequireScopes('live_actions:write', 'subscribers:write')
  @ApiOperation({ operationId: 'addSubscriberTag', summary: 'Add a Tag to a Subscriber' })
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: SubscriberResponseDto })
  async addTag(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('subscriber_id') id: string,
    @Param('tag_id') tagId: string,
  ): Promise<SubscriberResponseDto> {
    return { data: await this.subscribers.addTag(workspace.workspaceId, id, tagId) };
  }

  @Delete(':subscriber_id/tags/:tag_id')
  @RequireScopes('live_actions:write', 'subscribers:write')
  @ApiOperation({ operationId: 'removeSubscriberTag', summary: 'Remove a tag from a subscriber' })
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: SubscriberResponseDto })
  async removeTag(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('subscriber_id') id: string,
    @Param('tag_id') tagId: string,
  ): Promise<SubscriberResponseDto> {
    return { data: await this.subscribers.removeTag(workspace.workspaceId, id, tagId) };
  }

  @Put(':subscriber_id/sequences/:sequence_id')
  @RequireScopes('live_actions:write', 'subscribers:write')
  @ApiOperation({ operationId: 'addSubscriberSequence', summary: 'Add a subscriber to a sequence' })
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: SubscriberResponseDto })
  async addSequence(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('subscriber_id') id: string,
    @Param('sequence_id') sequenceId: string,
  ): Promise<SubscriberResponseDto> {
    return { data: await this.subscribers.addSequence(workspace.workspaceId, id, sequenceId) };
  }

  @Delete(':subscriber_id/sequences/:sequence_id')
  @RequireScopes('live_actions:write', 'subscribers:write')
  @ApiOperation({ operationId: 'removeSubscriberSequence', summary: 'Remove a subscriber from a sequence' })
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: SubscriberResponseDto })
  async removeSequence(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('subscriber_id') id: string,
    @Param('sequence_id') sequenceId: string,
  ): Promise<SubscriberResponseDto> {
    return { data: await this.subscribers.removeSequence(workspace.workspaceId, id, sequenceId) };
  }
}
