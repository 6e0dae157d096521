import { Injectable, Module } from '@nestjs/common';
import { Clock } from '@shared/core';
import { PaymentsRepository } from './payments.repository';

/**
 * How long a processed webhook event's id is kept to refuse its redelivery: long past any provider's retry window
 * (Stripe retries for up to 3 days, Razorpay for about 24 hours), so no retry can arrive after its record is gone.
 */
export const PAYMENT_WEBHOOK_EVENT_RETENTION_MS = 30 * 24 * 3_600_000;

const BATCH = 1_000;

/** Deletes the idempotency records of payment webhook events older than the retention, in batches. */
@Injectable()
export class PaymentWebhookEventsPrune {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly clock: Clock,
  ) {}

  /** Returns how many records were deleted. */
  async run(): Promise<{ removed: number }> {
    const before = new Date(this.clock.now().getTime() - PAYMENT_WEBHOOK_EVENT_RETENTION_MS);
    let removed = 0;
    for (;;) {
      const deleted = await this.repository.deleteWebhookEventsOfAllWorkspaces(before, BATCH);
      removed += deleted;
      if (deleted < BATCH) return { removed };
    }
  }
}

/** What a worker needs to run the prune, without the rest of the payments domain. */
@Module({
  providers: [PaymentsRepository, PaymentWebhookEventsPrune],
  exports: [PaymentWebhookEventsPrune],
})
export class PaymentWebhookEventsPruneModule {}
