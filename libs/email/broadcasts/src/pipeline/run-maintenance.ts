import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { EmailSql } from '@email/data-access';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { APP_CONFIG, AppConfig } from '@shared/config';
import type { QueueOf } from '@shared/queue';
import { DeliveryLanes } from './delivery-lanes';
import { RunPreparer } from './run-preparer';
import { RunStore } from './run-store';
import { ScheduledStarts } from './scheduled-starts';

/** Job states in which a preparation job will still run. */
const JOB_PENDING = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);
/** BullMQ's connection waits for Redis indefinitely; the job check does not. */
const JOB_CHECK_TIMEOUT_MS = 2000;

/**
 * What every send worker does on start and then each poll interval, all of it conditional so replicas can overlap:
 * deliveries whose lease ran out become `unknown`; pauses that are over resume; canceling runs cancel what was not
 * tried and end once nothing is in flight; runs with nothing left end; scheduled broadcasts that are due start; and
 * runs stuck in `preparing` whose job is gone (lost with Redis, never queued) are prepared here.
 */
@Injectable()
export class RunMaintenance {
  private readonly logger = new Logger(RunMaintenance.name);
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> | null = null;
  private readonly preparing = new Set<string>();

  constructor(
    private readonly store: RunStore,
    private readonly sql: EmailSql,
    private readonly preparer: RunPreparer,
    private readonly scheduled: ScheduledStarts,
    private readonly lanes: DeliveryLanes,
    @InjectQueue(EmailQueues.broadcastPrepare) private readonly prepareQueue: QueueOf<EmailJobPayloads, 'broadcast-prepare'>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  start(): void {
    const tick = () => {
      this.pass = this.runOnce().finally(() => {
        this.pass = null;
        if (this.timer) this.timer = setTimeout(tick, this.config.broadcastSend.pollIntervalMs);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pass;
    while (this.preparing.size) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** One pass; each step on its own, so one failing (a store unreachable) does not hold back the others. */
  async runOnce(): Promise<void> {
    const { sendingLeaseMs } = this.config.broadcastSend;
    await this.step('lease recovery', async () => {
      const lost = await this.store.expireLeases(sendingLeaseMs);
      if (lost) this.logger.warn({ deliveries: lost }, 'deliveries left sending by a stopped worker are now unknown');
    });
    await this.step('resume', async () => {
      if (await this.store.resumeDue()) this.lanes.nudge();
    });
    await this.step('cancel', async () => {
      for (const runId of await this.store.cancelingRuns()) await this.store.advanceCancel(runId);
    });
    await this.step('finish', async () => {
      for (const runId of await this.store.doneRuns()) await this.store.finishIfDone(runId);
    });
    await this.step('scheduled starts', async () => {
      await this.scheduled.startDue();
    });
    await this.step('stuck preparations', () => this.recoverPreparing());
  }

  private async step(name: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.warn({ step: name, error: (error as Error).message }, 'send worker maintenance step failed; next pass retries');
    }
  }

  private async recoverPreparing(): Promise<void> {
    const stuck = await this.sql.query<{ id: string }>({
      name: 'brun_stuck_preparing',
      text: `SELECT id FROM broadcast_runs WHERE phase = 'preparing' AND updated_at < now() - $1 * interval '1 millisecond'`,
      values: [5 * this.config.broadcastSend.pollIntervalMs],
    });
    for (const { id } of stuck) {
      if (this.preparing.has(id) || (await this.jobWillRun(id))) continue;
      this.preparing.add(id);
      this.logger.warn({ runId: id }, 'run stuck in preparing without a job; preparing it here');
      void this.preparer
        .prepare(id)
        .then(() => this.lanes.nudge())
        .catch((error: Error) => this.logger.warn({ runId: id, error: error.message }, 'recovered preparation failed; next pass retries'))
        .finally(() => this.preparing.delete(id));
    }
  }

  /** Whether the run's preparation job is still queued or running; Redis unreachable counts as no (the preparer's lock guards). */
  private async jobWillRun(runId: string): Promise<boolean> {
    const check = async () => {
      const job = await this.prepareQueue.getJob(runId);
      return job ? JOB_PENDING.has(await job.getState()) : false;
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), JOB_CHECK_TIMEOUT_MS)));
    try {
      return await Promise.race([check().catch(() => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
