import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { QueryConfig } from 'pg';
import { EmailPrisma, EmailSql, Prisma } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { sequenceMembership, tagMembership } from '@email/audience-engine';
import { WorkspaceId, likeLiteral } from '@shared/core';
import { isUniqueViolation } from '@shared/errors';
import { KeysetPage } from '@shared/pagination';
import { PgTransaction, SqlTransaction } from '../common/sql-transaction';
import { tagCountChange } from '../tags/tag-counts';
import type { SubscriberDto } from './subscriber.dto';
import type {
  LockedSubscriber,
  NewConsentRecord,
  NewSubscriber,
  SubscriberChanges,
  SubscriberFilter,
  SubscriberPageJson,
  SubscriberStore,
} from './subscriber.store';

type Db = SqlTransaction | EmailPrisma;

export const subscriberEmailTaken = () =>
  EmailErrors.fail('subscriber_email_taken', 'Another subscriber already has this email.', { details: { field: 'email' } });
type Tx = SqlTransaction;

const LOCKED = Prisma.sql`id, email, name, status, country, subscribed_at, custom_fields`;
const INSERTED_COLUMNS = Prisma.sql`id, workspace_id, email, name, status, country, subscribed_at, custom_fields, created_at, updated_at`;

const iso = (column: Prisma.Sql) => Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A JSON string of text that never needs escaping (generated ids, enum labels), without to_json's per-row type lookup. */
const plainJson = (value: Prisma.Sql) => Prisma.sql`'"' || ${value} || '"'`;
/** A JSON string or null, as text: the formatted time needs no escaping. */
const isoJson = (column: Prisma.Sql) => Prisma.sql`COALESCE(${plainJson(iso(column))}, 'null')`;
const json = (value: Prisma.Sql) => Prisma.sql`COALESCE(to_json(${value})::text, 'null')`;

/**
 * The Subscriber record exactly as the API returns it, as JSON text built by PostgreSQL over `s` (a subscribers
 * row), with its tags and active sequence ids as the given JSON arrays. The list serves these documents without
 * Node ever decoding a row, which is what makes a 100-row page cheap. Concatenated rather than json_build_object,
 * which looks up each value's type output on every row; the text is what json_build_object writes, spacing included.
 */
const document = (tags: Prisma.Sql, sequenceIds: Prisma.Sql) => Prisma.sql`('{"self" : ' || ${plainJson(Prisma.sql`'/v1/subscribers/' || s.id`)}
  || ', "id" : ' || ${plainJson(Prisma.sql`s.id`)}
  || ', "email" : ' || ${json(Prisma.sql`s.email`)}
  || ', "name" : ' || ${json(Prisma.sql`s.name`)}
  || ', "status" : ' || ${plainJson(Prisma.sql`s.status`)}
  || ', "country" : ' || ${json(Prisma.sql`s.country`)}
  || ', "subscribed_at" : ' || ${isoJson(Prisma.sql`s.subscribed_at`)}
  || ', "last_opened_at" : ' || ${isoJson(Prisma.sql`s.last_opened_at`)}
  || ', "tags" : ' || COALESCE(${tags}::text, '[]')
  || ', "sequence_ids" : ' || COALESCE(${sequenceIds}::text, '[]')
  || ', "custom_fields" : ' || s.custom_fields::text
  || ', "created_at" : ' || ${isoJson(Prisma.sql`s.created_at`)}
  || ', "updated_at" : ' || ${isoJson(Prisma.sql`s.updated_at`)} || '}')`;

const TAG_LIST = Prisma.sql`json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name, t.id)`;
const SEQUENCE_LIST = Prisma.sql`json_agg(e.sequence_id ORDER BY e.enrolled_at, e.sequence_id)`;

/** One subscriber's document, its tags and sequences from correlated subqueries. */
const DOCUMENT = document(
  Prisma.sql`(SELECT ${TAG_LIST} FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id = s.id)`,
  Prisma.sql`(SELECT ${SEQUENCE_LIST} FROM sequence_enrollments e WHERE e.subscriber_id = s.id AND e.state = 'active')`,
);

/** A page row's document, its tags and sequences from the page's aggregates (built once: the fragment never changes). */
const PAGE_DOCUMENT = document(Prisma.sql`tl.tags`, Prisma.sql`sl.sequence_ids`);

/** The list's filter as SQL conditions over `s` (a subscribers row); the export selects with the same ones. */
export function subscriberConditions(workspaceId: WorkspaceId, filter: SubscriberFilter): Prisma.Sql[] {
  const where = [Prisma.sql`s.workspace_id = ${workspaceId}`];
  if (filter.email) where.push(Prisma.sql`s.email = ${filter.email}`);
  if (filter.status) where.push(Prisma.sql`s.status = ${filter.status}::"SubscriberStatus"`);
  if (filter.search) {
    const pattern = `%${likeLiteral(filter.search)}%`;
    where.push(Prisma.sql`(s.email ILIKE ${pattern} OR s.name ILIKE ${pattern})`);
  }
  if (filter.coldBefore) {
    const cutoff = filter.coldBefore;
    where.push(Prisma.sql`s.subscribed_at < ${cutoff} AND (s.last_opened_at IS NULL OR s.last_opened_at < ${cutoff})`);
  }
  if (filter.tagIds?.length) where.push(tagMembership(workspaceId, filter.tagIds, filter.tagOperator ?? 'has_any_of'));
  if (filter.sequenceIds?.length) where.push(sequenceMembership(workspaceId, filter.sequenceIds, filter.sequenceOperator ?? 'is_active_in_any_of'));
  return where;
}

/**
 * The statement behind `GET /v1/subscribers`: newest first, keyset-paginated (page 5,000 costs what
 * page 1 costs), the page's documents aggregated into one JSON array. The tags and sequences of the
 * page's rows are aggregated in one pass each rather than by two subqueries per row. The limit is part
 * of the text, so each limit gets its own prepared statement and plan.
 */
function subscriberPageQuery(workspaceId: WorkspaceId, filter: SubscriberFilter, page: KeysetPage): Prisma.Sql {
  if (!Number.isSafeInteger(page.limit) || page.limit < 1) throw new RangeError(`page limit ${page.limit} is not a positive integer`);
  const where = subscriberConditions(workspaceId, filter);
  if (page.after) where.push(Prisma.sql`(s.created_at, s.id) < (${page.after.created_at}, ${page.after.id})`);
  const limit = Prisma.raw(String(page.limit));
  return Prisma.sql`
    WITH page AS MATERIALIZED (
      SELECT s.*, row_number() OVER (ORDER BY s.created_at DESC, s.id DESC) AS rn
      FROM subscribers s WHERE ${Prisma.join(where, ' AND ')}
      ORDER BY s.created_at DESC, s.id DESC LIMIT ${Prisma.raw(String(page.limit + 1))}
    ), shown AS (
      SELECT id FROM page WHERE rn <= ${limit}
    ), tag_lists AS (
      SELECT st.subscriber_id, ${TAG_LIST} AS tags
      FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id AND t.workspace_id = ${workspaceId}
      WHERE st.workspace_id = ${workspaceId} AND st.subscriber_id IN (SELECT id FROM shown)
      GROUP BY st.subscriber_id
    ), sequence_lists AS (
      SELECT e.subscriber_id, ${SEQUENCE_LIST} AS sequence_ids
      FROM sequence_enrollments e
      WHERE e.workspace_id = ${workspaceId} AND e.state = 'active' AND e.subscriber_id IN (SELECT id FROM shown)
      GROUP BY e.subscriber_id
    )
    SELECT '[' || COALESCE(string_agg(${PAGE_DOCUMENT}, ', ' ORDER BY s.rn) FILTER (WHERE s.rn <= ${limit}), '') || ']' AS data,
           count(*)::int AS fetched,
           max(${iso(Prisma.sql`s.created_at`)}) FILTER (WHERE s.rn = ${limit}) AS last_created_at,
           max(s.id) FILTER (WHERE s.rn = ${limit}) AS last_id
    FROM page s LEFT JOIN tag_lists tl ON tl.subscriber_id = s.id LEFT JOIN sequence_lists sl ON sl.subscriber_id = s.id`;
}

/** Page statement names by text (one per filter shape and limit), so most requests skip hashing the text. */
const pageStatementNames = new Map<string, string>();
const MAX_REMEMBERED_PAGE_NAMES = 1000;

/** The page statement as a named one, prepared once per connection: the name follows the text (filters and limit). */
export function subscriberPageStatement(workspaceId: WorkspaceId, filter: SubscriberFilter, page: KeysetPage): QueryConfig {
  const query = subscriberPageQuery(workspaceId, filter, page);
  let name = pageStatementNames.get(query.text);
  if (name === undefined) {
    name = `subscriber_page_${createHash('sha1').update(query.text).digest('hex').slice(0, 20)}`;
    if (pageStatementNames.size < MAX_REMEMBERED_PAGE_NAMES) pageStatementNames.set(query.text, name);
  }
  return { name, text: query.text, values: query.values };
}

/** The SET clause of each changeable field, with the cast its column needs. */
const ASSIGNMENTS: { [Field in keyof SubscriberChanges]-?: (value: NonNullable<SubscriberChanges[Field]>) => Prisma.Sql } = {
  email: (value) => Prisma.sql`email = ${value}`,
  name: (value) => Prisma.sql`name = ${value}`,
  status: (value) => Prisma.sql`status = ${value}::"SubscriberStatus"`,
  country: (value) => Prisma.sql`country = ${value}`,
  subscribed_at: (value) => Prisma.sql`subscribed_at = ${value}`,
  custom_fields: (value) => Prisma.sql`custom_fields = ${JSON.stringify(value)}::jsonb`,
};

/**
 * Subscribers and their tag and sequence memberships. Raw SQL where one statement beats several ORM calls. Every
 * statement names the workspace; times come from the caller's clock.
 */
@Injectable()
export class SubscriberRepository implements SubscriberStore {
  constructor(
    private readonly prisma: EmailPrisma,
    private readonly sql: EmailSql,
  ) {}

  async page(workspaceId: WorkspaceId, filter: SubscriberFilter, page: KeysetPage): Promise<SubscriberPageJson> {
    const [row] = await this.sql.query<SubscriberPageJson>(subscriberPageStatement(workspaceId, filter, page));
    return row;
  }

  /** The subscriber's document; in a transaction, read in the same statement as the writes it deferred (see PgTransaction). */
  async view(workspaceId: WorkspaceId, id: string, db: Db = this.prisma): Promise<SubscriberDto | undefined> {
    const query = Prisma.sql`SELECT ${DOCUMENT} AS doc FROM subscribers s WHERE s.workspace_id = ${workspaceId} AND s.id = ${id}`;
    const rows = db instanceof PgTransaction ? await db.queryWithDeferred<{ doc: string }>(query) : await db.$queryRaw<Array<{ doc: string }>>`${query}`;
    return rows[0] && (JSON.parse(rows[0].doc) as SubscriberDto);
  }

  /**
   * Inserts unless the email exists; either way returns the row, locked for this transaction. One round trip,
   * and an existing row is only locked, not rewritten (no dead tuple). When the row appeared or vanished after
   * the statement's snapshot, neither branch returns it; the conflict-update form then settles it.
   */
  async insertOrLock(workspaceId: WorkspaceId, tx: Tx, row: NewSubscriber, now: Date): Promise<{ created: boolean } & LockedSubscriber> {
    const values = Prisma.sql`(${row.id}, ${workspaceId}, ${row.email}, ${row.name}, ${row.status}::"SubscriberStatus", ${row.country},
      ${row.subscribed_at}, ${JSON.stringify(row.custom_fields)}::jsonb, ${now}, ${now})`;
    const [saved] = await tx.$queryRaw<Array<{ created: boolean } & LockedSubscriber>>`
      WITH inserted AS (
        INSERT INTO subscribers (${INSERTED_COLUMNS}) VALUES ${values}
        ON CONFLICT (workspace_id, email) DO NOTHING RETURNING true AS created, ${LOCKED}
      ), existing AS (
        SELECT false AS created, ${LOCKED} FROM subscribers
        WHERE workspace_id = ${workspaceId} AND email = ${row.email} AND NOT EXISTS (SELECT 1 FROM inserted) FOR UPDATE
      )
      SELECT * FROM inserted UNION ALL SELECT * FROM existing`;
    if (saved) return saved;
    const [settled] = await tx.$queryRaw<Array<{ created: boolean } & LockedSubscriber>>`
      INSERT INTO subscribers (${INSERTED_COLUMNS}) VALUES ${values}
      ON CONFLICT (workspace_id, email) DO UPDATE SET email = EXCLUDED.email
      RETURNING (xmax = 0) AS created, ${LOCKED}`;
    return settled;
  }

  /** Locks one subscriber for this transaction; undefined when it does not exist in the workspace. */
  async lock(workspaceId: WorkspaceId, tx: Tx, id: string): Promise<LockedSubscriber | undefined> {
    const rows = await tx.$queryRaw<LockedSubscriber[]>`SELECT ${LOCKED} FROM subscribers WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`;
    return rows[0];
  }

  /**
   * Writes the changes; a new email another subscriber has fails on the unique (workspace_id, email), aborting the
   * transaction, and so does a subscriber the workspace does not have.
   */
  async update(workspaceId: WorkspaceId, tx: Tx, id: string, changes: SubscriberChanges, now: Date): Promise<void> {
    const assignments = Object.entries(changes).map(([column, value]) => ASSIGNMENTS[column as keyof SubscriberChanges](value as never));
    let updated: number;
    try {
      updated =
        await tx.$executeRaw`UPDATE subscribers SET ${Prisma.join([...assignments, Prisma.sql`updated_at = ${now}`])} WHERE workspace_id = ${workspaceId} AND id = ${id}`;
    } catch (error) {
      throw isUniqueViolation(error, 'email') ? subscriberEmailTaken() : error;
    }
    // Callers lock the row first, so a miss means a subscriber of another workspace (or none) was named.
    if (!updated) throw new Error(`No subscriber ${id} in workspace ${workspaceId} to update`);
  }

  async touch(workspaceId: WorkspaceId, tx: Tx, id: string, now: Date): Promise<void> {
    await tx.$executeRaw`UPDATE subscribers SET updated_at = ${now} WHERE workspace_id = ${workspaceId} AND id = ${id}`;
  }

  /**
   * Adds tags; returns the ids that were new. The caller moves their counters (see bumpTagCounts). Only the
   * workspace's own subscriber and tags are ever joined.
   */
  async addTags(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, tagIds: string[]): Promise<string[]> {
    if (!tagIds.length) return [];
    const added = await tx.$queryRaw<Array<{ tag_id: string }>>`
      INSERT INTO subscriber_tags (workspace_id, subscriber_id, tag_id)
      SELECT s.workspace_id, s.id, t.id FROM subscribers s JOIN tags t ON t.workspace_id = s.workspace_id
      WHERE s.workspace_id = ${workspaceId} AND s.id = ${subscriberId} AND t.id = ANY(${tagIds}::text[])
      ON CONFLICT DO NOTHING RETURNING tag_id`;
    return added.map((a) => a.tag_id);
  }

  async removeTag(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, tagId: string): Promise<boolean> {
    const removed = await tx.$executeRaw`
      DELETE FROM subscriber_tags WHERE workspace_id = ${workspaceId} AND subscriber_id = ${subscriberId} AND tag_id = ${tagId}`;
    return removed > 0;
  }

  /**
   * Moves tag counters in the same transaction as the membership change: one random shard of each tag (see
   * tagCountChange), so concurrent writers of a tag rarely wait on each other. Call it last, right before the final
   * read (or commit): the change is deferred into that last statement (see PgTransaction), so a shard's row lock is
   * held only for that statement and the commit.
   */
  async bumpTagCounts(workspaceId: WorkspaceId, tx: Tx, tagIds: string[], delta: 1 | -1): Promise<void> {
    if (!tagIds.length) return;
    const change = tagCountChange(workspaceId, tagIds, delta);
    if (tx instanceof PgTransaction) tx.defer(change);
    else await tx.$executeRaw`${change}`;
  }

  /** Enrolls (or re-activates) the subscriber in each sequence; returns how many changed. */
  async enroll(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, sequenceIds: string[], now: Date): Promise<number> {
    if (!sequenceIds.length) return 0;
    return tx.$executeRaw`
      INSERT INTO sequence_enrollments (workspace_id, subscriber_id, sequence_id, state, enrolled_at, updated_at)
      SELECT s.workspace_id, s.id, q.id, 'active', ${now}, ${now} FROM subscribers s JOIN sequences q ON q.workspace_id = s.workspace_id
      WHERE s.workspace_id = ${workspaceId} AND s.id = ${subscriberId} AND q.id = ANY(${sequenceIds}::text[])
      ON CONFLICT (subscriber_id, sequence_id) DO UPDATE SET state = 'active', enrolled_at = ${now}, updated_at = ${now}
      WHERE sequence_enrollments.workspace_id = ${workspaceId} AND sequence_enrollments.state <> 'active'`;
  }

  /** Ends an active enrollment (kept as history for the "has ever been in" filters). */
  async unenroll(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, sequenceId: string, now: Date): Promise<boolean> {
    const changed = await tx.$executeRaw`
      UPDATE sequence_enrollments SET state = 'removed', updated_at = ${now}
      WHERE workspace_id = ${workspaceId} AND subscriber_id = ${subscriberId} AND sequence_id = ${sequenceId} AND state = 'active'`;
    return changed > 0;
  }

  async existingSequences(workspaceId: WorkspaceId, tx: Tx, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM sequences WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::text[])`;
    return new Set(rows.map((r) => r.id));
  }

  /** Stores consent evidence for the workspace's own subscriber; any other subscriber id stores nothing. */
  async recordConsent(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, consent: NewConsentRecord, now: Date): Promise<void> {
    await tx.$executeRaw`
      INSERT INTO consent_records (id, workspace_id, subscriber_id, lawful_basis, consent_text_version, collected_at, source_url,
                                   evidence_reference, technical_evidence_hash, recorded_at)
      SELECT ${consent.id}, s.workspace_id, s.id, ${consent.lawful_basis}, ${consent.consent_text_version ?? null}, ${consent.collected_at},
             ${consent.source_url ?? null}, ${consent.evidence_reference}, ${consent.technical_evidence_hash ?? null}, ${now}
      FROM subscribers s WHERE s.workspace_id = ${workspaceId} AND s.id = ${subscriberId}`;
  }

  /** Deletes a subscriber (memberships cascade) after moving its tags' counters down. */
  async delete(workspaceId: WorkspaceId, id: string): Promise<boolean> {
    return this.transaction(async (tx) => {
      const locked = await this.lock(workspaceId, tx, id);
      if (!locked) return false;
      const memberships = await tx.$queryRaw<Array<{ tag_id: string }>>`
        SELECT tag_id FROM subscriber_tags WHERE workspace_id = ${workspaceId} AND subscriber_id = ${id}`;
      await tx.$executeRaw`DELETE FROM subscribers WHERE workspace_id = ${workspaceId} AND id = ${id}`;
      await this.bumpTagCounts(
        workspaceId,
        tx,
        memberships.map((m) => m.tag_id),
        -1,
      );
      return true;
    });
  }

  /** One transaction on a plain pg connection: one round trip per statement, deferred writes sent at the latest before commit. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.sql.transaction(async (client) => {
      const tx = new PgTransaction(client);
      const result = await work(tx);
      await tx.flush();
      return result;
    });
  }
}
