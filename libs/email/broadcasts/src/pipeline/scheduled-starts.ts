import { Injectable, Logger } from '@nestjs/common';
import { EmailPrisma, EmailSql } from '@email/data-access';
import { Outbox } from '@email/events';
import { trustedWorkspaceId } from '@shared/core';
import { BroadcastRunStarter } from '../core/broadcast-run-starter';
import { BlockingIssue, BroadcastPreflightChecks } from '../core/preflight';
import { pgOutbox } from './run-store';

/** One lock for every worker's scheduling pass: one pass at a time across replicas. */
const SCHEDULER_LOCK = 'broadcast-scheduled-starts';
const DUE_PER_PASS = 100;

/**
 * Starts scheduled broadcasts whose time has come. Every worker runs a pass each poll interval; a transaction-scoped
 * advisory lock lets one pass run at a time, and BroadcastRunStarter.start is conditional (scheduled at this content
 * version → running), so each broadcast starts exactly once, and one that was due while every worker was down starts
 * on the first pass after a restart. Nobody is there to read a preflight, so the send's blocking checks run here: a
 * broadcast that fails them becomes `failed`, its event naming the issues.
 */
@Injectable()
export class ScheduledStarts {
  private readonly logger = new Logger(ScheduledStarts.name);

  constructor(
    private readonly sql: EmailSql,
    private readonly prisma: EmailPrisma,
    private readonly checks: BroadcastPreflightChecks,
    private readonly starter: BroadcastRunStarter,
    private readonly outbox: Outbox,
  ) {}

  /** The runs started by this pass. */
  startDue(): Promise<string[]> {
    return this.sql.transaction(async (client) => {
      const { rows: lock } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [SCHEDULER_LOCK]);
      if (!lock[0].locked) return [];
      const { rows: due } = await client.query<{ id: string; workspace_id: string }>({
        name: 'brd_scheduled_due',
        text: `SELECT id, workspace_id FROM broadcasts WHERE status = 'scheduled' AND scheduled_at <= now() ORDER BY scheduled_at LIMIT $1`,
        values: [DUE_PER_PASS],
      });
      const started: string[] = [];
      for (const { id, workspace_id } of due) {
        const workspaceId = trustedWorkspaceId(workspace_id);
        const broadcast = await this.prisma.broadcast.findFirst({ where: { id, workspace_id: workspaceId, status: 'scheduled' } });
        if (!broadcast) continue;
        const report = await this.checks.check(workspaceId, broadcast);
        if (report.issues.length || !broadcast.connection_id) {
          await this.failScheduled(workspace_id, id, report.issues);
          continue;
        }
        const result = await this.starter.start(workspaceId, {
          broadcastId: id,
          contentVersion: broadcast.content_version,
          connectionId: broadcast.connection_id,
          selected: report.recipientCount,
        });
        if (result) {
          started.push(result.run.id);
          this.logger.log({ broadcastId: id, runId: result.run.id }, 'scheduled broadcast started');
        }
      }
      return started;
    });
  }

  private async failScheduled(workspaceId: string, broadcastId: string, issues: BlockingIssue[]): Promise<void> {
    this.logger.warn({ broadcastId, issues: issues.map((issue) => issue.code) }, 'scheduled broadcast failed its blocking checks');
    await this.sql.transaction(async (client) => {
      const { rowCount } = await client.query(
        `UPDATE broadcasts SET status = 'failed', completed_at = now(), updated_at = now() WHERE id = $1 AND workspace_id = $2 AND status = 'scheduled'`,
        [broadcastId, workspaceId],
      );
      if (!rowCount) return;
      await this.outbox.record(trustedWorkspaceId(workspaceId), pgOutbox(client), 'broadcast.state_changed', {
        broadcast_id: broadcastId,
        change: 'schedule_failed',
        status: 'failed',
        scheduled_at: null,
        blocking_issues: issues.map((issue) => issue.code),
      });
    });
  }
}
