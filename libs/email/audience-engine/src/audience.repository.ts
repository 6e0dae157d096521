import { Injectable } from '@nestjs/common';
import { EmailPrisma, EmailSql, Prisma } from '@email/data-access';
import { Clock, WorkspaceId } from '@shared/core';
import { parseAudienceDefinition, type AudienceDefinition } from './audience-definition';
import { compileAudience, customFieldIdsOf, MAX_SEGMENT_DEPTH, segmentIdsOf } from './audience-compiler';

export interface AudienceCount {
  /** Matching subscribers whose status is Active (the contract's confirmed_subscriber_count). */
  confirmed: number;
  /** Every matching subscriber, whatever the status (total_subscriber_count). */
  total: number;
}

/** A definition compiled for one workspace: the predicate every count and page of it runs. */
export interface CompiledAudience {
  readonly workspaceId: WorkspaceId;
  readonly predicate: Prisma.Sql;
}

const MAX_PAGE = 10_000;

const statement = (sql: Prisma.Sql) => ({ text: sql.text, values: sql.values });

/**
 * Who a definition selects. Counting and paging run the same compiled predicate, so a preview and the send,
 * export or enrolment that follows it can never disagree about the rule.
 */
@Injectable()
export class AudienceRepository {
  constructor(
    private readonly prisma: EmailPrisma,
    private readonly sql: EmailSql,
    private readonly clock: Clock,
  ) {}

  /**
   * Reads what the definition references (custom field types, nested segments) in the workspace and compiles it;
   * an invalid condition, a cycle back to `currentSegmentId` or nesting deeper than five levels is a 400 here.
   * A caller inside a transaction passes it as `db`, so the reads use its connection rather than wait for another.
   */
  async compile(
    workspaceId: WorkspaceId,
    definition: AudienceDefinition,
    currentSegmentId: string | null = null,
    db: Prisma.TransactionClient = this.prisma,
  ): Promise<CompiledAudience> {
    const segments = await this.segmentsReachedBy(db, workspaceId, definition);
    const fieldIds = [...new Set([definition, ...segments.values()].flatMap(customFieldIdsOf))];
    // Through the client, not raw SQL: it maps the stored enum labels ("Multi Select") to the type's names.
    const fields = fieldIds.length
      ? await db.customField.findMany({ where: { workspace_id: workspaceId, id: { in: fieldIds } }, select: { id: true, type: true } })
      : [];
    const today = this.clock.now().toISOString().slice(0, 10);
    const predicate = compileAudience(definition, {
      workspaceId,
      customFieldTypes: new Map(fields.map((field) => [field.id, field.type])),
      segments,
      currentSegmentId,
      today,
    });
    return { workspaceId, predicate };
  }

  async count(audience: CompiledAudience): Promise<AudienceCount> {
    const [row] = await this.sql.query<AudienceCount>(
      statement(Prisma.sql`
        SELECT count(*) FILTER (WHERE s.status = 'Active')::int AS confirmed, count(*)::int AS total
        FROM subscribers s WHERE ${audience.predicate}`),
    );
    return row;
  }

  /** Up to `limit` matching subscriber ids after `afterId` (null: from the start), in id order. */
  async page(audience: CompiledAudience, afterId: string | null, limit: number): Promise<string[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new RangeError(`limit must be a whole number from 1 to ${MAX_PAGE}`);
    const after = afterId === null ? Prisma.empty : Prisma.sql`AND s.id > ${afterId}`;
    const rows = await this.sql.query<{ id: string }>(
      statement(Prisma.sql`SELECT s.id FROM subscribers s WHERE ${audience.predicate} ${after} ORDER BY s.id LIMIT ${limit}`),
    );
    return rows.map((row) => row.id);
  }

  /**
   * The stored definitions of the workspace's segments reachable through segment conditions, one query per level;
   * reading stops one level past the deepest nesting allowed, since the compiler refuses anything deeper.
   */
  private async segmentsReachedBy(
    db: Prisma.TransactionClient,
    workspaceId: WorkspaceId,
    definition: AudienceDefinition,
  ): Promise<Map<string, AudienceDefinition>> {
    const reached = new Map<string, AudienceDefinition>();
    let wanted = segmentIdsOf(definition);
    for (let level = 0; wanted.length && level <= MAX_SEGMENT_DEPTH; level++) {
      const rows = await db.segment.findMany({ where: { workspace_id: workspaceId, id: { in: wanted } }, select: { id: true, definition: true } });
      for (const row of rows) reached.set(row.id, parseAudienceDefinition(row.definition));
      wanted = [...new Set(rows.flatMap((row) => segmentIdsOf(reached.get(row.id)!)))].filter((id) => !reached.has(id));
    }
    return reached;
  }
}
