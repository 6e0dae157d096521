import { Injectable } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';

/** Queue options of an import job: its queue job id is the record's id, so adding it again adds nothing. */
export const importQueueOptions = (jobId: string) => ({ jobId, attempts: 5, backoff: { type: 'exponential', delay: 2000 } });

/** Queue options of an export job: its queue job id is the record's id, so adding it again adds nothing. */
export const exportQueueOptions = (jobId: string) => ({ jobId, attempts: 3, backoff: { type: 'exponential', delay: 2000 } });

/** A job still Queued this long after it was created may never have reached the queue. */
export const REQUEUE_AFTER_MS = 60_000;

const BATCH = 500;

export interface QueuedJobRef {
  id: string;
  workspace_id: string;
}

/**
 * Import and export jobs whose record committed but whose queue add may have failed (Redis unreachable at that moment):
 * still Queued after REQUEUE_AFTER_MS. The sweep that reads them works across workspaces, as the files clean-up does.
 */
@Injectable()
export class QueuedJobs {
  constructor(private readonly prisma: EmailPrisma) {}

  async stale(now: Date): Promise<{ imports: QueuedJobRef[]; exports: QueuedJobRef[] }> {
    const query = {
      where: { status: 'Queued', created_at: { lte: new Date(now.getTime() - REQUEUE_AFTER_MS) } },
      select: { id: true, workspace_id: true },
      orderBy: { created_at: 'asc' as const },
      take: BATCH,
    };
    const [imports, exports] = await Promise.all([this.prisma.subscriberImportJob.findMany(query), this.prisma.subscriberExportJob.findMany(query)]);
    return { imports, exports };
  }
}
