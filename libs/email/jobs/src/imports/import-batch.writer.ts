import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EmailSql } from '@email/data-access';
import { activationNeedsConsent, FieldDefinition, SubscriberStatusName } from '@email/audience';
import { IdGenerator, WorkspaceId } from '@shared/core';
import { isUniqueViolation } from '@shared/errors';
import { patternsSelectSql } from '@shared/webhooks';
import { CompiledMapping, ImportRow, Rejection } from './import-mapping';
import { LaneBatch } from './import-lanes';

/** The counters one batch moves. */
export interface BatchCounts {
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
  duplicates: number;
}

/** What a batch applies besides the rows: the job's tags and sequences, and whether anything may be written. */
export interface BatchTarget {
  jobId: string;
  dryRun: boolean;
  tagIds: string[];
  sequenceIds: string[];
  mapping: CompiledMapping;
}

interface Stored {
  id: string;
  email: string;
  name: string;
  status: SubscriberStatusName;
  country: string | null;
  custom_fields: Record<string, unknown>;
}

/** The events an import can write. */
const SUBSCRIBER_EVENT_TYPES = ['subscriber.created', 'subscriber.updated', 'subscriber.status_changed'] as const;
type SubscriberEventType = (typeof SUBSCRIBER_EVENT_TYPES)[number];

/** How many tag count shards the tag counters spread over (the audience engine's TAG_COUNT_SHARDS). */
const TAG_COUNT_SHARDS = 32;

/**
 * Applies one batch of validated rows in one transaction, set-based: the batch's existing subscribers are read and
 * locked in one statement; new ones are streamed with COPY into a temporary staging table, from which three plain
 * INSERT … SELECT statements write them, their memberships and their `subscriber.created` events; changed ones are
 * updated in one statement; then the memberships of existing subscribers, the tag counters, their events and the
 * rejected rows, each in one statement; last the job's checkpoint moves, guarded by the checkpoint it expected, so a
 * batch commits once however often a job is retried.
 */
@Injectable()
export class ImportBatchWriter {
  constructor(
    private readonly sql: EmailSql,
    private readonly ids: IdGenerator,
  ) {}

  async write(workspaceId: WorkspaceId, target: BatchTarget, lane: number, batch: LaneBatch): Promise<BatchCounts> {
    const { rows } = batch;
    const rejections = [...batch.rejections];
    // In-file duplicates: the last row of an email wins; the earlier ones are counted, not written.
    const byEmail = new Map<string, ImportRow>();
    for (const row of rows) byEmail.set(row.email, row);
    const unique = [...byEmail.values()];
    const counts: BatchCounts = { created: 0, updated: 0, unchanged: 0, rejected: rejections.length, duplicates: rows.length - unique.length };

    return this.sql.transaction(async (client) => {
      const stored = await this.lockExisting(
        client,
        workspaceId,
        unique.map((row) => row.email),
      );
      const inserts: Stored[] = [];
      const updates: Array<{ next: Stored; changed: string[]; previousStatus: SubscriberStatusName }> = [];
      const members: string[] = [];
      for (const row of unique) {
        const current = stored.get(row.email);
        if (!current) {
          inserts.push({
            id: this.ids.newId('sub'),
            email: row.email,
            name: row.name ?? '',
            status: row.status ?? 'Active',
            country: row.country ?? null,
            custom_fields: row.customFields,
          });
          continue;
        }
        if (activationNeedsConsent(current.status, row.status)) {
          rejections.push({
            rowNumber: row.rowNumber,
            column: target.mapping.status!.column,
            code: 'consent_evidence_required',
            reason: `Making a ${current.status} subscriber Active needs consent evidence, which an import cannot give.`,
          });
          counts.rejected++;
          continue;
        }
        members.push(current.id);
        const next: Stored = {
          ...current,
          name: row.name ?? current.name,
          status: row.status ?? current.status,
          country: row.country ?? current.country,
          custom_fields: { ...current.custom_fields, ...row.customFields },
        };
        const changed = (['name', 'status', 'country'] as const).filter((field) => next[field] !== current[field]);
        if (JSON.stringify(next.custom_fields) !== JSON.stringify(current.custom_fields)) changed.push('custom_fields' as never);
        if (changed.length) updates.push({ next, changed, previousStatus: current.status });
        else counts.unchanged++;
      }
      counts.created = inserts.length;
      counts.updated = updates.length;
      if (!target.dryRun) {
        await this.lockFields(client, workspaceId, target.mapping);
        const tagIds = await this.lockTags(client, workspaceId, target.tagIds);
        const published = await this.publishedEvents(client, workspaceId);
        await this.insert(client, workspaceId, target, tagIds, inserts, published);
        await this.update(
          client,
          workspaceId,
          updates.map((update) => update.next),
        );
        const tagged = await this.addMemberships(client, workspaceId, target, tagIds, members);
        for (const tagId of tagIds) if (inserts.length) tagged.added.set(tagId, (tagged.added.get(tagId) ?? 0) + inserts.length);
        await this.moveTagCounts(client, workspaceId, tagged.added);
        await this.recordEvents(client, workspaceId, updates, tagged.subscribers, published);
      }
      await this.recordRejections(client, workspaceId, target.jobId, rejections);
      await this.checkpoint(client, workspaceId, target.jobId, lane, batch, counts);
      return counts;
    });
  }

  private async lockExisting(client: PoolClient, workspaceId: WorkspaceId, emails: string[]): Promise<Map<string, Stored>> {
    const { rows } = await client.query<Stored>({
      name: 'import_lock_existing',
      text: `SELECT id, email, name, status::text AS status, country, custom_fields FROM subscribers
             WHERE workspace_id = $1 AND email = ANY($2::text[]) ORDER BY id FOR UPDATE`,
      values: [workspaceId, emails],
    });
    return new Map(rows.map((row) => [row.email, row]));
  }

  /**
   * The mapped custom fields, held in key-share mode until the batch commits (as subscriber writes hold them, so a type
   * change waits): the rows were checked against the definitions read when the job started, so a field changed or
   * deleted since fails the job rather than letting values of its old type in.
   */
  private async lockFields(client: PoolClient, workspaceId: WorkspaceId, mapping: CompiledMapping): Promise<void> {
    const definitions = mapping.customFields.map((field) => field.definition);
    if (!definitions.length) return;
    const { rows } = await client.query<FieldDefinition>({
      name: 'import_lock_fields',
      text: 'SELECT id, type::text AS type, options FROM custom_fields WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR KEY SHARE',
      values: [workspaceId, definitions.map((definition) => definition.id)],
    });
    const current = new Map(rows.map((row) => [row.id, row]));
    const changed = definitions.find(
      (definition) =>
        current.get(definition.id)?.type !== definition.type || JSON.stringify(current.get(definition.id)?.options) !== JSON.stringify(definition.options),
    );
    if (changed) throw new ImportFailure(`The custom field ${changed.id} was changed or deleted during the import; the rows before this point were imported.`);
  }

  /** The job's tags that still exist, locked against deletion until the batch commits. */
  private async lockTags(client: PoolClient, workspaceId: WorkspaceId, tagIds: string[]): Promise<string[]> {
    if (!tagIds.length) return [];
    const { rows } = await client.query<{ id: string }>({
      name: 'import_lock_tags',
      text: 'SELECT id FROM tags WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR KEY SHARE',
      values: [workspaceId, tagIds],
    });
    return rows.map((row) => row.id);
  }

  /**
   * The subscriber event types an active webhook subscription of the workspace selects (as the outbox fan-out matches
   * them): an import writes only those, since nothing else reads the outbox and a million unread events would cost
   * as much as the subscribers themselves.
   */
  private async publishedEvents(client: PoolClient, workspaceId: WorkspaceId): Promise<Set<SubscriberEventType>> {
    const { rows } = await client.query<{ type: SubscriberEventType }>({
      name: 'import_published_events',
      text: `SELECT t.type FROM unnest($2::text[]) AS t (type)
             WHERE EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.workspace_id = $1 AND s.status = 'active'
               AND ${patternsSelectSql('s.event_patterns', 't.type')})`,
      values: [workspaceId, SUBSCRIBER_EVENT_TYPES],
    });
    return new Set(rows.map((row) => row.type));
  }

  /**
   * New subscribers, their memberships and their `subscriber.created` events: the rows go to a temporary table by COPY
   * (no parameter arrays to build and parse), then each target is one plain INSERT … SELECT (none can meet an existing
   * row, so none needs ON CONFLICT's per-row speculative insertion). An email another writer created since the batch's
   * read fails the insert with a unique violation; the batch rolls back and its retry reads that subscriber as existing.
   */
  private async insert(
    client: PoolClient,
    workspaceId: WorkspaceId,
    target: BatchTarget,
    tagIds: string[],
    rows: Stored[],
    published: Set<SubscriberEventType>,
  ): Promise<void> {
    if (!rows.length) return;
    await client.query(STAGING_TABLE);
    const eventId = published.has('subscriber.created') ? () => this.ids.newId('evt') : () => null;
    const lines = function* (): Generator<string> {
      for (let i = 0; i < rows.length; i += 1000) {
        let chunk = '';
        for (const row of rows.slice(i, i + 1000))
          chunk += `${[row.id, row.email, row.name, row.status, row.country, JSON.stringify(row.custom_fields), eventId()].map(copyText).join('\t')}\n`;
        yield chunk;
      }
    };
    await pipeline(Readable.from(lines()), client.query(copyFrom('COPY import_new_subscribers FROM STDIN')));
    try {
      await client.query({
        name: 'import_insert',
        text: `INSERT INTO subscribers (id, workspace_id, email, name, status, country, custom_fields, subscribed_at, created_at, updated_at)
               SELECT n.id, $1, n.email, n.name, n.status::"SubscriberStatus", n.country, n.custom_fields, now(), now(), now() FROM import_new_subscribers n`,
        values: [workspaceId],
      });
    } catch (error) {
      if (isUniqueViolation(error, 'email')) throw new ConcurrentImportWrite();
      throw error;
    }
    if (tagIds.length)
      await client.query({
        name: 'import_tag_new',
        text: `INSERT INTO subscriber_tags (workspace_id, subscriber_id, tag_id, created_at)
               SELECT $1, n.id, t, now() FROM import_new_subscribers n CROSS JOIN unnest($2::text[]) AS t`,
        values: [workspaceId, tagIds],
      });
    if (target.sequenceIds.length)
      await client.query({
        name: 'import_enroll_new',
        text: `INSERT INTO sequence_enrollments (workspace_id, subscriber_id, sequence_id, state, enrolled_at, updated_at)
               SELECT $1, n.id, q.id, 'active', now(), now() FROM import_new_subscribers n
               CROSS JOIN (SELECT id FROM sequences WHERE workspace_id = $1 AND id = ANY($2::text[])) AS q`,
        values: [workspaceId, target.sequenceIds],
      });
    if (!published.has('subscriber.created')) return;
    await client.query({
      name: 'import_outbox_created',
      text: `INSERT INTO outbox_events (id, workspace_id, type, payload, created_at)
             SELECT n.event_id, $1, 'subscriber.created', jsonb_build_object('subscriber', jsonb_build_object('id', n.id), 'status', n.status), now()
             FROM import_new_subscribers n`,
      values: [workspaceId],
    });
  }

  private async update(client: PoolClient, workspaceId: WorkspaceId, rows: Stored[]): Promise<void> {
    if (!rows.length) return;
    await client.query({
      name: 'import_update',
      text: `UPDATE subscribers s SET name = u.name, status = u.status::"SubscriberStatus", country = u.country,
               custom_fields = u.custom_fields::jsonb, updated_at = now()
             FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u (id, name, status, country, custom_fields)
             WHERE s.workspace_id = $1 AND s.id = u.id`,
      values: [
        workspaceId,
        rows.map((row) => row.id),
        rows.map((row) => row.name),
        rows.map((row) => row.status),
        rows.map((row) => row.country),
        rows.map((row) => JSON.stringify(row.custom_fields)),
      ],
    });
  }

  /**
   * The existing subscribers of the batch get the job's tags and sequences; only memberships that are new move a tag's
   * counter, so the counts stay exact. Returns the subscribers that got a new tag and how many each tag gained.
   */
  private async addMemberships(
    client: PoolClient,
    workspaceId: WorkspaceId,
    target: BatchTarget,
    tagIds: string[],
    subscriberIds: string[],
  ): Promise<{ subscribers: Set<string>; added: Map<string, number> }> {
    const tagged = { subscribers: new Set<string>(), added: new Map<string, number>() };
    if (!subscriberIds.length) return tagged;
    if (tagIds.length) {
      const { rows } = await client.query<{ subscriber_id: string; tag_id: string }>({
        name: 'import_add_tags',
        text: `INSERT INTO subscriber_tags (workspace_id, subscriber_id, tag_id, created_at)
               SELECT $1, s, t, now() FROM unnest($2::text[]) AS s CROSS JOIN unnest($3::text[]) AS t
               ON CONFLICT DO NOTHING RETURNING subscriber_id, tag_id`,
        values: [workspaceId, subscriberIds, tagIds],
      });
      for (const row of rows) {
        tagged.subscribers.add(row.subscriber_id);
        tagged.added.set(row.tag_id, (tagged.added.get(row.tag_id) ?? 0) + 1);
      }
    }
    if (target.sequenceIds.length) {
      await client.query({
        name: 'import_enroll',
        text: `INSERT INTO sequence_enrollments (workspace_id, subscriber_id, sequence_id, state, enrolled_at, updated_at)
               SELECT $1, s, q.id, 'active', now(), now() FROM unnest($2::text[]) AS s
               CROSS JOIN (SELECT id FROM sequences WHERE workspace_id = $1 AND id = ANY($3::text[])) AS q
               ON CONFLICT (subscriber_id, sequence_id) DO UPDATE SET state = 'active', enrolled_at = now(), updated_at = now()
               WHERE sequence_enrollments.state <> 'active'`,
        values: [workspaceId, subscriberIds, target.sequenceIds],
      });
    }
    return tagged;
  }

  /** Each tag's counter moves by exactly the memberships the batch added, on one shard. */
  private async moveTagCounts(client: PoolClient, workspaceId: WorkspaceId, added: Map<string, number>): Promise<void> {
    if (!added.size) return;
    await client.query({
      name: 'import_tag_counts',
      text: `INSERT INTO tag_count_shards (tag_id, shard, workspace_id, delta)
             SELECT u.tag_id, $2::smallint, $1, u.delta FROM unnest($3::text[], $4::int[]) AS u (tag_id, delta) ORDER BY u.tag_id
             ON CONFLICT (tag_id, shard) DO UPDATE SET delta = tag_count_shards.delta + EXCLUDED.delta`,
      values: [workspaceId, randomInt(TAG_COUNT_SHARDS), [...added.keys()], [...added.values()]],
    });
  }

  /** The same events the upsert writes for the batch's existing subscribers, in one insert (created ones got theirs with the insert). */
  private async recordEvents(
    client: PoolClient,
    workspaceId: WorkspaceId,
    updates: Array<{ next: Stored; changed: string[]; previousStatus: SubscriberStatusName }>,
    tagged: Set<string>,
    published: Set<SubscriberEventType>,
  ): Promise<void> {
    let events: Array<[SubscriberEventType, Record<string, unknown>]> = [];
    const updatedIds = new Set<string>();
    for (const { next, changed, previousStatus } of updates) {
      const fields = changed.filter((field) => field !== 'status');
      if (tagged.has(next.id)) fields.push('tags');
      updatedIds.add(next.id);
      if (fields.length) events.push(['subscriber.updated', { subscriber: { id: next.id }, changed_fields: fields }]);
      if (next.status !== previousStatus)
        events.push(['subscriber.status_changed', { subscriber: { id: next.id }, previous_status: previousStatus, status: next.status }]);
    }
    for (const id of tagged) if (!updatedIds.has(id)) events.push(['subscriber.updated', { subscriber: { id }, changed_fields: ['tags'] }]);
    events = events.filter(([type]) => published.has(type));
    if (!events.length) return;
    await client.query({
      name: 'import_outbox',
      text: `INSERT INTO outbox_events (id, workspace_id, type, payload, created_at)
             SELECT u.id, $1, u.type, u.payload::jsonb, now() FROM unnest($2::text[], $3::text[], $4::text[]) AS u (id, type, payload)`,
      values: [workspaceId, events.map(() => this.ids.newId('evt')), events.map(([type]) => type), events.map(([, payload]) => JSON.stringify(payload))],
    });
  }

  private async recordRejections(client: PoolClient, workspaceId: WorkspaceId, jobId: string, rejections: Rejection[]): Promise<void> {
    if (!rejections.length) return;
    await client.query({
      name: 'import_rejections',
      text: `INSERT INTO subscriber_import_rejections (job_id, row_number, workspace_id, csv_column, code, reason)
             SELECT $1, u.row_number, $2, u.csv_column, u.code, u.reason FROM unnest($3::int[], $4::text[], $5::text[], $6::text[]) AS u (row_number, csv_column, code, reason)
             ON CONFLICT DO NOTHING`,
      values: [
        jobId,
        workspaceId,
        rejections.map((r) => r.rowNumber),
        rejections.map((r) => r.column),
        rejections.map((r) => r.code),
        rejections.map((r) => r.reason),
      ],
    });
  }

  /** The lane's checkpoint moves from the batch's first row to its last, guarded by the one the batch expected. */
  private async checkpoint(client: PoolClient, workspaceId: WorkspaceId, jobId: string, lane: number, batch: LaneBatch, counts: BatchCounts): Promise<void> {
    const { rowCount } = await client.query({
      name: 'import_checkpoint',
      text: `UPDATE subscriber_import_jobs SET lane_rows[$3] = $4, processed_rows = processed_rows + $5, created_count = created_count + $6,
               updated_count = updated_count + $7, unchanged_count = unchanged_count + $8, rejected_count = rejected_count + $9,
               duplicate_count = duplicate_count + $10, updated_at = now()
             WHERE workspace_id = $1 AND id = $2 AND lane_rows[$3] = $11 AND status = 'Processing'`,
      values: [
        workspaceId,
        jobId,
        lane + 1,
        batch.through,
        batch.rows.length + batch.rejections.length,
        counts.created,
        counts.updated,
        counts.unchanged,
        counts.rejected,
        counts.duplicates,
        batch.from,
      ],
    });
    if (rowCount !== 1) throw new ConcurrentImportWrite();
  }
}

/** Where a batch's new subscribers are staged: one per connection, emptied by every commit (and any rollback). */
const STAGING_TABLE = `CREATE TEMPORARY TABLE IF NOT EXISTS import_new_subscribers (
  id text NOT NULL, email text NOT NULL, name text NOT NULL, status text NOT NULL, country text, custom_fields jsonb NOT NULL, event_id text
) ON COMMIT DELETE ROWS`;

/** A value in COPY's text format: `\N` for null; backslash, tab, newline and carriage return escaped. */
const copyText = (value: string | null): string =>
  value === null ? '\\N' : value.replace(/[\\\t\n\r]/g, (char) => (char === '\\' ? '\\\\' : char === '\t' ? '\\t' : char === '\n' ? '\\n' : '\\r'));

/** A job that cannot finish: it fails with this message (the line of a corrupt file, a missing upload file, …). */
export class ImportFailure extends Error {}

/** Another writer got in between (a subscriber created meanwhile, or another run of the job): the batch rolls back and is retried. */
export class ConcurrentImportWrite extends Error {
  constructor() {
    super('the batch met a concurrent write; it is retried');
  }
}
