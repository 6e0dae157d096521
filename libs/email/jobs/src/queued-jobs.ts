import { Injectable } from '@nestjs/common';
import { EmailPrisma, Prisma } from '@email/data-access';

/** Queue options of an import job: its queue job id is the record's id, so adding it again adds nothing. */
export const importQueueOptions = (jobId: string) => ({ jobId, attempts: 5, backoff: { type: 'exponential', delay: 2000 } });

/** Queue options of an export job: its queue job id is the record's id, so adding it again adds nothing. */
export const exportQueueOptions = (jobId: string) => ({ jobId, attempts: 3, backoff: { type: 'exponential', delay: 2000 } });

/** A job still unfinished this long after it was created may never have reached the queue, or lost its last give-up. */
export const REQUEUE_AFTER_MS = 60_000;

const BATCH = 500;

export interface QueuedJobRef {
  id: string;
  workspace_id: string;
}

/**
 * Import and export jobs still Queued or Processing after REQUEUE_AFTER_MS: their queue add may have failed (Redis
 * unreachable at that moment), or their queue job failed for good while marking the record Failed failed too (the
 * database down). The sweep checks each against the queue. It works across workspaces, as the files clean-up does.
 */
@Injectable()
export class QueuedJobs {
  constructor(private readonly prisma: EmailPrisma) {}

  async stale(now: Date): Promise<{ imports: QueuedJobRef[]; exports: QueuedJobRef[] }> {
    const cutoff = new Date(now.getTime() - REQUEUE_AFTER_MS);
    const [imports, exports] = await Promise.all(
      (['subscriber_import_jobs', 'subscriber_export_jobs'] as const).map((table) => this.prisma.$queryRaw<QueuedJobRef[]>(unfinishedJobs(table, cutoff))),
    );
    return { imports, exports };
  }
}

/** The sweep's statement. The status list is literal, not a parameter: it is the predicate of the tables' partial indexes. */
export const unfinishedJobs = (table: 'subscriber_import_jobs' | 'subscriber_export_jobs', createdBefore: Date): Prisma.Sql =>
  Prisma.sql`SELECT id, workspace_id FROM ${Prisma.raw(table)}
    WHERE status IN ('Queued', 'Processing') AND created_at <= ${createdBefore} ORDER BY created_at LIMIT ${BATCH}`;
