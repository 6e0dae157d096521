/**
 * The forms-worker's repeatable prune of payment webhook event records: those received more than
 * PAYMENT_WEBHOOK_EVENT_RETENTION_MS ago go, whatever their workspace; recent ones stay. Real PostgreSQL, Redis and BullMQ.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { FormsPrisma } from '@forms/data-access';
import { FormsQueues } from '@forms/contracts';
import { PAYMENT_WEBHOOK_EVENT_RETENTION_MS } from '@forms/payments';
import { afterStartupRun } from '@shared/testing';
import { settled, useFormsWorker } from './worker.fixture';

const HOUR = 3_600_000;

describe('forms-worker: pruning payment webhook event records', () => {
  const fixture = useFormsWorker();

  it('is a repeatable job that deletes event records past the retention in every workspace and keeps recent ones', async () => {
    const prisma = fixture.worker().app.get(FormsPrisma);
    const queue = fixture.worker().app.get<Queue>(getQueueToken(FormsQueues.formsPaymentEventsPrune));
    expect((await queue.getJobSchedulers()).map((scheduler) => scheduler.key)).toContain('prune-payment-webhook-events');
    await afterStartupRun(queue);

    const now = Date.now();
    const events = [
      { provider: 'stripe', event_id: 'evt_old_a', workspace_id: 'wrk_a', ageMs: PAYMENT_WEBHOOK_EVENT_RETENTION_MS + HOUR },
      { provider: 'razorpay', event_id: 'evt_old_b', workspace_id: 'wrk_b', ageMs: 2 * PAYMENT_WEBHOOK_EVENT_RETENTION_MS },
      { provider: 'stripe', event_id: 'evt_recent_a', workspace_id: 'wrk_a', ageMs: PAYMENT_WEBHOOK_EVENT_RETENTION_MS - HOUR },
      { provider: 'razorpay', event_id: 'evt_new_b', workspace_id: 'wrk_b', ageMs: 0 },
    ] as const;
    await prisma.paymentWebhookEvent.createMany({
      data: events.map(({ ageMs, ...event }) => ({ ...event, event_type: 'payment.succeeded', received_at: new Date(now - ageMs) })),
    });

    const job = await queue.add('prune-payment-webhook-events', {});
    expect(await settled(job)).toBe('completed');
    expect((await queue.getJob(job.id!))?.returnvalue).toEqual({ removed: 2 });

    const left = await prisma.paymentWebhookEvent.findMany({ select: { event_id: true }, orderBy: { event_id: 'asc' } });
    expect(left.map((row) => row.event_id)).toEqual(['evt_new_b', 'evt_recent_a']);
  });
});
