import { Injectable } from '@nestjs/common';
import { Broadcast, EmailSql } from '@email/data-access';

type EngagementCounts = Pick<Broadcast, 'opened_count' | 'clicked_count' | 'unsubscribed_count' | 'bounced_count' | 'complained_count'>;

/** Statuses a broadcast can have sent in; a draft or scheduled one has no events to count. */
const SENT = new Set<string>(['running', 'completed', 'failed']);

/**
 * Distinct subscribers per broadcast and event type, machine opens left out. Read from the
 * (source_id, type, machine, subscriber_id) index alone; a broadcast id names one workspace's broadcast (the tracking
 * and unsubscribe tokens that write these events are signed with both), and the ids come from a workspace-scoped read.
 */
const COUNT_EVENTS = `
  SELECT source_id,
    count(DISTINCT subscriber_id) FILTER (WHERE type = 'opened' AND NOT machine)::int AS opened_count,
    count(DISTINCT subscriber_id) FILTER (WHERE type = 'clicked')::int AS clicked_count,
    count(DISTINCT subscriber_id) FILTER (WHERE type = 'unsubscribed')::int AS unsubscribed_count,
    count(DISTINCT subscriber_id) FILTER (WHERE type = 'bounced')::int AS bounced_count,
    count(DISTINCT subscriber_id) FILTER (WHERE type = 'complained')::int AS complained_count
  FROM email_events
  WHERE source_id = ANY($1::text[]) AND type IN ('opened', 'clicked', 'unsubscribed', 'bounced', 'complained')
  GROUP BY source_id`;

/**
 * A broadcast's engagement counts, derived when read from the events its messages led to (email_events with the
 * broadcast as source): nothing is written per event, so the open, click and unsubscribe endpoints stay one insert.
 */
@Injectable()
export class BroadcastEngagement {
  constructor(private readonly sql: EmailSql) {}

  /** The broadcasts with their counts; drafts and scheduled ones as they are (zero). */
  async withCounts(broadcasts: Broadcast[]): Promise<Broadcast[]> {
    const ids = broadcasts.filter((broadcast) => SENT.has(broadcast.status)).map((broadcast) => broadcast.id);
    if (ids.length === 0) return broadcasts;
    const rows = await this.sql.query<EngagementCounts & { source_id: string }>({ name: 'broadcast_engagement_counts', text: COUNT_EVENTS, values: [ids] });
    const counts = new Map(rows.map(({ source_id, ...row }) => [source_id, row]));
    return broadcasts.map((broadcast) => ({ ...broadcast, ...counts.get(broadcast.id) }));
  }
}
