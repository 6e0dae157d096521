import type { SqlPool } from '@shared/sql';
import { patternsSelectSql } from '../event-patterns';

/** A delivery claimed for one attempt, with what the attempt needs. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  /** The subscription (email) or endpoint (forms) the delivery goes to. */
  subscription_id: string;
  url: string;
  signing_secret: string;
  event_id: string;
  workspace_id: string;
  type: string;
  payload: unknown;
  created_at: Date;
}

/** How one attempt ended, as the store records it. `retryAt` null on a failure means the delivery is given up. */
export interface AttemptOutcome {
  id: string;
  ok: boolean;
  status: number | null;
  error: string | null;
  at: Date;
  retryAt: Date | null;
}

/**
 * Where a service keeps its webhook destinations: the table (`webhook_subscriptions` in email, `webhook_endpoints` in
 * forms) and the column of `webhook_deliveries` naming the row. Both tables have the same delivery columns (`url`,
 * `status`, `event_patterns`, sealed `signing_secret`, `delivery_attempts`, `last_delivery_*`, `failing_since`), and
 * the service's database has `outbox_events` (`id`, `workspace_id`, `type`, `payload`, `created_at`, `dispatched_at`).
 */
export interface WebhookTables {
  targets: 'webhook_subscriptions' | 'webhook_endpoints';
  targetColumn: 'subscription_id' | 'endpoint_id';
}

/**
 * A service's webhook pipeline statements over its own database: outbox fan-out, claiming due deliveries, recording
 * attempts (with auto-disable) and pruning. Each statement is prepared once per connection.
 */
export class WebhookStore {
  constructor(
    private readonly sql: Pick<SqlPool, 'query'>,
    private readonly tables: WebhookTables,
  ) {}

  /**
   * Turns published events into deliveries: one statement claims a batch of undispatched outbox rows (SKIP LOCKED, so
   * replicas take different rows), inserts a delivery for every active subscription whose patterns match each event,
   * and marks the rows dispatched. It commits or rolls back as a whole, so a worker killed mid-fan-out loses nothing;
   * a delivery's id is made from its event and subscription ids, so it is the same `webhook-id` however often it is
   * attempted. Returns the events dispatched (0 when the outbox has nothing new).
   */
  async dispatch(limit: number): Promise<number> {
    const { targets, targetColumn: key } = this.tables;
    const rows = await this.sql.query<{ id: string }>({
      name: `${targets}_fan_out`,
      text: `
        WITH claimed AS (
          SELECT id, workspace_id, type, created_at FROM outbox_events
          WHERE dispatched_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
        ), fanned AS (
          INSERT INTO webhook_deliveries (id, event_id, ${key}, workspace_id, event_created_at)
          SELECT 'msg_' || substr(c.id, 5) || substr(s.id, 5), c.id, s.id, c.workspace_id, c.created_at
          FROM claimed c
          JOIN ${targets} s ON s.workspace_id = c.workspace_id AND s.status = 'active'
            AND ${patternsSelectSql('s.event_patterns', 'c.type')}
          ON CONFLICT (event_id, ${key}) DO NOTHING
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
    const { targets } = this.tables;
    const rows = await this.sql.query<{ id: string }>({
      name: `${targets}_prune`,
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

  /**
   * Claims due deliveries of active subscriptions, at most `perSubscription` of each and none of the `busy` ones,
   * leasing them for `leaseMs` (a worker that dies mid-attempt leaves them due again once the lease runs out).
   */
  claim(limit: number, perSubscription: number, busy: readonly string[], leaseMs: number): Promise<ClaimedDelivery[]> {
    const { targets, targetColumn: key } = this.tables;
    return this.sql.query<ClaimedDelivery>({
      name: `${targets}_claim`,
      text: `
        WITH due AS (
          SELECT d.id FROM ${targets} s
          CROSS JOIN LATERAL (
            SELECT id, next_attempt_at FROM webhook_deliveries
            WHERE ${key} = s.id AND state = 'pending' AND next_attempt_at <= now()
            ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED
          ) d
          WHERE s.status = 'active' AND NOT (s.id = ANY($3::text[]))
          ORDER BY d.next_attempt_at LIMIT $1
        )
        UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => $4::double precision / 1000)
        FROM due, ${targets} s, outbox_events e
        WHERE d.id = due.id AND s.id = d.${key} AND e.id = d.event_id
        RETURNING d.id, d.attempts, d.${key} AS subscription_id, s.url, s.signing_secret, e.id AS event_id, e.workspace_id, e.type, e.payload, e.created_at`,
      values: [limit, perSubscription, busy, leaseMs],
    });
  }

  /**
   * Records attempts and keeps each subscription's delivery fields current, in one statement. A subscription whose
   * failures have gone on since `disableBefore` without a success is disabled, saying why in `last_delivery_error`.
   * An outcome for a delivery no longer pending (another worker finished it after a lease ran out) changes nothing.
   */
  async record(outcomes: readonly AttemptOutcome[], disableBefore: Date): Promise<void> {
    if (!outcomes.length) return;
    const { targets, targetColumn: key } = this.tables;
    await this.sql.query({
      name: `${targets}_record`,
      text: `
        WITH outcome AS (
          SELECT * FROM unnest($1::text[], $2::boolean[], $3::int[], $4::text[], $5::timestamptz[], $6::timestamptz[])
            AS o(id, ok, status, error, at, retry_at)
        ), recorded AS (
          UPDATE webhook_deliveries d SET
            attempts = d.attempts + 1,
            state = CASE WHEN o.ok THEN 'delivered' WHEN o.retry_at IS NULL THEN 'failed' ELSE 'pending' END,
            next_attempt_at = COALESCE(o.retry_at, d.next_attempt_at),
            last_status = o.status,
            last_error = o.error,
            delivered_at = CASE WHEN o.ok THEN o.at END
          FROM outcome o WHERE d.id = o.id AND d.state = 'pending'
          RETURNING d.${key} AS subscription_id, o.ok, o.error, o.at
        ), latest AS (
          SELECT subscription_id, count(*)::int AS attempts,
                 max(at) FILTER (WHERE ok) AS last_ok, max(at) FILTER (WHERE NOT ok) AS last_fail,
                 (array_agg(error ORDER BY at DESC) FILTER (WHERE NOT ok))[1] AS last_error
          FROM recorded GROUP BY subscription_id
        ), summary AS (
          SELECT l.*, (SELECT min(r.at) FROM recorded r
                       WHERE r.subscription_id = l.subscription_id AND NOT r.ok AND (l.last_ok IS NULL OR r.at > l.last_ok)) AS first_fail
          FROM latest l
        ), next AS (
          SELECT m.*, s.id,
                 CASE WHEN m.last_fail IS NULL OR m.last_ok >= m.last_fail THEN NULL
                      WHEN m.last_ok IS NULL THEN COALESCE(s.failing_since, m.first_fail) ELSE m.first_fail END AS failing_since
          FROM summary m JOIN ${targets} s ON s.id = m.subscription_id
        )
        UPDATE ${targets} s SET
          delivery_attempts = s.delivery_attempts + n.attempts,
          last_delivered_at = COALESCE(n.last_ok, s.last_delivered_at),
          last_failed_at = COALESCE(n.last_fail, s.last_failed_at),
          last_delivery_status = CASE WHEN n.failing_since IS NULL THEN 'delivered' ELSE 'failed' END,
          last_delivery_error = CASE
            WHEN n.failing_since IS NULL THEN NULL
            WHEN s.status = 'active' AND n.failing_since <= $7 THEN
              'Disabled automatically: no delivery has succeeded since ' || to_char(n.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') ||
              '. Last error: ' || n.last_error
            ELSE n.last_error END,
          failing_since = n.failing_since,
          status = CASE WHEN n.failing_since IS NOT NULL AND n.failing_since <= $7 THEN 'disabled' ELSE s.status END
        FROM next n WHERE s.id = n.id`,
      values: [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.ok),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.error),
        outcomes.map((o) => o.at),
        outcomes.map((o) => o.retryAt),
        disableBefore,
      ],
    });
  }
}
