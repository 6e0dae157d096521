import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock } from '@shared/core';
import { EmailEventPartitions, monthStart, retentionCutoff } from './event-partitions';

/** How many months after the current one have their partitions made ahead, so no writer has to create one. */
export const MONTHS_AHEAD = 3;

export interface EngagementMaintenanceReport {
  /** First days (YYYY-MM-DD) of the months made sure of. */
  ensured: string[];
  /** Partitions dropped. */
  dropped: number;
  /** Events from this instant on are kept. */
  keptFrom: string;
}

/** Keeps email_events' monthly partitions: the coming months made ahead, those past retention dropped. */
@Injectable()
export class EngagementMaintenance {
  constructor(
    private readonly partitions: EmailEventPartitions,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'engagementRetentionMonths'>,
  ) {}

  /** The daily run: MONTHS_AHEAD months made ahead, ENGAGEMENT_RETENTION_MONTHS kept. */
  async run(): Promise<EngagementMaintenanceReport> {
    const ensured = await this.ensureMonthsAhead(MONTHS_AHEAD);
    const { dropped, keptFrom } = await this.pruneOlderThan(this.config.engagementRetentionMonths);
    return { ensured, dropped, keptFrom };
  }

  /** Makes sure the current month and the `n` after it have partitions (asking the database, whatever this process knows). */
  async ensureMonthsAhead(n: number): Promise<string[]> {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`months ahead must be a whole number (got ${n})`);
    const now = this.clock.now();
    const months = Array.from({ length: n + 1 }, (_, i) => monthStart(now, i));
    await this.partitions.ensure(months, true);
    return months.map((month) => month.toISOString().slice(0, 10));
  }

  /** Drops the partitions of the months wholly older than `months` months before now (see retentionCutoff). */
  async pruneOlderThan(months: number): Promise<{ dropped: number; keptFrom: string }> {
    const cutoff = retentionCutoff(this.clock.now(), months);
    return { dropped: await this.partitions.dropBefore(cutoff), keptFrom: cutoff.toISOString() };
  }
}
