import { Inject, Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { EmailEventType, EmailSql } from '@email/data-access';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, WorkspaceId } from '@shared/core';
import { windowBounds, windowCountsSql } from './engagement-windows';
import { EmailEventPartitions, retentionCutoff } from './event-partitions';
import { classifyOpen } from './machine-open';

export interface EngagementEventInput {
  subscriberId: string;
  type: EmailEventType;
  occurredAt: Date;
  /** What the event is about (e.g. 'broadcast', 'sequence_email') and its id. */
  sourceType?: string | null;
  sourceId?: string | null;
  /** The fetch's User-Agent: only used to classify an open, never stored. */
  userAgent?: string | null;
  /** When the message this event is about was delivered, when the caller knows: classifies an open. */
  deliveredAt?: Date | null;
}

export interface EngagementRecordResult {
  /** Events stored. */
  written: number;
  /** Of those, opens flagged as machine opens. */
  machineOpens: number;
  /** Subscribers whose engagement rollup was written. */
  subscribers: number;
  skipped: {
    /** The subscriber id is not one of this workspace's (another workspace's, or none). */
    unknownSubscriber: number;
    /** Older than ENGAGEMENT_RETENTION_MONTHS keeps: its month is pruned, or about to be. */
    outsideRetention: number;
    /** More than MAX_FUTURE_MS ahead of the clock: a wrong timestamp would otherwise pin a last_* time forever. */
    inFuture: number;
  };
}

/** How far ahead of this process's clock an event's time may be (another machine's clock may run a little ahead). */
export const MAX_FUTURE_MS = 10 * 60_000;
const EVENT_TYPES = new Set<string>(Object.values(EmailEventType));

/** PostgreSQL's answer to a row no partition takes (23514, "no partition of relation … found for row"). */
const isMissingPartition = (error: unknown) => (error as { code?: string })?.code === '23514' && /no partition/i.test((error as Error).message ?? '');

/** Locks the workspace's subscribers among the ids, in id order; foreign and unknown ids are not returned. */
const LOCK_SUBSCRIBERS = `
  SELECT id FROM subscribers WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR NO KEY UPDATE`;

const LAST_DELIVERED = `
  SELECT subscriber_id, last_delivered_at FROM subscriber_engagement
  WHERE workspace_id = $1 AND subscriber_id = ANY($2::text[]) AND last_delivered_at IS NOT NULL`;

const INSERT_EVENTS = `
  INSERT INTO email_events (workspace_id, subscriber_id, type, occurred_at, source_type, source_id, machine, machine_reason)
  SELECT $1, e.subscriber_id, e.type, e.occurred_at, e.source_type, e.source_id, e.machine, e.machine_reason
  FROM unnest($2::text[], $3::"EmailEventType"[], $4::timestamptz[], $5::text[], $6::text[], $7::boolean[], $8::text[])
    AS e(subscriber_id, type, occurred_at, source_type, source_id, machine, machine_reason)
  WHERE EXISTS (SELECT 1 FROM subscribers s WHERE s.workspace_id = $1 AND s.id = e.subscriber_id)`;

/**
 * One row per subscriber: the batch's latest time of each kind moves the stored one only forward; the human open and
 * click windows are counted again from email_events (this transaction's inserts included) as of $2 (see windowCountsSql).
 */
const UPSERT_ROLLUP = `
  INSERT INTO subscriber_engagement AS r (subscriber_id, workspace_id, last_delivered_at, last_opened_at, last_machine_opened_at,
    last_clicked_at, last_bounced_at, last_complained_at, last_unsubscribed_at, last_magic_link_clicked_at,
    opens_30d, opens_90d, clicks_30d, clicks_90d, windows_as_of)
  SELECT b.subscriber_id, $1, b.delivered, b.opened, b.machine_opened, b.clicked, b.bounced, b.complained, b.unsubscribed, b.magic_link_clicked,
    w.opens_30d, w.opens_90d, w.clicks_30d, w.clicks_90d, $2
  FROM unnest($5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[], $9::timestamptz[], $10::timestamptz[], $11::timestamptz[],
      $12::timestamptz[], $13::timestamptz[])
    AS b(subscriber_id, delivered, opened, machine_opened, clicked, bounced, complained, unsubscribed, magic_link_clicked)
  CROSS JOIN LATERAL ${windowCountsSql('$1', 'b.subscriber_id', ['$2', '$3', '$4'])} w
  WHERE EXISTS (SELECT 1 FROM subscribers s WHERE s.workspace_id = $1 AND s.id = b.subscriber_id)
  ON CONFLICT (subscriber_id) DO UPDATE SET
    last_delivered_at = GREATEST(r.last_delivered_at, EXCLUDED.last_delivered_at),
    last_opened_at = GREATEST(r.last_opened_at, EXCLUDED.last_opened_at),
    last_machine_opened_at = GREATEST(r.last_machine_opened_at, EXCLUDED.last_machine_opened_at),
    last_clicked_at = GREATEST(r.last_clicked_at, EXCLUDED.last_clicked_at),
    last_bounced_at = GREATEST(r.last_bounced_at, EXCLUDED.last_bounced_at),
    last_complained_at = GREATEST(r.last_complained_at, EXCLUDED.last_complained_at),
    last_unsubscribed_at = GREATEST(r.last_unsubscribed_at, EXCLUDED.last_unsubscribed_at),
    last_magic_link_clicked_at = GREATEST(r.last_magic_link_clicked_at, EXCLUDED.last_magic_link_clicked_at),
    opens_30d = EXCLUDED.opens_30d, opens_90d = EXCLUDED.opens_90d,
    clicks_30d = EXCLUDED.clicks_30d, clicks_90d = EXCLUDED.clicks_90d,
    windows_as_of = EXCLUDED.windows_as_of
  WHERE r.workspace_id = $1`;

/** Moves subscribers.last_opened_at forward to the batch's latest human open; a row already as new is not touched. */
const SUBSCRIBER_LAST_OPENED = `
  UPDATE subscribers s SET last_opened_at = b.opened
  FROM unnest($2::text[], $3::timestamptz[]) AS b(id, opened)
  WHERE s.workspace_id = $1 AND s.id = b.id AND (s.last_opened_at IS NULL OR s.last_opened_at < b.opened)`;

/** The rollup's columns of last times, in the order UPSERT_ROLLUP takes them after the subscriber id. */
const LAST_COLUMNS = ['delivered', 'opened', 'machine_opened', 'clicked', 'bounced', 'complained', 'unsubscribed', 'magic_link_clicked'] as const;
type LastColumn = (typeof LAST_COLUMNS)[number];

interface ClassifiedEvent extends EngagementEventInput {
  machine: boolean;
  machineReason: string | null;
}

function lastColumnOf(event: ClassifiedEvent): LastColumn {
  if (event.type === 'opened') return event.machine ? 'machine_opened' : 'opened';
  return event.type;
}

const iso = (at: Date | null | undefined) => (at ? at.toISOString() : null);
const later = (a: Date | undefined, b: Date) => (a && a >= b ? a : b);

function validate(events: EngagementEventInput[]): void {
  for (const [i, event] of events.entries()) {
    const where = `engagement event ${i}`;
    if (typeof event.subscriberId !== 'string' || event.subscriberId === '') throw new RangeError(`${where}: subscriberId is required`);
    if (!EVENT_TYPES.has(event.type)) throw new RangeError(`${where}: unknown type ${String(event.type)}`);
    if (!(event.occurredAt instanceof Date) || Number.isNaN(event.occurredAt.getTime())) throw new RangeError(`${where}: occurredAt is not a valid Date`);
    if (event.deliveredAt != null && (!(event.deliveredAt instanceof Date) || Number.isNaN(event.deliveredAt.getTime()))) {
      throw new RangeError(`${where}: deliveredAt is not a valid Date`);
    }
  }
}

/**
 * Writes engagement events and keeps each subscriber's engagement rollup (what audience conditions read) current.
 * Every statement names the workspace; an event for a subscriber the workspace does not have is skipped, never written.
 *
 * Not idempotent: email_events has no de-duplication key, so recording the same event twice stores it twice and
 * counts it twice in the windows (the last_* times are unaffected). Callers record each event once.
 */
@Injectable()
export class EngagementRepository {
  constructor(
    private readonly sql: EmailSql,
    private readonly partitions: EmailEventPartitions,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'engagementRetentionMonths'>,
  ) {}

  /**
   * Records the events in their own transaction, or, given `client`, in the caller's transaction on that connection
   * (so they commit with the caller's other writes). A month partition still missing is created first in a short
   * transaction of its own either way; in the caller's transaction a partition dropped behind this process's back
   * fails the call (the caller's transaction is spoiled) and the next call asks the database again.
   */
  async record(workspaceId: WorkspaceId, events: EngagementEventInput[], options: { client?: PoolClient } = {}): Promise<EngagementRecordResult> {
    validate(events);
    const now = this.clock.now();
    const cutoff = retentionCutoff(now, this.config.engagementRetentionMonths);
    const latest = now.getTime() + MAX_FUTURE_MS;
    const inRange = events.filter((event) => event.occurredAt >= cutoff && event.occurredAt.getTime() <= latest);
    const skipped = {
      unknownSubscriber: 0,
      outsideRetention: events.filter((event) => event.occurredAt < cutoff).length,
      inFuture: events.filter((event) => event.occurredAt.getTime() > latest).length,
    };
    if (inRange.length === 0) return { written: 0, machineOpens: 0, subscribers: 0, skipped };
    const given = options.client;
    if (given) {
      await this.partitions.ensure(inRange.map((event) => event.occurredAt));
      return this.writeIn(workspaceId, given, inRange, now, skipped).catch((error: unknown) => {
        if (isMissingPartition(error)) this.partitions.forget();
        throw error;
      });
    }
    try {
      return await this.write(workspaceId, inRange, now, skipped);
    } catch (error) {
      // A partition this process believed in was dropped (pruning by another process, by hand): ask again, once.
      if (!isMissingPartition(error)) throw error;
      this.partitions.forget();
      return this.write(workspaceId, inRange, now, skipped);
    }
  }

  private async write(
    workspaceId: WorkspaceId,
    events: EngagementEventInput[],
    now: Date,
    skipped: EngagementRecordResult['skipped'],
  ): Promise<EngagementRecordResult> {
    // Its own short transaction: creating a month's partition locks email_events, which must not last the whole write.
    await this.partitions.ensure(events.map((event) => event.occurredAt));
    return this.sql.transaction((client) => this.writeIn(workspaceId, client, events, now, skipped));
  }

  private async writeIn(
    workspaceId: WorkspaceId,
    client: PoolClient,
    events: EngagementEventInput[],
    now: Date,
    skipped: EngagementRecordResult['skipped'],
  ): Promise<EngagementRecordResult> {
    const ids = [...new Set(events.map((event) => event.subscriberId))].sort();
    // One writer per subscriber at a time, so the windows counted below include every committed event.
    const { rows: owned } = await client.query<{ id: string }>({ name: 'engagement_lock_subscribers', text: LOCK_SUBSCRIBERS, values: [workspaceId, ids] });
    const members = new Set(owned.map((row) => row.id));
    const kept = events.filter((event) => members.has(event.subscriberId));
    const result = { written: 0, machineOpens: 0, subscribers: 0, skipped: { ...skipped, unknownSubscriber: events.length - kept.length } };
    if (kept.length === 0) return result;

    const classified = await this.classify(workspaceId, client, kept);
    result.written = await this.insert(workspaceId, client, classified);
    result.machineOpens = classified.filter((event) => event.machine).length;
    result.subscribers = await this.upsertRollups(workspaceId, client, classified, now);
    await this.moveLastOpened(workspaceId, client, classified);
    return result;
  }

  /**
   * Flags machine opens. The delivery an open is timed against: the caller's deliveredAt, else the latest delivery at
   * or before it, from this batch or the rollup (a later one belongs to another message).
   */
  private async classify(workspaceId: WorkspaceId, client: PoolClient, events: EngagementEventInput[]): Promise<ClassifiedEvent[]> {
    const deliveries = new Map<string, Date[]>();
    for (const event of events)
      if (event.type === 'delivered') deliveries.set(event.subscriberId, [...(deliveries.get(event.subscriberId) ?? []), event.occurredAt]);
    const undated = [...new Set(events.filter((event) => event.type === 'opened' && !event.deliveredAt).map((event) => event.subscriberId))];
    if (undated.length > 0) {
      const { rows } = await client.query<{ subscriber_id: string; last_delivered_at: Date }>({
        name: 'engagement_last_delivered',
        text: LAST_DELIVERED,
        values: [workspaceId, undated],
      });
      for (const row of rows) deliveries.set(row.subscriber_id, [...(deliveries.get(row.subscriber_id) ?? []), row.last_delivered_at]);
    }
    const deliveredBefore = (event: EngagementEventInput) =>
      (deliveries.get(event.subscriberId) ?? []).filter((at) => at <= event.occurredAt).reduce<Date | undefined>(later, undefined) ?? null;

    return events.map((event) => {
      if (event.type !== 'opened') return { ...event, machine: false, machineReason: null };
      const verdict = classifyOpen({ occurredAt: event.occurredAt, userAgent: event.userAgent, deliveredAt: event.deliveredAt ?? deliveredBefore(event) });
      return { ...event, machine: verdict.machine, machineReason: verdict.reason };
    });
  }

  private async insert(workspaceId: WorkspaceId, client: PoolClient, events: ClassifiedEvent[]): Promise<number> {
    const { rowCount } = await client.query({
      name: 'engagement_insert_events',
      text: INSERT_EVENTS,
      values: [
        workspaceId,
        events.map((event) => event.subscriberId),
        events.map((event) => event.type),
        events.map((event) => iso(event.occurredAt)),
        events.map((event) => event.sourceType ?? null),
        events.map((event) => event.sourceId ?? null),
        events.map((event) => event.machine),
        events.map((event) => event.machineReason),
      ],
    });
    return rowCount ?? 0;
  }

  private async upsertRollups(workspaceId: WorkspaceId, client: PoolClient, events: ClassifiedEvent[], now: Date): Promise<number> {
    const lasts = new Map<string, Partial<Record<LastColumn, Date>>>();
    for (const event of events) {
      const row = lasts.get(event.subscriberId) ?? {};
      const column = lastColumnOf(event);
      row[column] = later(row[column], event.occurredAt);
      lasts.set(event.subscriberId, row);
    }
    const ids = [...lasts.keys()];
    const { rowCount } = await client.query({
      name: 'engagement_upsert_rollups',
      text: UPSERT_ROLLUP,
      values: [workspaceId, ...windowBounds(now), ids, ...LAST_COLUMNS.map((column) => ids.map((id) => iso(lasts.get(id)?.[column])))],
    });
    return rowCount ?? 0;
  }

  private async moveLastOpened(workspaceId: WorkspaceId, client: PoolClient, events: ClassifiedEvent[]): Promise<void> {
    const opened = new Map<string, Date>();
    for (const event of events) {
      if (event.type === 'opened' && !event.machine) opened.set(event.subscriberId, later(opened.get(event.subscriberId), event.occurredAt));
    }
    if (opened.size === 0) return;
    await client.query({
      name: 'engagement_subscriber_last_opened',
      text: SUBSCRIBER_LAST_OPENED,
      values: [workspaceId, [...opened.keys()], [...opened.values()].map(iso)],
    });
  }
}
