import type { BroadcastRun } from '@email/data-access';
import { estimatedSendSeconds, progressOf } from './broadcast-progress';

const NOW = new Date('2026-05-01T10:00:00Z');
const ago = (s: number) => new Date(NOW.getTime() - s * 1000);
const run = (changes: Partial<BroadcastRun> = {}): BroadcastRun =>
  ({
    id: 'brun_1',
    phase: 'sending',
    selected: 100,
    materialized: 100,
    accepted: 0,
    skipped: 0,
    retrying: 0,
    permanent_failed: 0,
    unknown: 0,
    canceled: 0,
    sending_started_at: null,
    last_progress_at: null,
    pause_reason: null,
    pause_message: null,
    next_retry_at: null,
    next_retry_action: null,
    ...changes,
  }) as BroadcastRun;

describe('progressOf', () => {
  it('has no rate, estimate or percent before anything was sent', () => {
    expect(progressOf(run({ phase: 'preparing', materialized: 0 }), { provider: 'postmark', rate: 50 }, NOW)).toMatchObject({
      phase: 'preparing',
      sent: 0,
      percent_complete: 0,
      effective_rate: 0,
      estimated_completion: null,
      estimated_completion_basis: null,
      provider: 'postmark',
      provider_limited_rate: 50,
      terminal: false,
    });
  });

  it('counts settled recipients over the total and estimates at the current rate', () => {
    const progress = progressOf(
      run({ accepted: 30, permanent_failed: 5, unknown: 5, skipped: 10, sending_started_at: ago(20), last_progress_at: ago(0) }),
      null,
      NOW,
    );
    expect(progress).toMatchObject({ sent: 40, percent_complete: 50, effective_rate: 2, estimated_completion_basis: 'current-rate' });
    // 50 left at 2 per second.
    expect(progress.estimated_completion).toBe(new Date(NOW.getTime() + 25_000).toISOString());
  });

  it('estimates from the resume time while paused for the provider, and stops estimating once terminal', () => {
    const resume = new Date(NOW.getTime() + 600_000);
    const paused = progressOf(run({ phase: 'paused', accepted: 50, sending_started_at: ago(50), last_progress_at: ago(0), next_retry_at: resume }), null, NOW);
    expect(paused).toMatchObject({ estimated_completion_basis: 'provider-quota', estimated_completion: new Date(resume.getTime() + 50_000).toISOString() });
    expect(progressOf(run({ phase: 'canceled', accepted: 10, canceled: 20 }), null, NOW)).toMatchObject({
      percent_complete: 100,
      terminal: true,
      estimated_completion: null,
    });
  });

  it('uses the larger of the start count and the prepared total', () => {
    expect(progressOf(run({ selected: 10, materialized: 20, accepted: 10 }), null, NOW).percent_complete).toBe(50);
    expect(progressOf(run({ selected: 0, materialized: 0 }), null, NOW).percent_complete).toBe(0);
  });
});

describe('estimatedSendSeconds', () => {
  // 10:00 UTC: 14 hours to the next UTC day.
  const UNTIL_MIDNIGHT = 14 * 3600;

  it('is the recipients over the rate without a quota, or within what is left of it today', () => {
    expect(estimatedSendSeconds(1000, 50, null, NOW)).toBe(20);
    expect(estimatedSendSeconds(1001, 50, null, NOW)).toBe(21);
    expect(estimatedSendSeconds(100, 10, { remaining: 100, limit: 500, period: 'day' }, NOW)).toBe(10);
  });

  it('waits for each next UTC day once the quota is spent', () => {
    const quota = { remaining: 100, limit: 500, period: 'day' } as const;
    // 100 today, 400 tomorrow.
    expect(estimatedSendSeconds(500, 10, quota, NOW)).toBe(UNTIL_MIDNIGHT + 40);
    // 100 today, 500 tomorrow, 500 the day after, 150 on the third day.
    expect(estimatedSendSeconds(1250, 10, quota, NOW)).toBe(UNTIL_MIDNIGHT + 2 * 86_400 + 15);
    expect(estimatedSendSeconds(10, 10, { remaining: 0, limit: 500, period: 'day' }, NOW)).toBe(UNTIL_MIDNIGHT + 1);
  });
});
