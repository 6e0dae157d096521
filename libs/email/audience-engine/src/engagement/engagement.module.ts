import { Module } from '@nestjs/common';
import { EmailEventPartitions } from './event-partitions';
import { EngagementMaintenance } from './engagement-maintenance.service';
import { EngagementWindowsRepository } from './engagement-windows.repository';
import { EngagementRepository } from './engagement.repository';

/**
 * Engagement data: the event writer that keeps the per-subscriber rollup current, and the daily maintenance (partitions,
 * stale window counts).
 * Needs EmailDataAccessModule, CoreModule and the config (global in every email app).
 */
@Module({
  providers: [EmailEventPartitions, EngagementRepository, EngagementWindowsRepository, EngagementMaintenance],
  exports: [EngagementRepository, EngagementMaintenance],
})
export class EmailEngagementModule {}
