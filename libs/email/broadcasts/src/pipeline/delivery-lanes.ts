import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DeliveryOutcome } from '@email/delivery';
import { APP_CONFIG, AppConfig, BroadcastSendSettings } from '@shared/config';
import type { PreparedBroadcast } from '../core/broadcast-messages';
import { ConnectionLimiter } from '../core/connection-limiter';
import { judgeBatch } from './delivery-outcomes';
import { FairRotation } from './fair-rotation';
import { ConnectionHandle, RunResources } from './run-resources';
import { ActiveRun, ClaimedDelivery, DeliveryRecord, RunStore } from './run-store';

/** How long recording a batch's outcomes is retried (the database unreachable) before it is left to lease recovery. */
const RECORD_RETRY_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The `sending` phase in one worker process: `lanes` loops, each taking the next run from the fair rotation, a grant
 * of tokens from the connection's shared limiter, then claiming that many deliveries (committed as `sending` with
 * their attempt counted before any hand-off), sending them through the connection's pooled provider and recording
 * every outcome with the run's counters in one statement. A run with nothing to claim now, or no tokens, rests
 * while the lanes serve the others.
 */
@Injectable()
export class DeliveryLanes {
  private readonly logger = new Logger(DeliveryLanes.name);
  private readonly settings: BroadcastSendSettings;
  private readonly rotation: FairRotation;
  private runs = new Map<string, ActiveRun>();
  /** Per run, the highest delivery id this process claimed: pending rows are only looked for after it. */
  private readonly claimedThrough = new Map<string, string>();
  private refreshing: Promise<void> | null = null;
  private refreshedAt = 0;
  private running = false;
  private loops: Promise<void>[] = [];
  private wake: Array<() => void> = [];

  constructor(
    private readonly store: RunStore,
    private readonly limiter: ConnectionLimiter,
    private readonly resources: RunResources,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = config.broadcastSend;
    this.rotation = new FairRotation(this.settings.batchSize);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = Array.from({ length: this.settings.lanes }, () => this.lane());
  }

  /** Stops claiming; batches in flight are sent and recorded first. */
  async stop(): Promise<void> {
    this.running = false;
    for (const wake of this.wake.splice(0)) wake();
    await Promise.all(this.loops);
    this.resources.closeAll();
  }

  /** The next refresh reads the active runs again at once (a run started or resumed here). */
  nudge(): void {
    this.refreshedAt = 0;
    for (const wake of this.wake.splice(0)) wake();
  }

  private async lane(): Promise<void> {
    let failing = false;
    while (this.running) {
      try {
        if (!(await this.turn())) await this.idle();
        failing = false;
      } catch (error) {
        // Once per outage and lane (Redis or PostgreSQL unreachable), not once per poll.
        if (!failing) this.logger.warn({ error: (error as Error).message }, 'send lane: turn failed; retrying each poll interval');
        failing = true;
        await this.idle();
      }
    }
  }

  private idle(): Promise<void> {
    const wakeAt = this.rotation.nextWake();
    const ms = Math.max(5, Math.min(this.settings.pollIntervalMs, wakeAt === null ? Infinity : wakeAt - Date.now()));
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const wake = this.wake;
      function done() {
        clearTimeout(timer);
        resolve();
      }
      wake.push(done);
    });
  }

  /** One batch of one run; false when there was nothing to do. */
  private async turn(): Promise<boolean> {
    await this.refresh();
    const runId = this.rotation.next();
    const run = runId ? this.runs.get(runId) : undefined;
    if (!run) return false;
    const connection = await this.resources.connection(run);
    if (!(connection instanceof ConnectionHandle)) {
      this.rotation.remove(run.id);
      await this.store.fail(run.id, connection);
      return true;
    }
    let prepared: PreparedBroadcast;
    try {
      prepared = await this.resources.prepared(run, connection.sender);
    } catch (error) {
      this.rotation.remove(run.id);
      await this.store.fail(run.id, { reason: 'content_invalid', message: `The broadcast cannot be rendered: ${(error as Error).message}` });
      return true;
    }
    const grant = await this.limiter.take(run.connection_id, connection.limits, this.settings.batchSize);
    if (grant.granted === 0) {
      if ('quotaSpent' in grant && grant.quotaSpent) {
        const message = `The connection's daily quota of ${connection.limits.dailyQuota} messages is spent; sending resumes when it renews.`;
        await this.store.pause(run.id, { reason: 'provider_quota', message }, grant.retryInMs, 'resume');
        this.rotation.remove(run.id);
      } else if ('retryInMs' in grant) this.rotation.rest(run.id, Date.now() + grant.retryInMs);
      return true;
    }
    const claim = await this.claimAfterMark(run.id, grant.granted);
    if (claim.deliveries.length < grant.granted) {
      await this.limiter.refund(run.connection_id, connection.limits, grant.granted - claim.deliveries.length).catch(() => undefined);
    }
    if (claim.deliveries.length === 0) {
      // Nothing due now (all in flight, retries not due, or the run left `sending`): serve the others meanwhile.
      this.rotation.rest(run.id, Date.now() + this.settings.pollIntervalMs);
      if (claim.remaining === 0 || claim.remaining === null) await this.store.finishIfDone(run.id);
      return claim.skipped > 0;
    }
    const outcomes = await Promise.all(claim.deliveries.map((delivery) => this.sendOne(connection, prepared, delivery)));
    const verdict = judgeBatch(claim.deliveries, outcomes, this.settings);
    const after = await this.recordWithRetry(run.id, verdict.records);
    if (verdict.pause) {
      await this.store.pause(run.id, verdict.pause.stop, verdict.pause.retryInMs, verdict.pause.action);
      this.rotation.remove(run.id);
    }
    if (after && after.remaining === 0) await this.store.finishIfDone(run.id);
    return true;
  }

  /**
   * Claims after this process's mark, once more from the start when nothing is there (a claim that another worker rolled
   * back leaves pending rows below the mark). Pending rows never come back, so the mark only moves up.
   */
  private async claimAfterMark(runId: string, limit: number) {
    const mark = this.claimedThrough.get(runId);
    let claim = await this.store.claim(runId, limit, mark);
    if (mark && claim.deliveries.length === 0 && claim.skipped === 0) claim = await this.store.claim(runId, limit);
    if (claim.lastId && (!mark || BigInt(claim.lastId) > BigInt(mark))) this.claimedThrough.set(runId, claim.lastId);
    return claim;
  }

  /** Never throws: a message that cannot be built was never handed off (permanent); a provider that throws, after hand-off, is unknown. */
  private async sendOne(connection: ConnectionHandle, prepared: PreparedBroadcast, delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    let message;
    try {
      message = prepared.messageFor({ subscriberId: delivery.subscriber_id, email: delivery.email, name: delivery.name, customFields: delivery.custom_fields });
    } catch (error) {
      return { kind: 'permanent', reason: { code: 'invalid_message', message: (error as Error).message } };
    }
    try {
      return await connection.send(message);
    } catch (error) {
      return { kind: 'unknown', reason: { code: 'provider_error', message: (error as Error).message } };
    }
  }

  /** The outcomes must not be lost to a database blip: retried for a while; past that, lease recovery makes them unknown. */
  private async recordWithRetry(runId: string, records: DeliveryRecord[]) {
    const deadline = Date.now() + RECORD_RETRY_MS;
    for (let delay = 200; ; delay = Math.min(delay * 2, 5000)) {
      try {
        return await this.store.record(runId, records);
      } catch (error) {
        if (Date.now() + delay > deadline) {
          this.logger.error({ runId, error: (error as Error).message }, 'outcomes not recorded; lease recovery will count them unknown');
          return null;
        }
        await sleep(delay);
      }
    }
  }

  /** Reads the sending runs again once per poll interval (one read shared by the lanes). */
  private refresh(): Promise<void> {
    if (Date.now() - this.refreshedAt < this.settings.pollIntervalMs) return Promise.resolve();
    this.refreshing ??= this.store
      .sendingRuns()
      .then((runs) => {
        this.runs = new Map(runs.map((run) => [run.id, run]));
        for (const id of this.claimedThrough.keys()) if (!this.runs.has(id)) this.claimedThrough.delete(id);
        this.rotation.update(runs);
        this.resources.retain(new Set(this.runs.keys()));
        this.refreshedAt = Date.now();
      })
      .finally(() => (this.refreshing = null));
    return this.refreshing;
  }
}
