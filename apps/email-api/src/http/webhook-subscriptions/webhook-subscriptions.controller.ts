import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import {
  WebhookSubscriptionCreateRequestDto,
  WebhookSubscriptionCreateResultResponseDto,
  WebhookSubscriptionDeletedResponseDto,
  WebhookSubscriptionListDto,
  WebhookSubscriptionResponseDto,
  WebhookSubscriptionService,
  WebhookSubscriptionUpdateRequestDto,
} from '@email/webhooks';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

@ApiTags('Webhooks')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/webhook-subscriptions')
export class WebhookSubscriptionsController {
  constructor(private readonly subscriptions: WebhookSubscriptionService) {}

  @Get()
  @RequireScopes('webhooks:read')
  @ApiOperation({ operationId: 'listWebhookSubscriptions', summary: 'List webhook subscriptions' })
  @ApiOkResponse({ type: WebhookSubscriptionListDto })
  list(@CurrentWorkspace() workspace: EmailWorkspaceContext): Promise<WebhookSubscriptionListDto> {
    return this.subscriptions.list(workspace.workspaceId);
  }

  @Post()
  @Idempotent()
  @RequireScopes('live_actions:write', 'webhooks:write')
  @ApiOperation({ operationId: 'createWebhookSubscription', summary: 'Create a webhook subscription' })
  @ApiErrorResponses(400, 409)
  @ApiCreatedResponse({ type: WebhookSubscriptionCreateResultResponseDto })
  async create(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Body() body: WebhookSubscriptionCreateRequestDto,
  ): Promise<WebhookSubscriptionCreateResultResponseDto> {
    return { data: await this.subscriptions.create(workspace, body) };
  }

  @Get(':webhook_subscription_id')
  @RequireScopes('webhooks:read')
  @ApiOperation({ operationId: 'getWebhookSubscription', summary: 'Get a webhook subscription' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: WebhookSubscriptionResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('webhook_subscription_id') id: string): Promise<WebhookSubscriptionResponseDto> {
    return { data: await this.subscriptions.get(workspace.workspaceId, id) };
  }

  @Put(':webhook_subscription_id')
  @RequireScopes('live_actions:write', 'webhooks:write')
  @ApiOperation({ operationId: 'updateWebhookSubscription', summary: 'Update a webhook subscription' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: WebhookSubscriptionResponseDto })
  async update(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('webhook_subscription_id') id: string,
    @Body() body: WebhookSubscriptionUpdateRequestDto,
  ): Promise<WebhookSubscriptionResponseDto> {
    return { data: await this.subscriptions.update(workspace, id, body) };
  }

  @Delete(':webhook_subscription_id')
  @HttpCode(200)
  @RequireScopes('live_actions:write', 'webhooks:write')
  @ApiOperation({ operationId: 'deleteWebhookSubscription', summary: 'Delete a webhook subscription' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: WebhookSubscriptionDeletedResponseDto })
  async delete(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('webhook_subscription_id') id: string,
  ): Promise<WebhookSubscriptionDeletedResponseDto> {
    return { data: await this.subscriptions.delete(workspace.workspaceId, id) };
  }
}

/** Rotating the signing secret: the contract files it under its own tag, so it has a controller of its own. */
@ApiTags('Webhook Subscriptions')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/webhook-subscriptions')
export class WebhookSubscriptionSecretsController {
  constructor(private readonly subscriptions: WebhookSubscriptionService) {}

  @Post(':webhook_subscription_id/rotate-secret')
  @HttpCode(200)
  @RequireScopes('live_actions:write', 'webhooks:write')
  @ApiOperation({ operationId: 'rotateWebhookSubscriptionSecret', summary: 'Rotate a webhook signing secret' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: WebhookSubscriptionCreateResultResponseDto })
  async rotateSecret(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('webhook_subscription_id') id: string,
  ): Promise<WebhookSubscriptionCreateResultResponseDto> {
    return { data: await this.subscriptions.rotateSecret(workspace.workspaceId, id) };
  }
}
