import { Inject, Injectable } from '@nestjs/common';
import { WebhookSubscription } from '@email/data-access';
import { IdGenerator, WorkspaceId } from '@shared/core';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { deliveryState } from '@shared/webhooks';
import { EmailErrors } from '@email/contracts';
import { EmailWorkspaceContext, insufficientScopeError } from '@email/access';
import { parseEventPatterns, scopesForPatterns } from './event-patterns';
import { WebhookDestinationCheck } from './destination-check';
import { SubscriptionSecrets } from './subscription-secrets';
import {
  WebhookSubscriptionCreateRequestDto,
  WebhookSubscriptionCreateResultDto,
  WebhookSubscriptionDeletedDto,
  WebhookSubscriptionDto,
  WebhookSubscriptionListDto,
  WebhookSubscriptionStatus,
  WebhookSubscriptionUpdateRequestDto,
} from './webhook-subscription.dto';
import { WebhookSubscriptionChanges, WebhookSubscriptionRepository } from './webhook-subscription.repository';

/** The scopes every webhook subscription write needs (the route's own). */
const WRITE_SCOPES = ['live_actions:write', 'webhooks:write'];

export function toWebhookSubscriptionDto(row: WebhookSubscription): WebhookSubscriptionDto {
  return {
    self: `/v1/webhook-subscriptions/${row.id}`,
    id: row.id,
    name: row.name,
    url: row.url,
    status: row.status as WebhookSubscriptionStatus,
    event_patterns: row.event_patterns,
    ...deliveryState(row),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

@Injectable()
export class WebhookSubscriptionService {
  constructor(
    private readonly repository: WebhookSubscriptionRepository,
    private readonly destinations: WebhookDestinationCheck,
    private readonly secrets: SubscriptionSecrets,
    private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(workspaceId: WorkspaceId): Promise<WebhookSubscriptionListDto> {
    const rows = await this.repository.list(workspaceId);
    return { data: rows.map(toWebhookSubscriptionDto), pagination: { has_more: false, next_cursor: null } };
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<WebhookSubscriptionDto> {
    return toWebhookSubscriptionDto(await this.found(workspaceId, id));
  }

  async create(workspace: EmailWorkspaceContext, input: WebhookSubscriptionCreateRequestDto): Promise<WebhookSubscriptionCreateResultDto> {
    const eventPatterns = parseEventPatterns(input.event_patterns);
    this.requireFamilyScopes(workspace, eventPatterns);
    const url = await this.destinations.check(input.url);
    const id = this.ids.newId('wsb');
    const { secret, columns } = this.secrets.issue(id);
    const row = await this.repository.create(workspace.workspaceId, {
      id,
      name: input.name.trim(),
      url,
      status: input.status ?? 'active',
      event_patterns: eventPatterns,
      ...columns,
    });
    return { subscription: toWebhookSubscriptionDto(row), signing_secret: secret };
  }

  async update(workspace: EmailWorkspaceContext, id: string, input: WebhookSubscriptionUpdateRequestDto): Promise<WebhookSubscriptionDto> {
    if (input.name === undefined && input.url === undefined && input.event_patterns === undefined && input.status === undefined) {
      throw EmailErrors.invalid('empty_update', 'Send at least one of name, url, event_patterns or status.', 'body');
    }
    const changes: WebhookSubscriptionChanges = {};
    if (input.event_patterns !== undefined) changes.event_patterns = parseEventPatterns(input.event_patterns);
    const current = await this.found(workspace.workspaceId, id);
    this.requireFamilyScopes(workspace, changes.event_patterns ?? current.event_patterns);
    if (input.url !== undefined) changes.url = await this.destinations.check(input.url);
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.status !== undefined) changes.status = input.status;
    const row = await this.repository.update(workspace.workspaceId, id, changes);
    if (!row) throw EmailErrors.notFound('webhook_subscription', id);
    return toWebhookSubscriptionDto(row);
  }

  async delete(workspaceId: WorkspaceId, id: string): Promise<WebhookSubscriptionDeletedDto> {
    if (!(await this.repository.delete(workspaceId, id))) throw EmailErrors.notFound('webhook_subscription', id);
    return { id, deleted: true };
  }

  /** A new secret replaces the old one at once: attempts from now on are signed with it only. */
  async rotateSecret(workspaceId: WorkspaceId, id: string): Promise<WebhookSubscriptionCreateResultDto> {
    const { secret, columns } = this.secrets.issue(id);
    const row = await this.repository.update(workspaceId, id, columns);
    if (!row) throw EmailErrors.notFound('webhook_subscription', id);
    return { subscription: toWebhookSubscriptionDto(row), signing_secret: secret };
  }

  private async found(workspaceId: WorkspaceId, id: string): Promise<WebhookSubscription> {
    const row = await this.repository.find(workspaceId, id);
    if (!row) throw EmailErrors.notFound('webhook_subscription', id);
    return row;
  }

  /** Subscribing to a family's events needs that family's read scope, as reading its records would. */
  private requireFamilyScopes(workspace: EmailWorkspaceContext, patterns: readonly string[]): void {
    const held = workspace.principal.scopes;
    const needed = scopesForPatterns(patterns);
    const missing = needed.filter((scope) => !held.includes(scope));
    if (missing.length) throw insufficientScopeError(this.config, workspace.principal, [...WRITE_SCOPES, ...needed], missing);
  }
}
