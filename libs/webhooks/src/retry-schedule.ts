/**
 * Waits after each failed attempt, in units (one unit is a minute in production): 1 m, 5 m, 15 m, 30 m, 1 h, 2 h,
 * 4 h, 8 h, 8 h — ten attempts over about 23 h 51 m, then the delivery is given up.
 */
export const RETRY_STEPS = [1, 5, 15, 30, 60, 120, 240, 480, 480] as const;

/** Attempts a delivery gets in all: the first and one per step. */
export const MAX_ATTEMPTS = RETRY_STEPS.length + 1;

/** Each wait is spread ±20 % so the retries of many failed deliveries do not arrive together. */
const JITTER = 0.2;

/**
 * The wait before the next attempt after `attempts` failed ones, or null when the delivery is given up.
 * `random` is in [0, 1) (Math.random by default).
 */
export function retryDelayMs(attempts: number, unitMs: number, random: () => number = Math.random): number | null {
  if (attempts < 1 || attempts >= MAX_ATTEMPTS) return null;
  const base = RETRY_STEPS[attempts - 1] * unitMs;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
