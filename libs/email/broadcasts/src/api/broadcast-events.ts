import type { Broadcast, BroadcastRun } from '@email/data-access';
import { Outbox, OutboxTransaction } from '@email/events';
import { WorkspaceId } from '@shared/core';

/** What happened to the broadcast, as the `broadcast.state_changed` payload names it. */
export type BroadcastChange = 'scheduled' | 'unscheduled' | 'send_started' | 'cancel_requested';

/**
 * Records `broadcast.state_changed` in the caller's transaction: ids, the change, the broadcast's status and, for a
 * send, its run and phase. Never content or addresses.
 */
export function recordStateChange(
  outbox: Outbox,
  tx: OutboxTransaction,
  workspaceId: WorkspaceId,
  change: BroadcastChange,
  broadcast: Pick<Broadcast, 'id' | 'status' | 'scheduled_at'>,
  run?: Pick<BroadcastRun, 'id' | 'phase'>,
): Promise<void> {
  return outbox.record(workspaceId, tx, 'broadcast.state_changed', {
    broadcast_id: broadcast.id,
    change,
    status: broadcast.status,
    scheduled_at: broadcast.scheduled_at?.toISOString() ?? null,
    ...(run ? { run_id: run.id, phase: run.phase } : {}),
  });
}
