/** A run's phases (the progress `phase`); the last four are terminal. */
export const RUN_PHASES = ['preparing', 'sending', 'paused', 'canceling', 'sent', 'sent_with_errors', 'canceled', 'failed'] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

export const TERMINAL_PHASES: ReadonlySet<RunPhase> = new Set(['sent', 'sent_with_errors', 'canceled', 'failed']);
export const isTerminalPhase = (phase: string): boolean => TERMINAL_PHASES.has(phase as RunPhase);

/**
 * Who moves a run between phases. Every move is a conditional UPDATE from the phase the writer read, so of two
 * writers racing only one wins and the other sees that it lost.
 * - The API (and the scheduler) create a run in `preparing` (BroadcastRunStarter).
 * - The API's cancel moves `preparing` | `sending` | `paused` → `canceling`, and nothing else.
 * - The send worker moves all the rest: `preparing` → `sending` once materialised; `sending` ⇄ `paused` (throttling,
 *   quota; it resumes by itself); `sending` → `sent` | `sent_with_errors`; any active phase → `failed`; and
 *   `canceling` → `canceled` after marking every untried delivery `canceled`.
 */
export const CANCELABLE_PHASES: ReadonlySet<RunPhase> = new Set(['preparing', 'sending', 'paused']);

/**
 * One recipient's delivery:
 * - `pending`: materialised, not tried yet;
 * - `sending`: an attempt was recorded and the message handed to the provider; its outcome is not recorded yet
 *   (a worker that dies here leaves it to recovery, which makes it `unknown`, never a second attempt);
 * - `accepted` (final), `failed` (permanent, final), `unknown` (final: never retried automatically);
 * - `retrying`: a transient failure before hand-off; tried again at `next_attempt_at`;
 * - `skipped`: no longer sendable when its turn came (unsubscribed, bounced… since preparation);
 * - `canceled`: the run was canceled before it was tried.
 */
export const DELIVERY_STATES = ['pending', 'sending', 'accepted', 'retrying', 'failed', 'unknown', 'skipped', 'canceled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The broadcast statuses a send may start from. */
export const SENDABLE_STATUSES = ['draft', 'scheduled'] as const;
