import { Injectable } from '@nestjs/common';
import { FormsPrisma, WebhookEndpoint } from '@forms/data-access';
import { WorkspaceId } from '@shared/core';
import { isRecordGone } from '@shared/errors';
import { FormsErrors } from '@forms/contracts';

/** Endpoints per workspace, disabled ones included. */
export const WEBHOOK_ENDPOINT_LIMIT = 20;

export interface NewWebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  status: string;
  event_patterns: string[];
  signing_secret: string;
  signing_secret_preview: string;
}

export type WebhookEndpointChanges = Partial<Omit<NewWebhookEndpoint, 'id'>>;

@Injectable()
export class WebhookEndpointRepository {
  constructor(private readonly prisma: FormsPrisma) {}

  /** Every endpoint of the workspace, newest first (there are at most 20). */
  list(workspaceId: WorkspaceId): Promise<WebhookEndpoint[]> {
    return this.prisma.webhookEndpoint.findMany({ where: { workspace_id: workspaceId }, orderBy: [{ created_at: 'desc' }, { id: 'desc' }] });
  }

  find(workspaceId: WorkspaceId, id: string): Promise<WebhookEndpoint | null> {
    return this.prisma.webhookEndpoint.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  /** Counts and inserts under a per-workspace transaction lock, so concurrent creates cannot pass the cap together. */
  create(workspaceId: WorkspaceId, data: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`webhook_endpoints:${workspaceId}`}, 0))`;
      if ((await tx.webhookEndpoint.count({ where: { workspace_id: workspaceId } })) >= WEBHOOK_ENDPOINT_LIMIT) {
        throw FormsErrors.fail(
          'webhook_endpoint_limit_exceeded',
          `A workspace can have at most ${WEBHOOK_ENDPOINT_LIMIT} webhook endpoints, disabled ones included; delete one first.`,
          { extra: { limit: WEBHOOK_ENDPOINT_LIMIT } },
        );
      }
      return tx.webhookEndpoint.create({ data: { ...data, workspace_id: workspaceId } });
    });
  }

  /** The updated endpoint, or null when the workspace has no such endpoint. Re-enabling clears the failure streak. */
  update(workspaceId: WorkspaceId, id: string, data: WebhookEndpointChanges): Promise<WebhookEndpoint | null> {
    return this.prisma.webhookEndpoint
      .update({ where: { id, workspace_id: workspaceId }, data: { ...data, ...(data.status === 'active' ? { failing_since: null } : {}) } })
      .catch((error: unknown) => {
        if (isRecordGone(error)) return null;
        throw error;
      });
  }

  async delete(workspaceId: WorkspaceId, id: string): Promise<boolean> {
    const { count } = await this.prisma.webhookEndpoint.deleteMany({ where: { workspace_id: workspaceId, id } });
    return count === 1;
  }
}
