import { Injectable } from '@nestjs/common';
import { EmailPrisma, Prisma } from '@email/data-access';
import { Clock, WorkspaceId } from '@shared/core';
import type { AudienceDefinition } from './audience-definition';
import { compileAudience, customFieldIdsOf } from './audience-compiler';

export interface AudienceCount {
  /** Matching subscribers whose status is Active (the contract's confirmed_subscriber_count). */
  confirmed: number;
  /** Every matching subscriber, whatever the status (total_subscriber_count). */
  total: number;
}

const MAX_PAGE = 10_000;

/**
 * Who a definition selects. Counting and paging run the same compiled predicate, so a preview and the send,
 * export or enrolment that follows it can never disagree about the rule.
 */
@Injectable()
export class AudienceRepository {
  constructor(
    private readonly prisma: EmailPrisma,
    private readonly clock: Clock,
  ) {}

  async count(workspaceId: WorkspaceId, definition: AudienceDefinition): Promise<AudienceCount> {
    const matching = await this.matching(workspaceId, definition);
    const [row] = await this.prisma.$queryRaw<AudienceCount[]>`
      SELECT count(*) FILTER (WHERE s.status = 'Active')::int AS confirmed, count(*)::int AS total
      FROM subscribers s WHERE ${matching}`;
    return row;
  }

  /** Up to `limit` matching subscriber ids after `afterId` (null: from the start), in id order. */
  async page(workspaceId: WorkspaceId, definition: AudienceDefinition, afterId: string | null, limit: number): Promise<string[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new RangeError(`limit must be a whole number from 1 to ${MAX_PAGE}`);
    const matching = await this.matching(workspaceId, definition);
    const after = afterId === null ? Prisma.empty : Prisma.sql`AND s.id > ${afterId}`;
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
      SELECT s.id FROM subscribers s WHERE ${matching} ${after} ORDER BY s.id LIMIT ${limit}`;
    return rows.map((row) => row.id);
  }

  private async matching(workspaceId: WorkspaceId, definition: AudienceDefinition): Promise<Prisma.Sql> {
    const ids = customFieldIdsOf(definition);
    // Through the client, not raw SQL: it maps the stored enum labels ("Multi Select") to the type's names.
    const fields = ids.length
      ? await this.prisma.customField.findMany({ where: { workspace_id: workspaceId, id: { in: ids } }, select: { id: true, type: true } })
      : [];
    const today = this.clock.now().toISOString().slice(0, 10);
    return compileAudience(definition, { workspaceId, customFieldTypes: new Map(fields.map((field) => [field.id, field.type])), today });
  }
}
