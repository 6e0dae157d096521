import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { WebhookDispatcher } from '@email/webhooks';

/** Starts the dispatcher with the worker and stops it first on shutdown, before the database pool closes. */
@Injectable()
export class WebhookDispatchLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly dispatcher: WebhookDispatcher) {}

  onApplicationBootstrap(): void {
    this.dispatcher.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.dispatcher.stop();
  }
}
