import { Injectable } from '@nestjs/common';
import { Broadcast, BroadcastDelivery, BroadcastRun, EmailPrisma, Prisma } from '@email/data-access';
import { WorkspaceId, likeLiteral } from '@shared/core';
import { KeysetPage, keysetWhere } from '@shared/pagination';
import type { MessageBroadcast } from '../core/broadcast-messages';
import { CANCELABLE_PHASES, RunPhase } from '../core/run-states';

export type BroadcastTx = Prisma.TransactionClient;

/** The columns a write sets: what its messages are built from (but the id and version), the rendered `body`, the connection. */
type WrittenColumns = Exclude<keyof MessageBroadcast, 'id' | 'content_version' | 'body_document'> | 'body' | 'connection_id';
export type BroadcastContent = Partial<
  Pick<Broadcast, WrittenColumns> & { body_document: Prisma.InputJsonValue; audience_definition: Prisma.InputJsonValue | typeof Prisma.DbNull }
>;

/** Statuses a broadcast may be deleted in: it never started sending, or its send failed. */
const DELETABLE = ['draft', 'scheduled', 'failed'] as const;
const SCHEDULABLE = ['draft', 'scheduled'] as const;

/** broadcasts, and the API's reads and control writes of broadcast_runs and broadcast_deliveries (the send worker writes the rest). */
@Injectable()
export class BroadcastRepository {
  constructor(private readonly prisma: EmailPrisma) {}

  transaction<T>(work: (tx: BroadcastTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  list(workspaceId: WorkspaceId, page: KeysetPage, search?: string): Promise<Broadcast[]> {
    return this.prisma.broadcast.findMany({
      where: { workspace_id: workspaceId, ...(search ? { subject: { contains: likeLiteral(search), mode: 'insensitive' } } : {}), ...keysetWhere(page) },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
  }

  find(workspaceId: WorkspaceId, id: string, db: BroadcastTx = this.prisma): Promise<Broadcast | null> {
    return db.broadcast.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  create(workspaceId: WorkspaceId, id: string, content: BroadcastContent & Pick<Broadcast, 'subject' | 'body'>): Promise<Broadcast> {
    const { body_document, ...rest } = content;
    return this.prisma.broadcast.create({ data: { ...rest, body_document: body_document!, id, workspace_id: workspaceId } });
  }

  /** Changes a draft still at `contentVersion` and moves its version on; null when it is no longer that draft. */
  async updateDraft(workspaceId: WorkspaceId, id: string, contentVersion: number, content: BroadcastContent): Promise<Broadcast | null> {
    const [updated] = await this.prisma.broadcast.updateManyAndReturn({
      where: { workspace_id: workspaceId, id, status: 'draft', content_version: contentVersion },
      data: { ...content, content_version: { increment: 1 } },
    });
    return updated ?? null;
  }

  async delete(workspaceId: WorkspaceId, id: string): Promise<boolean> {
    const { count } = await this.prisma.broadcast.deleteMany({ where: { workspace_id: workspaceId, id, status: { in: [...DELETABLE] } } });
    return count === 1;
  }

  /** Draft or scheduled → scheduled at `at`; null when the broadcast is in neither status. */
  async schedule(tx: BroadcastTx, workspaceId: WorkspaceId, id: string, at: Date): Promise<Broadcast | null> {
    const [updated] = await tx.broadcast.updateManyAndReturn({
      where: { workspace_id: workspaceId, id, status: { in: [...SCHEDULABLE] } },
      data: { status: 'scheduled', scheduled_at: at },
    });
    return updated ?? null;
  }

  /** Scheduled → draft; null when it was not scheduled (anymore). */
  async unschedule(tx: BroadcastTx, workspaceId: WorkspaceId, id: string): Promise<Broadcast | null> {
    const [updated] = await tx.broadcast.updateManyAndReturn({
      where: { workspace_id: workspaceId, id, status: 'scheduled' },
      data: { status: 'draft', scheduled_at: null },
    });
    return updated ?? null;
  }

  latestRun(workspaceId: WorkspaceId, broadcastId: string): Promise<BroadcastRun | null> {
    return this.prisma.broadcastRun.findFirst({
      where: { workspace_id: workspaceId, broadcast_id: broadcastId },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
    });
  }

  /** Moves the run to `canceling` only if it is still in the phase it was read in; false when something else moved it first. */
  async requestCancel(tx: BroadcastTx, workspaceId: WorkspaceId, runId: string, readPhase: RunPhase): Promise<boolean> {
    if (!CANCELABLE_PHASES.has(readPhase)) return false;
    const { count } = await tx.broadcastRun.updateMany({ where: { workspace_id: workspaceId, id: runId, phase: readPhase }, data: { phase: 'canceling' } });
    return count === 1;
  }

  /** Whether any delivery of the run is still to be tried (pending, or waiting to retry). */
  async hasUntriedDeliveries(workspaceId: WorkspaceId, runId: string): Promise<boolean> {
    const row = await this.prisma.broadcastDelivery.findFirst({
      where: { run_id: runId, workspace_id: workspaceId, state: { in: ['pending', 'retrying'] } },
      select: { id: true },
    });
    return row !== null;
  }

  /** Failed and unknown deliveries of the run after `afterId`, in id order, `limit` + 1 of them (the extra says there is more). */
  deliveryErrors(workspaceId: WorkspaceId, runId: string, afterId: bigint, limit: number): Promise<BroadcastDelivery[]> {
    return this.prisma.broadcastDelivery.findMany({
      where: { run_id: runId, workspace_id: workspaceId, state: { in: ['failed', 'unknown'] }, id: { gt: afterId } },
      orderBy: { id: 'asc' },
      take: limit + 1,
    });
  }
}
