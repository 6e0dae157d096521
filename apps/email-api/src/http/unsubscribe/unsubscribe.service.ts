import { Injectable } from '@nestjs/common';
import { Clock } from '@shared/core';
import { SubscriberService } from '@email/audience';
import { EngagementRepository } from '@email/audience-engine';
import { UnsubscribeClaims, UnsubscribeTokens } from '@email/delivery';
import { WorkspaceService } from '@email/workspace';

export type UnsubscribeView = { state: 'invalid' } | { state: 'confirm' | 'done'; workspaceName: string; email: string; changed?: boolean };

/** The unsubscribe link's use cases: show whom it concerns, and opt that recipient out (once). */
@Injectable()
export class UnsubscribeService {
  constructor(
    private readonly tokens: UnsubscribeTokens,
    private readonly subscribers: SubscriberService,
    private readonly workspaces: WorkspaceService,
    private readonly engagement: EngagementRepository,
    private readonly clock: Clock,
  ) {}

  /** The confirm page's data; an already unsubscribed recipient sees the done state. */
  async view(token: string): Promise<UnsubscribeView> {
    const claims = this.tokens.verify(token);
    if (!claims) return { state: 'invalid' };
    const found = await this.lookUp(claims);
    if (!found) return { state: 'invalid' };
    return { state: found.status === 'Unsubscribed' ? 'done' : 'confirm', workspaceName: found.workspaceName, email: found.email };
  }

  /** Sets the subscriber Unsubscribed (status change + outbox event) and records one `unsubscribed` engagement event. */
  async unsubscribe(token: string): Promise<UnsubscribeView> {
    const claims = this.tokens.verify(token);
    if (!claims) return { state: 'invalid' };
    const workspaceName = await this.workspaceName(claims);
    if (workspaceName === null) return { state: 'invalid' };
    const result = await this.subscribers.unsubscribe(claims.workspaceId, claims.subscriberId);
    if (!result) return { state: 'invalid' };
    if (result.changed) {
      await this.engagement.record(claims.workspaceId, [
        {
          subscriberId: claims.subscriberId,
          type: 'unsubscribed',
          occurredAt: this.clock.now(),
          sourceType: claims.source?.type ?? null,
          sourceId: claims.source?.id ?? null,
        },
      ]);
    }
    return { state: 'done', workspaceName, email: result.subscriber.email, changed: result.changed };
  }

  private async lookUp(claims: UnsubscribeClaims): Promise<{ workspaceName: string; email: string; status: string } | null> {
    const workspaceName = await this.workspaceName(claims);
    if (workspaceName === null) return null;
    const subscriber = await this.subscribers.get(claims.workspaceId, claims.subscriberId).catch(notFoundAsNull);
    return subscriber ? { workspaceName, email: subscriber.email, status: subscriber.status } : null;
  }

  private async workspaceName(claims: UnsubscribeClaims): Promise<string | null> {
    return (await this.workspaces.get(claims.workspaceId).catch(notFoundAsNull))?.name ?? null;
  }
}

/** A workspace or subscriber deleted since the email was sent: the link is simply no longer valid. */
function notFoundAsNull(error: unknown): null {
  if (error instanceof Error && 'status' in error && (error as { status: unknown }).status === 404) return null;
  throw error;
}
