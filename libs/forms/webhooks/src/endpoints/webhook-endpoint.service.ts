import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { IdGenerator, WorkspaceId } from '@shared/core';
import { checkNewDestination, deliveryState, DestinationRefused, destinationRules, HostResolver, WEBHOOK_HOST_RESOLVER } from '@shared/webhooks';
import { FormsErrors } from '@forms/contracts';
import type { WebhookEndpoint } from '@forms/data-access';
import { WorkspaceContextResolver } from '@forms/forms';
import { FORMS_WEBHOOK_EVENT_TYPES } from '../submission-event';
import { EndpointSecrets } from './endpoint-secrets';
import {
  WebhookEndpointCreateDto,
  WebhookEndpointDeletedDto,
  WebhookEndpointDto,
  WebhookEndpointSecretDto,
  WebhookEndpointStatus,
  WebhookEndpointUpdateDto,
} from './webhook-endpoint.dto';
import { WebhookEndpointChanges, WebhookEndpointRepository } from './webhook-endpoint.repository';

const EVENT_TYPES = new Set<string>(FORMS_WEBHOOK_EVENT_TYPES);

export function toWebhookEndpointDto(row: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    url: row.url,
    description: row.description,
    status: row.status as WebhookEndpointStatus,
    events: row.event_patterns,
    ...deliveryState(row),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The event types as given, duplicates dropped; anything else is refused naming its place. */
function parseEvents(events: readonly string[]): string[] {
  if (!events.length) throw FormsErrors.invalid('invalid_event_type', 'events must name at least one event type.', 'events');
  events.forEach((event, index) => {
    if (!EVENT_TYPES.has(event)) {
      throw FormsErrors.invalid(
        'invalid_event_type',
        `"${event}" is not an event type; use one of ${FORMS_WEBHOOK_EVENT_TYPES.join(', ')}.`,
        `events[${index}]`,
      );
    }
  });
  return [...new Set(events)];
}

/**
 * A workspace's webhook endpoints: only its owners manage them (an endpoint receives every submission's answers), and
 * the workspace named in the path is resolved against the caller's live membership (another workspace is a 404).
 */
@Injectable()
export class WebhookEndpointService {
  constructor(
    private readonly repository: WebhookEndpointRepository,
    private readonly secrets: EndpointSecrets,
    private readonly workspaces: WorkspaceContextResolver,
    private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WEBHOOK_HOST_RESOLVER) private readonly resolve: HostResolver,
  ) {}

  async list(principal: Principal, workspace: string): Promise<WebhookEndpointDto[]> {
    return (await this.repository.list(await this.ownedWorkspace(principal, workspace))).map(toWebhookEndpointDto);
  }

  async get(principal: Principal, workspace: string, id: string): Promise<WebhookEndpointDto> {
    const workspaceId = await this.ownedWorkspace(principal, workspace);
    return toWebhookEndpointDto(await this.found(workspaceId, id));
  }

  async create(principal: Principal, workspace: string, input: WebhookEndpointCreateDto): Promise<WebhookEndpointSecretDto> {
    const workspaceId = await this.ownedWorkspace(principal, workspace);
    const events = parseEvents(input.events);
    await this.checkUrl(input.url);
    const id = this.ids.newId('whe');
    const { secret, columns } = this.secrets.issue(id);
    const row = await this.repository.create(workspaceId, {
      id,
      url: input.url,
      description: input.description?.trim() || null,
      status: input.status ?? 'active',
      event_patterns: events,
      ...columns,
    });
    return { data: toWebhookEndpointDto(row), signing_secret: secret };
  }

  async update(principal: Principal, workspace: string, id: string, input: WebhookEndpointUpdateDto): Promise<WebhookEndpointDto> {
    const workspaceId = await this.ownedWorkspace(principal, workspace);
    if (input.url === undefined && input.events === undefined && input.description === undefined && input.status === undefined) {
      throw FormsErrors.invalid('validation_failed', 'Send at least one of url, events, description or status.', 'body');
    }
    const changes: WebhookEndpointChanges = {};
    if (input.events !== undefined) changes.event_patterns = parseEvents(input.events);
    if (input.url !== undefined) changes.url = await this.checkUrl(input.url);
    if (input.description !== undefined) changes.description = input.description?.trim() || null;
    if (input.status !== undefined) changes.status = input.status;
    const row = await this.repository.update(workspaceId, id, changes);
    if (!row) throw FormsErrors.notFound('webhook_endpoint', id);
    return toWebhookEndpointDto(row);
  }

  async delete(principal: Principal, workspace: string, id: string): Promise<WebhookEndpointDeletedDto> {
    const workspaceId = await this.ownedWorkspace(principal, workspace);
    if (!(await this.repository.delete(workspaceId, id))) throw FormsErrors.notFound('webhook_endpoint', id);
    return { ok: true, id };
  }

  /** A new secret replaces the old one at once: attempts from now on are signed with it only. */
  async rotateSecret(principal: Principal, workspace: string, id: string): Promise<WebhookEndpointSecretDto> {
    const workspaceId = await this.ownedWorkspace(principal, workspace);
    const { secret, columns } = this.secrets.issue(id);
    const row = await this.repository.update(workspaceId, id, columns);
    if (!row) throw FormsErrors.notFound('webhook_endpoint', id);
    return { data: toWebhookEndpointDto(row), signing_secret: secret };
  }

  private async ownedWorkspace(principal: Principal, workspace: string): Promise<WorkspaceId> {
    const [context] = await this.workspaces.forList(principal, workspace);
    if (context.role !== 'owner') {
      throw FormsErrors.fail('insufficient_role', `Your ${context.role} role in this workspace does not allow this; only an owner manages webhook endpoints.`, {
        extra: { role: context.role, required_roles: ['owner'] },
      });
    }
    return context.workspaceId;
  }

  private async found(workspaceId: WorkspaceId, id: string): Promise<WebhookEndpoint> {
    const row = await this.repository.find(workspaceId, id);
    if (!row) throw FormsErrors.notFound('webhook_endpoint', id);
    return row;
  }

  private async checkUrl(url: string): Promise<string> {
    try {
      await checkNewDestination(url, destinationRules(this.config), this.resolve);
      return url;
    } catch (error) {
      if (error instanceof DestinationRefused) throw FormsErrors.invalid('invalid_webhook_url', error.message, 'url');
      throw error;
    }
  }
}
