import { Inject, Injectable, OnApplicationBootstrap, Type } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { Clock } from '@shared/core';
import { OAuthPurgeCounts, OAuthPurgeStore, purgeOAuthRecords } from './purge';

/** How often the purge runs; what it deletes is decided by expiry and REVOKED_TOKEN_RETENTION_MS. */
const EVERY_MS = 60 * 60_000;
const JOB_NAME = 'purge-oauth-records';

/**
 * A worker's scheduled OAuth purge: the processor of the service's purge queue, running purgeOAuthRecords over the
 * service's repository, and the schedule that declares the repeatable job (every replica upserts the same scheduler,
 * so it exists once). The worker module lists both among its providers.
 */
export function oauthPurgeProviders(queueName: string, repository: Type<OAuthPurgeStore>): [Type<WorkerHost>, Type<OnApplicationBootstrap>] {
  @Processor(queueName)
  class OAuthPurgeProcessor extends WorkerHost {
    constructor(
      @Inject(repository) private readonly store: OAuthPurgeStore,
      private readonly clock: Clock,
    ) {
      super();
    }

    process(): Promise<OAuthPurgeCounts> {
      return purgeOAuthRecords(this.store, this.clock.now());
    }
  }

  @Injectable()
  class OAuthPurgeSchedule implements OnApplicationBootstrap {
    constructor(@InjectQueue(queueName) private readonly queue: Queue<Record<string, never>>) {}

    async onApplicationBootstrap(): Promise<void> {
      await this.queue.upsertJobScheduler(JOB_NAME, { every: EVERY_MS }, { name: JOB_NAME, data: {} });
    }
  }

  return [OAuthPurgeProcessor, OAuthPurgeSchedule];
}
