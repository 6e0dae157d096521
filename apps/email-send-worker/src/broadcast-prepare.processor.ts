import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { JobOf } from '@shared/queue';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { DeliveryLanes, PrepareResult, RunPreparer } from '@email/broadcasts';

/**
 * Prepares a run (job id = run id). Idempotent: a run no longer preparing is left alone, a run another worker is
 * preparing answers `busy`, and a retried job resumes after the last committed chunk.
 */
@Processor(EmailQueues.broadcastPrepare)
export class BroadcastPrepareProcessor extends WorkerHost {
  constructor(
    private readonly preparer: RunPreparer,
    private readonly lanes: DeliveryLanes,
  ) {
    super();
  }

  async process(job: JobOf<EmailJobPayloads, typeof EmailQueues.broadcastPrepare>): Promise<{ result: PrepareResult }> {
    const result = await this.preparer.prepare(job.data.runId);
    if (result === 'prepared') this.lanes.nudge();
    return { result };
  }
}
