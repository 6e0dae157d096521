import type { DeliveryOutcome } from '@email/delivery';
import type { ClaimedDelivery, DeliveryRecord, RunStop } from './run-store';

/** Transient failures are retried up to this many attempts in all, then the delivery is `failed`. */
export const MAX_ATTEMPTS = 5;
/** A run whose provider refused its credentials is checked again after this. */
export const CREDENTIALS_RECHECK_MS = 10 * 60_000;

export interface OutcomeTimings {
  retryBaseMs: number;
  throttlePauseMs: number;
}

/** What a batch's outcomes mean for its run: each delivery's record, and a pause when the provider asked for one. */
export interface BatchVerdict {
  records: DeliveryRecord[];
  pause?: { stop: RunStop; retryInMs: number; action: 'resume' | 'recheck' };
}

/** Backoff doubling per attempt, ±20 % jitter so retries of one batch spread out. */
export function retryDelayMs(attempt: number, baseMs: number, random = Math.random): number {
  return Math.round(baseMs * 2 ** Math.max(0, attempt - 1) * (0.8 + 0.4 * random()));
}

/**
 * Maps each provider outcome to the delivery's next state: accepted (with the provider's id), failed (permanent, or
 * transient past MAX_ATTEMPTS), retrying (transient: backoff; throttled or refused credentials: when the run
 * resumes), unknown (never retried). Throttling pauses the run until the provider's wait (or the configured one);
 * refused credentials pause it for a recheck: neither is the recipient's fault, so neither counts against it.
 */
export function judgeBatch(
  deliveries: readonly ClaimedDelivery[],
  outcomes: readonly DeliveryOutcome[],
  timings: OutcomeTimings,
  random = Math.random,
): BatchVerdict {
  const verdict: BatchVerdict = { records: [] };
  const pauseFor = (stop: RunStop, retryInMs: number, action: 'resume' | 'recheck') => {
    if (!verdict.pause || retryInMs > verdict.pause.retryInMs) verdict.pause = { stop, retryInMs, action };
  };
  deliveries.forEach((delivery, i) => {
    const outcome = outcomes[i];
    const failure = (state: DeliveryRecord['state'], extra: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
      id: delivery.id,
      state,
      errorCode: 'reason' in outcome ? outcome.reason.code : undefined,
      errorMessage: 'reason' in outcome ? outcome.reason.message : undefined,
      ...extra,
    });
    switch (outcome.kind) {
      case 'accepted':
        verdict.records.push({ id: delivery.id, state: 'accepted', providerMessageId: outcome.providerMessageId });
        return;
      case 'unknown':
        verdict.records.push(failure('unknown'));
        return;
      case 'throttled': {
        const retryInMs = outcome.retryAfterMs ?? timings.throttlePauseMs;
        verdict.records.push(failure('retrying', { retryInMs }));
        pauseFor({ reason: 'provider_throttled', message: outcome.reason.message }, retryInMs, 'resume');
        return;
      }
      case 'permanent':
        if (outcome.reason.code === 'authentication_failed') {
          verdict.records.push(failure('retrying', { retryInMs: CREDENTIALS_RECHECK_MS }));
          pauseFor({ reason: 'provider_credentials_refused', message: outcome.reason.message }, CREDENTIALS_RECHECK_MS, 'recheck');
          return;
        }
        verdict.records.push(failure('failed'));
        return;
      case 'transient':
        verdict.records.push(
          delivery.attempt_count >= MAX_ATTEMPTS
            ? failure('failed')
            : failure('retrying', { retryInMs: retryDelayMs(delivery.attempt_count, timings.retryBaseMs, random) }),
        );
    }
  });
  return verdict;
}
