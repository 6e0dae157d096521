import { Queue } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { importQueueOptions } from '@email/jobs';
import { loadConfig } from '@shared/config';
import { queuePrefix } from '@shared/queue';
import { freePort } from '@shared/testing';
import { appEntry, processMemoryMb, resetPeakRss, startApp } from './server';

export interface WorkerImport {
  status: string;
  /** The worker's highest RSS (VmHWM) while it ran this job, in MB. */
  peakMb: number;
}

export interface JobsWorkerProcess {
  pid: number;
  /** The worker's RSS now, in MB. */
  rssMb(): number;
  /** Queues the import job as email-api does, waits until its record is Completed or Failed, and reads the worker's peak RSS over it. */
  runImport(workspaceId: string, jobId: string): Promise<WorkerImport>;
  stop(): Promise<void>;
}

/**
 * The built email-jobs-worker as a child process on `url`, with a queue prefix of its own: the process whose memory
 * the import's goal is about (not the bench process, which loads more).
 */
export async function startJobsWorker(url: string, env: Record<string, string>): Promise<JobsWorkerProcess> {
  const prefix = `bench-jobs-${process.pid}`;
  const port = await freePort();
  const worker = await startApp(appEntry('email-jobs-worker'), {
    port,
    env: { HEALTH_PORT: String(port), EMAIL_DATABASE_URL: url, QUEUE_PREFIX: prefix, ...env },
  });
  const queue = new Queue<EmailJobPayloads['subscriber-import']>(EmailQueues.subscriberImport, {
    connection: { url: loadConfig(process.env).redisUrl },
    prefix: queuePrefix(prefix, EmailQueues.subscriberImport),
  });
  const sql = new Client({ connectionString: url });
  await sql.connect();
  const status = async (jobId: string) =>
    (await sql.query<{ status: string }>('SELECT status FROM subscriber_import_jobs WHERE id = $1', [jobId])).rows[0]?.status;

  return {
    pid: worker.pid,
    rssMb: () => processMemoryMb(worker.pid).rss,
    runImport: async (workspaceId, jobId) => {
      resetPeakRss(worker.pid);
      await queue.add('import', { workspaceId, jobId }, importQueueOptions(jobId));
      let state: string | undefined;
      while ((state = await status(jobId)) !== 'Completed' && state !== 'Failed') await sleep(100);
      return { status: state, peakMb: processMemoryMb(worker.pid).peak };
    },
    stop: async () => {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      await sql.end();
      await worker.stop();
    },
  };
}
