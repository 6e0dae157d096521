import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EngagementEventInput, EngagementRepository } from '@email/audience-engine';
import { WorkspaceId } from '@shared/core';

interface Waiting {
  workspaceId: WorkspaceId;
  event: EngagementEventInput;
  settle: (error?: Error) => void;
}

export interface GroupCommitLimits {
  /** Events written by one flush at most. */
  maxBatch: number;
  /** Flushes (transactions) running at once; while they run, new events wait and form the next batch. */
  maxInFlight: number;
  /** Events waiting at most; beyond it an event is refused at once (the database is not keeping up). */
  maxWaiting: number;
}

const DEFAULT_LIMITS: GroupCommitLimits = { maxBatch: 1000, maxInFlight: 2, maxWaiting: 20_000 };

/** Refused without a write: waiting list full, or the process is shutting down. */
export class EngagementWriteRefused extends Error {}

/**
 * Group commit for the tracking endpoints' events. `record` resolves only once the transaction holding the event has
 * committed (EngagementRepository.record, the same writer and rollup as every other event), so a caller that answers
 * after it acknowledges only what is durably stored: a crash before the commit loses events nobody was told about.
 *
 * No timer: events arriving while `maxInFlight` flushes run simply wait, and the next flush takes all of them (up to
 * `maxBatch`), one transaction per workspace. Under light load an event is written at once, alone; under heavy load
 * batches grow with the database's latency, which is what keeps the throughput up.
 */
@Injectable()
export class EngagementGroupCommit implements OnModuleDestroy {
  private readonly logger = new Logger('EngagementGroupCommit');
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;
  private closed = false;
  private drained: Array<() => void> = [];
  private readonly limits: GroupCommitLimits;

  constructor(
    private readonly engagement: EngagementRepository,
    limits: Partial<GroupCommitLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Resolves once the event is committed; rejects when its transaction failed or it was refused. */
  record(workspaceId: WorkspaceId, event: EngagementEventInput): Promise<void> {
    if (this.closed) return Promise.reject(new EngagementWriteRefused('shutting down'));
    if (this.waiting.length >= this.limits.maxWaiting) return Promise.reject(new EngagementWriteRefused('too many events waiting'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ workspaceId, event, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      this.schedule();
    });
  }

  /** Shutdown: refuses new events and writes every waiting one before the database pool closes. */
  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    while (this.waiting.length > 0 || this.inFlight > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.limits.maxInFlight || this.waiting.length === 0) return;
    this.scheduled = true;
    // After the current I/O phase: every request parsed in it joins this batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting.splice(0, this.limits.maxBatch);
    if (batch.length === 0) return;
    this.inFlight++;
    try {
      const byWorkspace = new Map<WorkspaceId, Waiting[]>();
      for (const item of batch) {
        const items = byWorkspace.get(item.workspaceId);
        if (items) items.push(item);
        else byWorkspace.set(item.workspaceId, [item]);
      }
      await Promise.all([...byWorkspace].map(([workspaceId, items]) => this.write(workspaceId, items)));
    } finally {
      this.inFlight--;
      this.schedule();
      if (this.waiting.length === 0 && this.inFlight === 0) for (const resolve of this.drained.splice(0)) resolve();
    }
  }

  private async write(workspaceId: WorkspaceId, items: Waiting[]): Promise<void> {
    try {
      await this.engagement.record(
        workspaceId,
        items.map((item) => item.event),
      );
      for (const item of items) item.settle();
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      // One line per failed transaction, not per event; no token or address in it.
      this.logger.warn(`${items.length} tracking events not recorded: ${failure.message}`);
      for (const item of items) item.settle(failure);
    }
  }
}
