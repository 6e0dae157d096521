import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { QueueOf } from '@shared/queue';
import { FormsJobPayloads, FormsQueues } from '@forms/contracts';
import { PaymentWebhookEventsPrune } from '@forms/payments';

/** How often the prune runs; what it removes depends on PAYMENT_WEBHOOK_EVENT_RETENTION_MS. */
const EVERY_MS = 6 * 3_600_000;

@Processor(FormsQueues.formsPaymentEventsPrune)
export class PaymentEventsPruneProcessor extends WorkerHost {
  constructor(private readonly prune: PaymentWebhookEventsPrune) {
    super();
  }

  process(): Promise<{ removed: number }> {
    return this.prune.run();
  }
}

/** Declares the repeatable job; every replica upserts the same scheduler, so it exists once. */
@Injectable()
export class PaymentEventsPruneSchedule implements OnApplicationBootstrap {
  constructor(@InjectQueue(FormsQueues.formsPaymentEventsPrune) private readonly queue: QueueOf<FormsJobPayloads, 'forms-payment-events-prune'>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('prune-payment-webhook-events', { every: EVERY_MS }, { name: 'prune-payment-webhook-events', data: {} });
  }
}
