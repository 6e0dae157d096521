import { Injectable, Logger } from '@nestjs/common';
import { trustedWorkspaceId } from '@shared/core';
import { SecretUnreadable } from '@shared/secrets';
import { DeliveryConnectionRepository } from '../delivery-connection.repository';
import { FeedbackConnection, FeedbackConnections } from '../feedback/feedback-event';
import { ConnectionSecrets } from './connection-secrets';

/** The feedback endpoint's view of a connection: its workspace, provider, and the two secrets that check a provider's webhook. */
@Injectable()
export class ConnectionFeedbackLookup implements FeedbackConnections {
  private readonly logger = new Logger('ConnectionFeedbackLookup');

  constructor(
    private readonly connections: DeliveryConnectionRepository,
    private readonly secrets: ConnectionSecrets,
  ) {}

  /** Disabled connections still take feedback: bounces of mail they sent earlier keep arriving. */
  async find(connectionId: string): Promise<FeedbackConnection | null> {
    const connection = await this.connections.findById(connectionId);
    if (!connection?.secrets) return null;
    let secrets: Record<string, string>;
    try {
      secrets = this.secrets.open(connection.id, connection.secrets);
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      this.logger.warn({ connectionId }, 'feedback refused: the connection secrets cannot be opened with the configured keys');
      return null;
    }
    if (!secrets.feedback_token) return null;
    return {
      // The connection row names its workspace; the provider's signature (checked next) is the authority.
      workspaceId: trustedWorkspaceId(connection.workspace_id),
      provider: connection.provider,
      feedbackToken: secrets.feedback_token,
      ...(secrets.webhook_signing_key ? { webhookSigningKey: secrets.webhook_signing_key } : {}),
    };
  }
}
