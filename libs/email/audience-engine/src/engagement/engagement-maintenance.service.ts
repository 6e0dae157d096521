import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock } from '@shared/core';
import { EngagementWindowsRepository, WINDOW_REFRESH_BATCH, WindowRefreshResult } from './engagement-windows.repository';
import { EmailEventPartitions, monthStart, retentionCutoff } from './event-partitions';

/** How many months after the current one have their partitions made ahead, so no writer has to create one. */
export const MONTHS_AHEAD = 3;

/**
 * Window counts older than this are counted again by the daily run. A day, less an hour: yesterday's run may have
 * started a little later in the day than today's, and its rows must not wait a second day.
 */
export const WINDOWS_STALE_AFTER_MS = 23 * 3_600_000;

export interface EngagementMaintenanceReport {
  /** First days (YYYY-MM-DD) of the months made sure of. */
  ensured: string[];
  /** Partitions dropped. */
  dropped: number;
  /** Events from this instant on are kept. */
  keptFrom: string;
  /** Subscribers whose stale window counts (opens_30d … clicks_90d) were counted again as of the run. */
  windowsRefreshed: number;
  /** Stale ones skipped because a writer (or another transaction) held the subscriber at that moment. */
  windowsBusy: number;
}

/**
 * Keeps email_events' monthly partitions (the coming months made ahead, those past retention dropped) and the rollup's
 * window counts current for subscribers who had no event lately.
 */
@Injectable()
export class EngagementMaintenance {
  constructor(
    private readonly partitions: EmailEventPartitions,
    private readonly windows: EngagementWindowsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'engagementRetentionMonths'>,
  ) {}

  /** The daily run: MONTHS_AHEAD months made ahead, ENGAGEMENT_RETENTION_MONTHS kept, stale window counts refreshed. */
  async run(): Promise<EngagementMaintenanceReport> {
    const ensured = await this.ensureMonthsAhead(MONTHS_AHEAD);
    const { dropped, keptFrom } = await this.pruneOlderThan(this.config.engagementRetentionMonths);
    const { refreshed, busy } = await this.refreshStaleWindows();
    return { ensured, dropped, keptFrom, windowsRefreshed: refreshed, windowsBusy: busy };
  }

  /** Counts again, as of now, the windows counted more than WINDOWS_STALE_AFTER_MS ago that are not all zero. */
  refreshStaleWindows(batchSize = WINDOW_REFRESH_BATCH): Promise<WindowRefreshResult> {
    const now = this.clock.now();
    return this.windows.refreshStale(now, new Date(now.getTime() - WINDOWS_STALE_AFTER_MS), batchSize);
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
