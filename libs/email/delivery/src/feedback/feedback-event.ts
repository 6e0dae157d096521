import type { WorkspaceId } from '@shared/core';

/** One bounce or complaint a provider reported, as every provider's payload is read into it. */
export interface FeedbackEvent {
  /** The provider's id for this report (for one recipient): redelivering it changes nothing. */
  providerEventId: string;
  kind: 'bounce' | 'complaint';
  /** A hard bounce (the address will never take mail); soft bounces are only recorded. Complaints are always permanent. */
  permanent: boolean;
  recipient: string;
  occurredAt: Date;
  /** The provider's words or diagnostic code, when it gave them. */
  reason?: string;
  /** The provider's id of the message the report is about. */
  providerMessageId?: string;
}

/** What the feedback endpoint needs to know about a delivery connection; the secrets are opened only for the check. */
export interface FeedbackConnection {
  workspaceId: WorkspaceId;
  provider: string;
  /** The token we generated for the connection: the basic-auth password (SES, Postmark) or bearer token (Brevo). */
  feedbackToken: string;
  /** The provider's webhook signing key (SendGrid's public key, Mailgun's HMAC key, Resend's `whsec_…` secret). */
  webhookSigningKey?: string;
}

/** Finds a delivery connection by id, across workspaces (the id in the feedback URL is what names the workspace). */
export interface FeedbackConnections {
  find(connectionId: string): Promise<FeedbackConnection | null>;
}

/** The injection token of the FeedbackConnections the app binds (see DeliveryFeedbackModule.register). */
export const FEEDBACK_CONNECTIONS = Symbol('FEEDBACK_CONNECTIONS');

/** An inbound feedback request as it arrived: the exact body bytes (signatures cover them) and the headers. */
export interface FeedbackRequest {
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

/** One provider's webhook: checks the request came from the provider for this connection, then reads its reports. */
export interface FeedbackSource {
  read(request: FeedbackRequest, connection: FeedbackConnection): Promise<FeedbackEvent[]>;
}
