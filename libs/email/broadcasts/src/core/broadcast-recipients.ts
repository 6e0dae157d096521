import { Injectable } from '@nestjs/common';
import { EmailSql, Prisma } from '@email/data-access';
import { AudienceDefinition, AudienceRepository, CompiledAudience } from '@email/audience-engine';
import { WorkspaceId } from '@shared/core';

/** No definition: the whole workspace. */
const EVERYONE: AudienceDefinition = { match: 'all', groups: [] };

const statement = (sql: Prisma.Sql) => ({ text: sql.text, values: sql.values });

/**
 * Who a broadcast goes to: the audience engine's compiled predicate, restricted to Active subscribers (every other
 * status, Unsubscribed, Bounced, Complained, Blocked and Unconfirmed, is suppressed). Emails are unique per workspace,
 * so one row per subscriber is one message per address. The preflight count and the send's materialisation both use
 * `sendable`, so they cannot disagree; at send time only the status is checked again (a recipient who left the
 * audience after preparation still gets the message, one who unsubscribed does not).
 */
@Injectable()
export class BroadcastRecipients {
  constructor(
    private readonly audiences: AudienceRepository,
    private readonly sql: EmailSql,
  ) {}

  compile(workspaceId: WorkspaceId, definition: AudienceDefinition | null, db?: Prisma.TransactionClient): Promise<CompiledAudience> {
    return this.audiences.compile(workspaceId, definition ?? EVERYONE, null, db);
  }

  async count(audience: CompiledAudience): Promise<number> {
    const [row] = await this.sql.query<{ count: number }>(statement(Prisma.sql`SELECT count(*)::int AS count FROM subscribers s WHERE ${sendable(audience)}`));
    return row.count;
  }

  /**
   * Writes the next `limit` recipients after `afterSubscriberId` (null: from the start) as pending deliveries of the
   * run, in subscriber id order, in one statement. Safe to repeat: a recipient already written is not written again.
   * `lastSubscriberId` is where the next chunk starts; null when nothing was left.
   */
  async materialize(
    runId: string,
    audience: CompiledAudience,
    afterSubscriberId: string | null,
    limit: number,
  ): Promise<{ chosen: number; inserted: number; lastSubscriberId: string | null }> {
    const after = afterSubscriberId === null ? Prisma.empty : Prisma.sql`AND s.id > ${afterSubscriberId}`;
    const [row] = await this.sql.query<{ chosen: number; inserted: number; last_id: string | null }>(
      statement(Prisma.sql`
        WITH chosen AS (
          SELECT s.id FROM subscribers s WHERE ${sendable(audience)} ${after} ORDER BY s.id LIMIT ${limit}
        ), written AS (
          INSERT INTO broadcast_deliveries (run_id, workspace_id, subscriber_id)
          SELECT ${runId}, ${audience.workspaceId}, id FROM chosen
          ON CONFLICT (run_id, subscriber_id) DO NOTHING
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM chosen)::int AS chosen, (SELECT count(*) FROM written)::int AS inserted,
               (SELECT id FROM chosen ORDER BY id DESC LIMIT 1) AS last_id`),
    );
    return { chosen: row.chosen, inserted: row.inserted, lastSubscriberId: row.last_id };
  }
}

/** The one rule: matches the audience and may receive marketing email now. */
export const sendable = (audience: CompiledAudience): Prisma.Sql => Prisma.sql`${audience.predicate} AND s.status = 'Active'`;
