import { CREDENTIALS_RECHECK_MS, judgeBatch, MAX_ATTEMPTS, retryDelayMs } from './delivery-outcomes';
import type { ClaimedDelivery } from './run-store';

const delivery = (id: string, attempt = 1): ClaimedDelivery => ({
  id,
  subscriber_id: `sub_${id}`,
  email: `${id}@x.test`,
  name: '',
  custom_fields: null,
  attempt_count: attempt,
});
const timings = { retryBaseMs: 1000, throttlePauseMs: 60_000 };
const reason = (code: string) => ({ code, message: `${code} said the provider` });

describe('judgeBatch', () => {
  it('records each outcome: accepted with its id, permanent failed, unknown never retried, transient retried with backoff then failed', () => {
    const verdict = judgeBatch(
      [delivery('1'), delivery('2'), delivery('3'), delivery('4', 2), delivery('5', MAX_ATTEMPTS)],
      [
        { kind: 'accepted', providerMessageId: 'pm-1' },
        { kind: 'permanent', reason: reason('5.1.1') },
        { kind: 'unknown', reason: reason('timeout_after_handoff') },
        { kind: 'transient', reason: reason('4.3.0') },
        { kind: 'transient', reason: reason('4.3.0') },
      ],
      timings,
      () => 0.5,
    );
    expect(verdict.pause).toBeUndefined();
    expect(verdict.records).toEqual([
      { id: '1', state: 'accepted', providerMessageId: 'pm-1' },
      { id: '2', state: 'failed', errorCode: '5.1.1', errorMessage: '5.1.1 said the provider' },
      { id: '3', state: 'unknown', errorCode: 'timeout_after_handoff', errorMessage: 'timeout_after_handoff said the provider' },
      { id: '4', state: 'retrying', errorCode: '4.3.0', errorMessage: '4.3.0 said the provider', retryInMs: 2000 },
      { id: '5', state: 'failed', errorCode: '4.3.0', errorMessage: '4.3.0 said the provider' },
    ]);
  });

  it('throttling pauses the run for the longest wait asked (or the configured one); refused credentials pause it for a recheck', () => {
    const throttled = judgeBatch(
      [delivery('1'), delivery('2'), delivery('3')],
      [
        { kind: 'throttled', reason: reason('429'), retryAfterMs: 5000 },
        { kind: 'throttled', reason: reason('429') },
        { kind: 'accepted', providerMessageId: 'x' },
      ],
      timings,
    );
    expect(throttled.pause).toEqual({ stop: { reason: 'provider_throttled', message: '429 said the provider' }, retryInMs: 60_000, action: 'resume' });
    expect(throttled.records.map((r) => [r.state, r.retryInMs])).toEqual([
      ['retrying', 5000],
      ['retrying', 60_000],
      ['accepted', undefined],
    ]);
    const refused = judgeBatch([delivery('1')], [{ kind: 'permanent', reason: reason('authentication_failed') }], timings);
    expect(refused.pause).toMatchObject({ stop: { reason: 'provider_credentials_refused' }, action: 'recheck', retryInMs: CREDENTIALS_RECHECK_MS });
    expect(refused.records[0]).toMatchObject({ state: 'retrying' });
  });

  it('spreads retry delays ±20 % around a doubling backoff', () => {
    expect(retryDelayMs(1, 1000, () => 0)).toBe(800);
    expect(retryDelayMs(1, 1000, () => 1)).toBe(1200);
    expect(retryDelayMs(3, 1000, () => 0.5)).toBe(4000);
  });
});
