import { Injectable } from '@nestjs/common';
import { EmailPrisma, WebhookSubscription } from '@email/data-access';
import { WorkspaceId } from '@shared/core';
import { isRecordGone, isUniqueViolation } from '@shared/errors';
import { EmailErrors } from '@email/contracts';

/** Subscriptions per workspace, disabled ones included. */
export const WEBHOOK_SUBSCRIPTION_LIMIT = 20;

export interface NewWebhookSubscription {
  id: string;
  name: string;
  url: string;
  status: string;
  event_patterns: string[];
  signing_secret: string;
  signing_secret_preview: string;
}

export type WebhookSubscriptionChanges = Partial<
  Pick<NewWebhookSubscription, 'name' | 'url' | 'status' | 'event_patterns' | 'signing_secret' | 'signing_secret_preview'>
>;

/** The unique (workspace_id, name) index is the only name check, so concurrent writers cannot both pass it. */
function nameTakenOn(error: unknown): never {
  throw isUniqueViolation(error, 'name')
    ? EmailErrors.fail('webhook_subscription_name_taken', 'Another webhook subscription already has this name.', { details: { field: 'name' } })
    : error;
}

@Injectable()
export class WebhookSubscriptionRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  /** Every subscription of the workspace, newest first (there are at most 20). */
  list(workspaceId: WorkspaceId): Promise<WebhookSubscription[]> {
    return this.prisma.webhookSubscription.findMany({ where: { workspace_id: workspaceId }, orderBy: [{ created_at: 'desc' }, { id: 'desc' }] });
  }

  find(workspaceId: WorkspaceId, id: string): Promise<WebhookSubscription | null> {
    return this.prisma.webhookSubscription.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  /** Counts and inserts under a per-workspace transaction lock, so concurrent creates cannot pass the cap together. */
  create(workspaceId: WorkspaceId, data: NewWebhookSubscription): Promise<WebhookSubscription> {
    return this.prisma
      .$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`webhook_subscriptions:${workspaceId}`}, 0))`;
        const count = await tx.webhookSubscription.count({ where: { workspace_id: workspaceId } });
        if (count >= WEBHOOK_SUBSCRIPTION_LIMIT) {
          throw EmailErrors.fail(
            'webhook_subscription_limit_exceeded',
            `A workspace can have at most ${WEBHOOK_SUBSCRIPTION_LIMIT} webhook subscriptions, disabled ones included; delete one first.`,
            { extra: { limit: WEBHOOK_SUBSCRIPTION_LIMIT } },
          );
        }
        return tx.webhookSubscription.create({ data: { ...data, workspace_id: workspaceId } });
      })
      .catch(nameTakenOn);
  }

  /** The updated subscription, or null when the workspace has no such subscription. Re-enabling clears the failure streak. */
  update(workspaceId: WorkspaceId, id: string, data: WebhookSubscriptionChanges): Promise<WebhookSubscription | null> {
    return this.prisma.webhookSubscription
      .update({ where: { id, workspace_id: workspaceId }, data: { ...data, ...(data.status === 'active' ? { failing_since: null } : {}) } })
      .catch((error: unknown) => (isRecordGone(error) ? null : nameTakenOn(error)));
  }

  async delete(workspaceId: WorkspaceId, id: string): Promise<boolean> {
    const { count } = await this.prisma.webhookSubscription.deleteMany({ where: { workspace_id: workspaceId, id } });
    return count === 1;
  }
}
