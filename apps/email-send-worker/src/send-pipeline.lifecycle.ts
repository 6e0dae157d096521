import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DeliveryLanes, RunMaintenance } from '@email/broadcasts';

/**
 * Starts the send lanes and the maintenance loop with the worker (maintenance's first pass is the start-up recovery),
 * and stops them first on shutdown, before the database pool closes: batches in flight are sent and recorded.
 */
@Injectable()
export class SendPipelineLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly lanes: DeliveryLanes,
    private readonly maintenance: RunMaintenance,
  ) {}

  onApplicationBootstrap(): void {
    this.maintenance.start();
    this.lanes.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.maintenance.stop();
    await this.lanes.stop();
  }
}
