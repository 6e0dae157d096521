import { Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { BroadcastRun, EmailPrisma, Prisma } from '@email/data-access';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { DeliveryConnectionRepository } from '@email/delivery';
import { IdGenerator, WorkspaceId } from '@shared/core';
import type { QueueOf } from '@shared/queue';
import { SENDABLE_STATUSES } from './run-states';

/** What a start needs to know about the broadcast as it was checked: a send proceeds only if it is still this version. */
export interface RunStart {
  broadcastId: string;
  contentVersion: number;
  connectionId: string;
  /** The recipient count known when the send was asked for (preflight or the send's own check). */
  selected: number;
}

/**
 * Starts a send: the broadcast moves to `running` and its run is created in one transaction, only if the broadcast is
 * still draft or scheduled at the checked version and its connection still exists (else null: another start won, it
 * changed meanwhile, or its connection was deleted), holding the connection's share lock so it cannot be changed or
 * deleted under the starting send; then the
 * preparation job is queued under the run's id. If queueing fails after the commit, the send worker's recovery finds
 * the run in `preparing` and prepares it anyway.
 */
@Injectable()
export class BroadcastRunStarter {
  private readonly logger = new Logger(BroadcastRunStarter.name);

  constructor(
    private readonly prisma: EmailPrisma,
    private readonly ids: IdGenerator,
    private readonly connections: DeliveryConnectionRepository,
    @InjectQueue(EmailQueues.broadcastPrepare) private readonly prepare: QueueOf<EmailJobPayloads, 'broadcast-prepare'>,
  ) {}

  /** `within` runs in the starting transaction once the run exists (e.g. to write the outbox event of the change). */
  async start(
    workspaceId: WorkspaceId,
    start: RunStart,
    within?: (tx: Prisma.TransactionClient, run: BroadcastRun) => Promise<void>,
  ): Promise<{ run: BroadcastRun; queued: boolean } | null> {
    const run = await this.prisma.$transaction(async (tx) => {
      if (!(await this.connections.holdForUse(tx, workspaceId, start.connectionId))) return null;
      const { count } = await tx.broadcast.updateMany({
        where: { id: start.broadcastId, workspace_id: workspaceId, status: { in: [...SENDABLE_STATUSES] }, content_version: start.contentVersion },
        data: { status: 'running', scheduled_at: null, recipient_count: start.selected },
      });
      if (count !== 1) return null;
      const created = await tx.broadcastRun.create({
        data: {
          id: this.ids.newId('brun'),
          workspace_id: workspaceId,
          broadcast_id: start.broadcastId,
          content_version: start.contentVersion,
          connection_id: start.connectionId,
          selected: start.selected,
        },
      });
      await within?.(tx, created);
      return created;
    });
    if (!run) return null;
    try {
      await this.prepare.add('prepare', { workspaceId, broadcastId: start.broadcastId, runId: run.id }, { jobId: run.id });
      return { run, queued: true };
    } catch (error) {
      this.logger.warn({ runId: run.id, error: (error as Error).message }, 'preparation not queued; recovery will start it');
      return { run, queued: false };
    }
  }
}
