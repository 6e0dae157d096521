import type { BroadcastRun } from '@email/data-access';
import { isTerminalPhase } from '../core/run-states';
import { BroadcastSendProgressDto } from './broadcast-send.dto';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * A run's progress from its row alone (no scan of its deliveries):
 * - `sent`: deliveries with a final outcome from the provider (accepted, permanently failed, unknown);
 * - `percent_complete`: every recipient with a final state (sent, skipped, canceled) over the total (the exact
 *   total once preparation finished, the start's count until then); 100 once terminal;
 * - `effective_rate`: `sent` per second from the start of sending to the last progress;
 * - `provider_limited_rate`: the rate the send worker holds the connection to;
 * - `estimated_completion`: at the current rate, or, while paused for the provider, from the time it resumes
 *   (basis `provider-quota`); null when terminal or without a rate yet.
 */
export function progressOf(run: BroadcastRun, connection: { provider: string; rate: number } | null, now: Date): BroadcastSendProgressDto {
  const sent = run.accepted + run.permanent_failed + run.unknown;
  const settled = sent + run.skipped + run.canceled;
  const total = Math.max(run.selected, run.materialized);
  const terminal = isTerminalPhase(run.phase);
  const elapsedSeconds = run.sending_started_at ? ((run.last_progress_at ?? now).getTime() - run.sending_started_at.getTime()) / 1000 : 0;
  const rate = elapsedSeconds > 0 ? sent / elapsedSeconds : 0;
  const remaining = Math.max(0, total - settled);

  let estimated: Date | null = null;
  let basis: 'current-rate' | 'provider-quota' | null = null;
  if (!terminal && rate > 0) {
    const pausedUntil = run.phase === 'paused' ? run.next_retry_at : null;
    basis = pausedUntil ? 'provider-quota' : 'current-rate';
    estimated = new Date(Math.max(now.getTime(), pausedUntil?.getTime() ?? 0) + (remaining / rate) * 1000);
  }

  return {
    run_id: run.id,
    phase: run.phase,
    selected: run.selected,
    materialized: run.materialized,
    sent,
    accepted: run.accepted,
    skipped: run.skipped,
    retrying: run.retrying,
    permanent_failed: run.permanent_failed,
    unknown: run.unknown,
    canceled: run.canceled,
    percent_complete: terminal ? 100 : total ? Math.min(100, round((settled / total) * 100, 1)) : 0,
    effective_rate: round(rate, 2),
    provider_limited_rate: connection?.rate ?? null,
    provider: connection?.provider ?? null,
    estimated_completion: iso(estimated),
    estimated_completion_basis: basis,
    last_progress_at: iso(run.last_progress_at),
    pause_reason: run.pause_reason,
    next_retry_at: iso(run.next_retry_at),
    next_retry_action: run.next_retry_action,
    pause_message: run.pause_message,
    terminal,
  };
}

/** A connection's daily quota as the preflight reports it (`sending_quota`). */
export interface DailyQuota {
  remaining: number;
  limit: number;
  period: 'day';
}

/**
 * Seconds to send to `recipients` at `rate` per second, waiting for the next UTC day each time the daily quota runs
 * out (today's `remaining` first, then `limit` a day).
 */
export function estimatedSendSeconds(recipients: number, rate: number, quota: DailyQuota | null, now: Date): number {
  if (!quota || recipients <= quota.remaining) return Math.ceil(recipients / rate);
  const afterToday = recipients - quota.remaining;
  const fullDays = Math.ceil(afterToday / quota.limit) - 1;
  const lastDay = afterToday - fullDays * quota.limit;
  const untilMidnight = (new Date(now).setUTCHours(24, 0, 0, 0) - now.getTime()) / 1000;
  return Math.ceil(untilMidnight + fullDays * 86_400 + lastDay / rate);
}
