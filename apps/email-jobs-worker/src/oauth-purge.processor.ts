import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { QueueOf } from '@shared/queue';
import { Clock } from '@shared/core';
import { OAuthPurgeCounts, purgeOAuthRecords } from '@shared/oauth';
import { EmailJobPayloads, EmailQueues } from '@email/contracts';
import { OAuthRepository } from '@email/oauth';

/** How often the purge runs; what it deletes is decided by expiry and REVOKED_TOKEN_RETENTION_MS. */
const EVERY_MS = 60 * 60_000;

@Processor(EmailQueues.oauthPurge)
export class OAuthPurgeProcessor extends WorkerHost {
  constructor(
    private readonly repository: OAuthRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  process(): Promise<OAuthPurgeCounts> {
    return purgeOAuthRecords(this.repository, this.clock.now());
  }
}

/** Declares the repeatable job; every replica upserts the same scheduler, so it exists once. */
@Injectable()
export class OAuthPurgeSchedule implements OnApplicationBootstrap {
  constructor(@InjectQueue(EmailQueues.oauthPurge) private readonly queue: QueueOf<EmailJobPayloads, typeof EmailQueues.oauthPurge>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('purge-oauth-records', { every: EVERY_MS }, { name: 'purge-oauth-records', data: {} });
  }
}
