import { Injectable } from '@nestjs/common';
import { IdGenerator, WorkspaceId } from '@shared/core';
import type { Prisma } from '@email/data-access';
import { EventType } from './events';

/** The slice of a Prisma transaction the outbox needs. */
export type OutboxTransaction = Pick<Prisma.TransactionClient, 'outboxEvent'>;

/**
 * Writes domain events into `outbox_events` inside the caller's transaction, so an event exists
 * exactly when its change commits. Payloads carry ids and compact references, never email addresses.
 */
@Injectable()
export class Outbox {
  constructor(private readonly ids: IdGenerator) {}

  async record(workspaceId: WorkspaceId, tx: OutboxTransaction, type: EventType, payload: Record<string, unknown>): Promise<void> {
    await tx.outboxEvent.create({ data: { id: this.ids.newId('evt'), workspace_id: workspaceId, type, payload: payload as Prisma.InputJsonValue } });
  }
}
