import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { EmailSql } from '@email/data-access';
import { Outbox } from '@email/events';
import { trustedWorkspaceId } from '@shared/core';
import type { RunPhase } from '../core/run-states';

/** A run's deliveries not final yet: pending, retrying or in flight. The run's counters move with every delivery write. */
const REMAINING = 'materialized - (accepted + skipped + permanent_failed + unknown + canceled)';
/** The same, of the run aliased `r`. */
const REMAINING_OF_R = 'r.materialized - (r.accepted + r.skipped + r.permanent_failed + r.unknown + r.canceled)';

export interface ActiveRun {
  id: string;
  workspace_id: string;
  broadcast_id: string;
  connection_id: string;
  remaining: number;
}

/** A delivery claimed for sending (state `sending`, its attempt recorded) with its recipient. */
export interface ClaimedDelivery {
  id: string;
  subscriber_id: string;
  email: string;
  name: string;
  custom_fields: Record<string, unknown> | null;
  attempt_count: number;
}

export type RecordedState = 'accepted' | 'failed' | 'retrying' | 'unknown';

/** One delivery's outcome as recorded. */
export interface DeliveryRecord {
  id: string;
  state: RecordedState;
  errorCode?: string;
  errorMessage?: string;
  providerMessageId?: string;
  retryInMs?: number;
}

/** Why a run stopped or paused, as progress shows it (`pause_reason`, `pause_message`). */
export interface RunStop {
  reason: string;
  message: string;
}

/** The lock a run's preparer holds while it writes deliveries (transaction-scoped, so a dead preparer releases it). */
export const PREPARATION_LOCK = 'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked';
export const preparationLockKey = (runId: string) => `prepare:${runId}`;

type RunChange = { id: string; workspace_id: string; broadcast_id: string; phase: RunPhase; previous: RunPhase };

const ERROR_MESSAGE_MAX = 500;

/**
 * The send pipeline's statements on broadcast_runs and broadcast_deliveries (plain pg, one round trip each). A
 * delivery's state and its run's counters always change in the same statement; a run's phase and its
 * `broadcast.state_changed` event in the same transaction. This crosses workspaces (a worker serves them all): each
 * statement is keyed by the run id, and the workspace comes from the run row.
 */
@Injectable()
export class RunStore {
  constructor(
    private readonly sql: EmailSql,
    private readonly outbox: Outbox,
  ) {}

  /** Runs in `sending` with work left, for the rotation. */
  sendingRuns(): Promise<ActiveRun[]> {
    return this.sql.query<ActiveRun>({
      name: 'brun_sending',
      text: `SELECT id, workspace_id, broadcast_id, connection_id, ${REMAINING} AS remaining FROM broadcast_runs WHERE phase = 'sending'`,
    });
  }

  /**
   * Claims up to `limit` due deliveries of a run in `sending` (retrying whose time has come first, then pending), skipping
   * rows another worker holds; each state is its own probe of the (run_id, state, id) index, read in id order, so the
   * claim costs the same at the end of a million-row run as at its start: each becomes `sending` with its attempt counted, committed before anything is handed to a
   * provider. A recipient no longer Active (unsubscribed, bounced… since preparation) or gone becomes `skipped`.
   * `afterId`: pending rows are read after it (the caller's low-water mark: rows below it were claimed, so the probe
   * does not walk their dead index entries again); `lastId` is the highest pending id claimed.
   * `remaining` is the run's after the claim (null when nothing was claimed).
   */
  async claim(
    runId: string,
    limit: number,
    afterId = '0',
  ): Promise<{ deliveries: ClaimedDelivery[]; skipped: number; remaining: number | null; lastId: string | null }> {
    const rows = await this.sql.query<ClaimedDelivery & { state: string; was: string; remaining: number | null }>({
      name: 'brun_claim',
      text: `
        WITH run AS (
          SELECT id FROM broadcast_runs WHERE id = $1 AND phase = 'sending'
        ), retry_due AS (
          SELECT d.id, d.state, d.subscriber_id, d.workspace_id FROM broadcast_deliveries d
          WHERE d.run_id = $1 AND d.state = 'retrying' AND d.next_attempt_at <= now() AND EXISTS (SELECT 1 FROM run)
          ORDER BY d.id LIMIT $2 FOR UPDATE OF d SKIP LOCKED
        ), never_tried AS (
          SELECT d.id, d.state, d.subscriber_id, d.workspace_id FROM broadcast_deliveries d
          WHERE d.run_id = $1 AND d.state = 'pending' AND d.id > $3::bigint AND EXISTS (SELECT 1 FROM run)
          ORDER BY d.id LIMIT greatest(0, $2 - (SELECT count(*) FROM retry_due)) FOR UPDATE OF d SKIP LOCKED
        ), picked AS (
          SELECT * FROM retry_due UNION ALL SELECT * FROM never_tried
        ), recipients AS (
          SELECT p.id, p.state AS was, s.email, s.name, s.custom_fields, coalesce(s.status = 'Active', false) AS sendable
          FROM picked p LEFT JOIN subscribers s ON s.id = p.subscriber_id AND s.workspace_id = p.workspace_id
        ), claimed AS (
          UPDATE broadcast_deliveries d
          SET state = CASE WHEN r.sendable THEN 'sending' ELSE 'skipped' END,
              attempt_count = d.attempt_count + CASE WHEN r.sendable THEN 1 ELSE 0 END,
              next_attempt_at = NULL, updated_at = now()
          FROM recipients r WHERE d.id = r.id
          RETURNING d.id, d.subscriber_id, d.attempt_count, d.state, r.was, r.email, r.name, r.custom_fields
        ), counted AS (
          UPDATE broadcast_runs
          SET retrying = retrying - (SELECT count(*) FROM claimed WHERE was = 'retrying'),
              skipped = skipped + (SELECT count(*) FROM claimed WHERE state = 'skipped'),
              updated_at = now()
          WHERE id = $1 AND EXISTS (SELECT 1 FROM claimed)
          RETURNING ${REMAINING} AS remaining
        )
        SELECT c.id::text AS id, c.subscriber_id, c.email, c.name, c.custom_fields, c.attempt_count, c.state, c.was, (SELECT remaining FROM counted) AS remaining
        FROM claimed c ORDER BY c.id`,
      values: [runId, limit, afterId],
    });
    const deliveries = rows.filter((row) => row.state === 'sending');
    // Rows arrive in id order; the mark follows the pending ones only (a due retry may have any id).
    const lastId = rows.filter((row) => row.was === 'pending').at(-1)?.id ?? null;
    return { deliveries, skipped: rows.length - deliveries.length, remaining: rows[0]?.remaining ?? null, lastId };
  }

  /**
   * Records outcomes of deliveries this worker holds in `sending`, with the run's counters, in one statement. A
   * delivery no longer `sending` (recovery made it `unknown` meanwhile) is left as it is. Returns the run's phase and
   * remaining work after it.
   */
  async record(runId: string, records: readonly DeliveryRecord[]): Promise<{ phase: RunPhase; remaining: number }> {
    const [row] = await this.sql.query<{ phase: RunPhase; remaining: number }>({
      name: 'brun_record',
      text: `
        WITH outcome AS (
          SELECT * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[])
            AS o(id, state, error_code, error_message, provider_message_id, retry_in_ms)
        ), updated AS (
          UPDATE broadcast_deliveries d
          SET state = o.state, error_code = o.error_code, error_message = o.error_message,
              provider_message_id = coalesce(o.provider_message_id, d.provider_message_id),
              next_attempt_at = CASE WHEN o.state = 'retrying' THEN now() + o.retry_in_ms * interval '1 millisecond' END,
              updated_at = now()
          FROM outcome o WHERE d.id = o.id AND d.run_id = $1 AND d.state = 'sending'
          RETURNING o.state
        )
        UPDATE broadcast_runs
        SET accepted = accepted + (SELECT count(*) FROM updated WHERE state = 'accepted'),
            permanent_failed = permanent_failed + (SELECT count(*) FROM updated WHERE state = 'failed'),
            unknown = unknown + (SELECT count(*) FROM updated WHERE state = 'unknown'),
            retrying = retrying + (SELECT count(*) FROM updated WHERE state = 'retrying'),
            last_progress_at = now(), updated_at = now()
        WHERE id = $1
        RETURNING phase, ${REMAINING} AS remaining`,
      values: [
        runId,
        records.map((r) => r.id),
        records.map((r) => r.state),
        records.map((r) => r.errorCode ?? null),
        records.map((r) => (r.errorMessage ? r.errorMessage.slice(0, ERROR_MESSAGE_MAX) : null)),
        records.map((r) => r.providerMessageId ?? null),
        records.map((r) => r.retryInMs ?? null),
      ],
    });
    return row;
  }

  /**
   * Deliveries left `sending` longer than the lease belonged to a worker that died between hand-off and recording:
   * they may or may not have gone out, so they become `unknown` (never retried), counted. Returns how many.
   */
  async expireLeases(leaseMs: number): Promise<number> {
    const rows = await this.sql.query<{ lost: number }>({
      name: 'brun_expire_leases',
      text: `
        WITH lost AS (
          UPDATE broadcast_deliveries d
          SET state = 'unknown', error_code = 'worker_lost',
              error_message = 'The worker sending this message stopped before recording the provider''s answer.', updated_at = now()
          FROM broadcast_runs r
          WHERE r.phase IN ('sending', 'paused', 'canceling', 'failed') AND d.run_id = r.id AND d.state = 'sending'
            AND d.updated_at < now() - $1 * interval '1 millisecond'
          RETURNING d.run_id
        ), per_run AS (
          SELECT run_id, count(*) AS lost FROM lost GROUP BY run_id
        )
        UPDATE broadcast_runs r SET unknown = unknown + p.lost, updated_at = now() FROM per_run p WHERE r.id = p.run_id
        RETURNING p.lost::int AS lost`,
      values: [leaseMs],
    });
    return rows.reduce((sum, row) => sum + row.lost, 0);
  }

  /** Pauses a sending run until `retryInMs` from now (throttling, quota, refused credentials); false when it was not sending. */
  pause(runId: string, stop: RunStop, retryInMs: number, action: 'resume' | 'recheck'): Promise<boolean> {
    return this.change(
      `UPDATE broadcast_runs SET phase = 'paused', pause_reason = $2, pause_message = $3, next_retry_at = now() + $4 * interval '1 millisecond',
              next_retry_action = $5, updated_at = now()
       WHERE id = $1 AND phase = 'sending'
       RETURNING id, workspace_id, broadcast_id, phase, 'sending' AS previous`,
      [runId, stop.reason, stop.message.slice(0, ERROR_MESSAGE_MAX), retryInMs, action],
    ).then((changes) => changes.length > 0);
  }

  /** Paused runs whose time has come go back to sending. */
  async resumeDue(): Promise<number> {
    const changes = await this.change(
      `UPDATE broadcast_runs SET phase = 'sending', pause_reason = NULL, pause_message = NULL, next_retry_at = NULL, next_retry_action = NULL, updated_at = now()
       WHERE phase = 'paused' AND next_retry_at <= now()
       RETURNING id, workspace_id, broadcast_id, phase, 'paused' AS previous`,
      [],
    );
    return changes.length;
  }

  /** A sending or paused run with nothing left becomes sent (or sent_with_errors), its broadcast completed. */
  async finishIfDone(runId: string): Promise<RunPhase | null> {
    const [change] = await this.change(
      `UPDATE broadcast_runs r SET phase = CASE WHEN r.permanent_failed + r.unknown > 0 THEN 'sent_with_errors' ELSE 'sent' END,
              pause_reason = NULL, pause_message = NULL, next_retry_at = NULL, next_retry_action = NULL, finished_at = now(), updated_at = now()
       FROM broadcast_runs old
       WHERE r.id = $1 AND old.id = r.id AND r.phase IN ('sending', 'paused') AND ${REMAINING_OF_R} = 0
       RETURNING r.id, r.workspace_id, r.broadcast_id, r.phase, old.phase AS previous`,
      [runId],
    );
    return change?.phase ?? null;
  }

  /** Runs that may be done without a worker having noticed (a crash between recording and finishing). */
  async doneRuns(): Promise<string[]> {
    const rows = await this.sql.query<{ id: string }>({
      name: 'brun_done',
      text: `SELECT id FROM broadcast_runs WHERE phase IN ('sending', 'paused') AND ${REMAINING} = 0`,
    });
    return rows.map((row) => row.id);
  }

  /**
   * A canceling run: its pending and retrying deliveries become `canceled` (rows a claim holds are waited for, then
   * seen as `sending` and left to resolve); once nothing is in flight the run is `canceled`, `materialized` its rows
   * counted, and its broadcast completed. Waits for a preparation still writing (it holds the run's preparation lock
   * and stops after its current chunk): null then, and the next pass finishes it.
   */
  advanceCancel(runId: string): Promise<RunPhase | null> {
    return this.sql.transaction(async (client) => {
      const { rows: lock } = await client.query<{ locked: boolean }>(PREPARATION_LOCK, [preparationLockKey(runId)]);
      if (!lock[0].locked) return null;
      await this.cancelUntried(client, runId);
      const [change] = await this.changeOn(
        client,
        `UPDATE broadcast_runs r SET phase = 'canceled', materialized = c.total, pause_reason = NULL, pause_message = NULL, next_retry_at = NULL,
                next_retry_action = NULL, finished_at = now(), updated_at = now()
         FROM (SELECT count(*)::int AS total FROM broadcast_deliveries WHERE run_id = $1) c
         WHERE r.id = $1 AND r.phase = 'canceling'
           AND NOT EXISTS (SELECT 1 FROM broadcast_deliveries d WHERE d.run_id = r.id AND d.state IN ('pending', 'retrying', 'sending'))
         RETURNING r.id, r.workspace_id, r.broadcast_id, r.phase, 'canceling' AS previous`,
        [runId],
      );
      return change?.phase ?? null;
    });
  }

  async cancelingRuns(): Promise<string[]> {
    const rows = await this.sql.query<{ id: string }>({ name: 'brun_canceling', text: `SELECT id FROM broadcast_runs WHERE phase = 'canceling'` });
    return rows.map((row) => row.id);
  }

  /**
   * A run that cannot go on (its connection unusable, its audience no longer compiles): it becomes `failed` with the
   * reason, its untried deliveries `canceled`, and its broadcast `failed`. In-flight deliveries still get recorded.
   */
  fail(runId: string, stop: RunStop): Promise<boolean> {
    return this.sql.transaction(async (client) => {
      const changes = await this.changeOn(
        client,
        `UPDATE broadcast_runs r SET phase = 'failed', pause_reason = $2, pause_message = $3, next_retry_at = NULL, next_retry_action = NULL,
              finished_at = now(), updated_at = now()
       FROM broadcast_runs old
       WHERE r.id = $1 AND old.id = r.id AND r.phase IN ('preparing', 'sending', 'paused')
       RETURNING r.id, r.workspace_id, r.broadcast_id, r.phase, old.phase AS previous`,
        [runId, stop.reason, stop.message.slice(0, ERROR_MESSAGE_MAX)],
      );
      if (changes.length) await this.cancelUntried(client, runId);
      return changes.length > 0;
    });
  }

  /** The run's pending and retrying deliveries become `canceled`, counted; rows a claim holds are waited for and then left (they are `sending`). */
  private async cancelUntried(client: PoolClient, runId: string): Promise<void> {
    await client.query({
      name: 'brun_cancel_untried',
      text: `
        WITH old AS (
          SELECT id, state FROM broadcast_deliveries WHERE run_id = $1 AND state IN ('pending', 'retrying') FOR UPDATE
        ), dropped AS (
          UPDATE broadcast_deliveries d SET state = 'canceled', next_attempt_at = NULL, updated_at = now()
          FROM old WHERE d.id = old.id AND d.state IN ('pending', 'retrying')
          RETURNING old.state AS was
        )
        UPDATE broadcast_runs SET canceled = canceled + (SELECT count(*) FROM dropped),
            retrying = retrying - (SELECT count(*) FROM dropped WHERE was = 'retrying'), updated_at = now()
        WHERE id = $1 AND EXISTS (SELECT 1 FROM dropped)`,
      values: [runId],
    });
  }

  /**
   * Runs a phase change (an UPDATE … RETURNING id, workspace_id, broadcast_id, phase, previous) in a transaction with
   * what follows from it: the broadcast's status when the run ended, and a `broadcast.state_changed` event per run.
   */
  private change(text: string, values: unknown[]): Promise<RunChange[]> {
    return this.sql.transaction((client) => this.changeOn(client, text, values));
  }

  private async changeOn(client: PoolClient, text: string, values: unknown[]): Promise<RunChange[]> {
    const { rows } = await client.query<RunChange>({ text, values });
    for (const run of rows) await this.afterChange(client, run);
    return rows;
  }

  /** Also used by preparation, whose phase changes are its own statements. */
  async afterChange(client: PoolClient, run: RunChange): Promise<void> {
    const ended = ['sent', 'sent_with_errors', 'canceled', 'failed'].includes(run.phase);
    let status = 'running';
    if (ended) {
      status = run.phase === 'failed' ? 'failed' : 'completed';
      await client.query({
        name: 'brun_broadcast_ended',
        text: `UPDATE broadcasts SET status = $3::"BroadcastStatus", completed_at = now(), updated_at = now() WHERE id = $1 AND workspace_id = $2 AND status = 'running'`,
        values: [run.broadcast_id, run.workspace_id, status],
      });
    }
    // The shape of the API's events (ids, what changed, the broadcast's status, the run and its phase), never content.
    await this.outbox.record(trustedWorkspaceId(run.workspace_id), pgOutbox(client), 'broadcast.state_changed', {
      broadcast_id: run.broadcast_id,
      change: 'phase_changed',
      status,
      scheduled_at: null,
      run_id: run.id,
      phase: run.phase,
      previous_phase: run.previous,
    });
  }
}

/** The outbox's insert on a plain pg transaction. */
export function pgOutbox(client: PoolClient): Parameters<Outbox['record']>[1] {
  return {
    outboxEvent: {
      create: async ({ data }: { data: { id: string; workspace_id: string; type: string; payload: unknown } }) => {
        await client.query({
          name: 'outbox_insert',
          text: `INSERT INTO outbox_events (id, workspace_id, type, payload) VALUES ($1, $2, $3, $4::jsonb)`,
          values: [data.id, data.workspace_id, data.type, JSON.stringify(data.payload)],
        });
      },
    },
  } as unknown as Parameters<Outbox['record']>[1];
}
