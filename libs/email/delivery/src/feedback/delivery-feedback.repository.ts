import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { EmailSql } from '@email/data-access';
import type { WorkspaceId } from '@shared/core';

const FIND_SUBSCRIBER = 'SELECT id FROM subscribers WHERE workspace_id = $1 AND email = $2';

/** A redelivered report finds its receipt and inserts nothing (a concurrent one waits for the first to commit or roll back). */
const CLAIM = `
  INSERT INTO delivery_feedback_receipts (connection_id, provider_event_id, workspace_id, received_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (connection_id, provider_event_id) DO NOTHING`;

const PRUNE = `
  DELETE FROM delivery_feedback_receipts WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM delivery_feedback_receipts WHERE received_at < $1 LIMIT $2))`;

/** The receipts of applied provider feedback (delivery_feedback_receipts) and the lookups the feedback writes need. */
@Injectable()
export class DeliveryFeedbackRepository {
  constructor(private readonly sql: EmailSql) {}

  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  /** The workspace's subscriber with this email (in its stored form, see emailIdentity). */
  async subscriberIdByEmail(workspaceId: WorkspaceId, client: PoolClient, email: string): Promise<string | null> {
    const { rows } = await client.query<{ id: string }>({ name: 'feedback_find_subscriber', text: FIND_SUBSCRIBER, values: [workspaceId, email] });
    return rows[0]?.id ?? null;
  }

  /** Writes the receipt of one report in the caller's transaction; false when it was received before. */
  async claim(workspaceId: WorkspaceId, client: PoolClient, connectionId: string, providerEventId: string, at: Date): Promise<boolean> {
    const { rowCount } = await client.query({ name: 'feedback_claim', text: CLAIM, values: [connectionId, providerEventId, workspaceId, at] });
    return rowCount === 1;
  }

  /**
   * Deletes up to `limit` receipts received before `before`; returns how many went. Across workspaces: a receipt only
   * has to outlive the provider's redeliveries, whoever it belongs to.
   */
  async prune(before: Date, limit = 10_000): Promise<number> {
    const rows = await this.sql.query({ text: `${PRUNE} RETURNING 1`, values: [before, limit] });
    return rows.length;
  }
}
