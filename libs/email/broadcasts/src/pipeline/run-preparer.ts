import { Inject, Injectable, Logger } from '@nestjs/common';
import { EmailPrisma, EmailSql } from '@email/data-access';
import type { AudienceDefinition } from '@email/audience-engine';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { DomainError } from '@shared/errors';
import { BroadcastRecipients } from '../core/broadcast-recipients';
import type { RunPhase } from '../core/run-states';
import { RunResources } from './run-resources';
import { PREPARATION_LOCK, preparationLockKey, RunStore } from './run-store';

/** Runs at least this big refresh the deliveries' planner statistics once prepared. */
const ANALYZE_FROM = 10_000;

export type PrepareResult = 'prepared' | 'busy' | 'not_preparing' | 'stopped' | 'failed';

/**
 * The `preparing` phase: one delivery row per recipient (BroadcastRecipients' one rule), written in keyset chunks,
 * each chunk's end committed as `prepared_through`, so a preparation that dies resumes after its last chunk. One
 * preparer per run at a time (a transaction-scoped advisory lock held while it works; a second one answers `busy`).
 * `materialized` moves with each chunk and is counted exactly when preparation resumes and when it ends; then the run
 * is `sending` (or `sent` with nobody to send to), `selected` the exact total.
 */
@Injectable()
export class RunPreparer {
  private readonly logger = new Logger(RunPreparer.name);

  constructor(
    private readonly sql: EmailSql,
    private readonly prisma: EmailPrisma,
    private readonly recipients: BroadcastRecipients,
    private readonly resources: RunResources,
    private readonly store: RunStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  prepare(runId: string): Promise<PrepareResult> {
    // The lock's transaction lasts the whole preparation, however large the audience: no deadline (a dead worker's
    // connection, and with it the lock, goes with the worker).
    return this.sql.transaction(
      async (lock) => {
        const { rows } = await lock.query<{ locked: boolean }>(PREPARATION_LOCK, [preparationLockKey(runId)]);
        return rows[0].locked ? this.prepareLocked(runId) : 'busy';
      },
      { timeoutMs: 0 },
    );
  }

  private async prepareLocked(runId: string): Promise<PrepareResult> {
    const run = await this.prisma.broadcastRun.findUnique({ where: { id: runId }, include: { broadcast: { select: { audience_definition: true } } } });
    if (!run || run.phase !== 'preparing') return 'not_preparing';
    const connection = await this.resources.connection(run);
    if ('reason' in connection) return this.failed(runId, connection);
    let audience;
    try {
      audience = await this.recipients.compile(trustedWorkspaceId(run.workspace_id), run.broadcast.audience_definition as AudienceDefinition | null);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return this.failed(runId, { reason: 'audience_invalid', message: `The broadcast's audience cannot be evaluated: ${error.message}` });
    }
    if (run.prepared_through !== null) await this.recount(runId);
    const chunk = this.config.broadcastSend.prepareChunk;
    let after = run.prepared_through;
    for (;;) {
      const step = await this.recipients.materialize(runId, audience, after, chunk);
      if (step.lastSubscriberId === null) break;
      after = step.lastSubscriberId;
      if (!(await this.advance(runId, after, step.inserted))) return 'stopped';
      if (step.chosen < chunk) break;
    }
    const total = await this.finish(runId);
    if (total === null) return 'stopped';
    if (total >= ANALYZE_FROM) this.refreshStatistics(runId);
    return 'prepared';
  }

  /**
   * Fresh planner statistics once a big run's rows are in: with statistics from before (an empty table on a new
   * install), the claim's index probe looks no better than scanning the primary key, which slows every claim as the run
   * goes on. In the background: the run is already sending.
   */
  private refreshStatistics(runId: string): void {
    this.sql.query({ text: 'ANALYZE broadcast_deliveries' }).catch((error: Error) => {
      this.logger.warn({ runId, error: error.message }, 'broadcast_deliveries statistics not refreshed');
    });
  }

  /** Moves the cursor; false when the run left `preparing` meanwhile (canceled). */
  private async advance(runId: string, preparedThrough: string, inserted: number): Promise<boolean> {
    const rows = await this.sql.query({
      name: 'brun_prepare_advance',
      text: `UPDATE broadcast_runs SET prepared_through = $2, materialized = materialized + $3, updated_at = now() WHERE id = $1 AND phase = 'preparing' RETURNING 1`,
      values: [runId, preparedThrough, inserted],
    });
    return rows.length > 0;
  }

  private async recount(runId: string): Promise<void> {
    await this.sql.query({
      name: 'brun_prepare_recount',
      text: `UPDATE broadcast_runs SET materialized = (SELECT count(*) FROM broadcast_deliveries WHERE run_id = $1), updated_at = now() WHERE id = $1 AND phase = 'preparing'`,
      values: [runId],
    });
  }

  /**
   * preparing → sending (sent when nobody matched), with the exact totals and the broadcast's recipient count, in one
   * transaction. The total, or null when the run had left `preparing`.
   */
  private finish(runId: string): Promise<number | null> {
    return this.sql.transaction(async (client) => {
      const { rows } = await client.query<{ id: string; workspace_id: string; broadcast_id: string; phase: RunPhase; previous: RunPhase; total: number }>({
        name: 'brun_prepare_finish',
        text: `
          UPDATE broadcast_runs r
          SET phase = CASE WHEN c.total = 0 THEN 'sent' ELSE 'sending' END, selected = c.total, materialized = c.total,
              sending_started_at = now(), finished_at = CASE WHEN c.total = 0 THEN now() END, updated_at = now()
          FROM (SELECT count(*)::int AS total FROM broadcast_deliveries WHERE run_id = $1) c
          WHERE r.id = $1 AND r.phase = 'preparing'
          RETURNING r.id, r.workspace_id, r.broadcast_id, r.phase, 'preparing' AS previous, c.total`,
        values: [runId],
      });
      const [run] = rows;
      if (!run) return null;
      await client.query({
        name: 'brun_prepare_recipient_count',
        text: `UPDATE broadcasts SET recipient_count = $3, updated_at = now() WHERE id = $1 AND workspace_id = $2`,
        values: [run.broadcast_id, run.workspace_id, run.total],
      });
      await this.store.afterChange(client, run);
      this.logger.log({ runId, recipients: run.total }, 'run prepared');
      return run.total;
    });
  }

  private async failed(runId: string, stop: { reason: string; message: string }): Promise<PrepareResult> {
    await this.store.fail(runId, stop);
    return 'failed';
  }
}
