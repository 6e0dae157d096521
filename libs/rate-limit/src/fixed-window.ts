import type { Redis } from 'ioredis';

export interface WindowCount {
  /** Hits counted in the current window, this one included. */
  used: number;
  /** Milliseconds until the window ends (when the count starts again). */
  resetMs: number;
}

/** Whole seconds a client should wait before the window ends, at least 1 (for Retry-After). */
export const retryAfterSeconds = (resetMs: number): number => Math.max(1, Math.ceil(resetMs / 1000));

/**
 * Counts one hit on `key` in the fixed window `now` falls in: one INCR + PEXPIRE round trip on `<key>:<window>`,
 * shared by every replica. The key outlives its window by `keepMs` (two windows unless told otherwise).
 */
export async function countInWindow(redis: Redis, key: string, windowMs: number, now = Date.now(), keepMs = windowMs * 2): Promise<WindowCount> {
  const window = Math.floor(now / windowMs);
  const windowKey = `${key}:${window}`;
  const [[, used]] = (await redis.multi().incr(windowKey).pexpire(windowKey, keepMs).exec()) as [[null, number], [null, number]];
  return { used, resetMs: (window + 1) * windowMs - now };
}
