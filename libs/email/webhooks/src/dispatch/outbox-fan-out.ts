import { Injectable } from '@nestjs/common';
import { EmailSql } from '@email/data-access';

/**
 * Turns published events into deliveries: one statement claims a batch of undispatched outbox rows (SKIP LOCKED, so
 * replicas take different rows), inserts a delivery for every active subscription whose patterns match each event,
 * and marks the rows dispatched. It commits or rolls back as a whole, so a worker killed mid-fan-out loses nothing;
 * a delivery's id is made from its event and subscription ids, so it is the same `webhook-id` however often it is
 * attempted.
 */
@Injectable()
export class OutboxFanOut {
  constructor(private readonly sql: EmailSql) {}

  /** Events dispatched by this call (0 when the outbox has nothing new). */
  async dispatch(limit: number): Promise<number> {
    const rows = await this.sql.query<{ id: string }>({
      name: 'webhooks_fan_out',
      text: `
        WITH claimed AS (
          SELECT id, workspace_id, type, created_at FROM outbox_events
          WHERE dispatched_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
        ), fanned AS (
          INSERT INTO webhook_deliveries (id, event_id, subscription_id, workspace_id, event_created_at)
          SELECT 'msg_' || substr(c.id, 5) || substr(s.id, 5), c.id, s.id, c.workspace_id, c.created_at
          FROM claimed c
          JOIN webhook_subscriptions s ON s.workspace_id = c.workspace_id AND s.status = 'active'
            AND s.event_patterns && ARRAY[c.type, '*', split_part(c.type, '.', 1) || '.*']
          ON CONFLICT (event_id, subscription_id) DO NOTHING
          RETURNING 1
        )
        -- A data-modifying WITH runs whether or not the outer statement reads it.
        UPDATE outbox_events o SET dispatched_at = now()
        FROM claimed c WHERE o.id = c.id
        RETURNING o.id`,
      values: [limit],
    });
    return rows.length;
  }

  /**
   * Deletes events dispatched more than `retentionHours` ago, with their deliveries, once none of those is still
   * being retried. Returns how many events were deleted.
   */
  async prune(retentionHours: number, limit = 5000): Promise<number> {
    const rows = await this.sql.query<{ id: string }>({
      name: 'webhooks_prune',
      text: `
        DELETE FROM outbox_events WHERE id IN (
          SELECT e.id FROM outbox_events e
          WHERE e.dispatched_at < now() - make_interval(hours => $1)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
          ORDER BY e.dispatched_at LIMIT $2)
        RETURNING id`,
      values: [retentionHours, limit],
    });
    return rows.length;
  }
}
