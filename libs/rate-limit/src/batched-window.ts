import type { Redis } from 'ioredis';
import type { WindowCount } from './fixed-window';

interface KeyCount {
  window: number;
  /** Hits of this replica not yet added to the shared counter. */
  pending: number;
  /** The shared counter as Redis last answered it (this replica's flushed hits included). */
  shared: number;
}

/**
 * Fixed-window counts for hot, cheap requests (a cached page): hits are counted in memory and added to the shared
 * Redis counter (`<key>:<window>`, as `countInWindow` names it) at most every `flushMs`, so no request waits on Redis.
 * A decision uses the last shared count plus this replica's unflushed hits, so a client spread over N replicas can
 * pass the limit by what those replicas admit in one flush interval. When Redis is unreachable the replica keeps
 * counting alone and reports the error once per failed flush.
 */
export class BatchedWindowCounter {
  private readonly counts = new Map<string, KeyCount>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly windowMs: number,
    private readonly onFlushError: (error: unknown) => void,
    private readonly flushMs = 100,
  ) {}

  /** Counts one hit on `key` now and answers the window's count as this replica knows it. */
  hit(key: string, now = Date.now()): WindowCount {
    const window = Math.floor(now / this.windowMs);
    let count = this.counts.get(key);
    if (!count || count.window !== window) {
      count = { window, pending: 0, shared: 0 };
      this.counts.set(key, count);
    }
    count.pending++;
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref();
    return { used: count.shared + count.pending, resetMs: (window + 1) * this.windowMs - now };
  }

  /** Adds the unflushed hits to Redis and forgets windows that have ended. */
  async flush(now = Date.now()): Promise<void> {
    this.timer = undefined;
    const current = Math.floor(now / this.windowMs);
    const sends: Promise<void>[] = [];
    for (const [key, count] of this.counts) {
      if (count.window < current) {
        this.counts.delete(key);
        continue;
      }
      if (!count.pending) continue;
      const hits = count.pending;
      count.pending = 0;
      const windowKey = `${key}:${count.window}`;
      sends.push(
        this.redis
          .multi()
          .incrby(windowKey, hits)
          .pexpire(windowKey, this.windowMs * 2)
          .exec()
          .then((results) => {
            count.shared = Math.max(count.shared, Number(results?.[0]?.[1] ?? 0));
          })
          .catch((error: unknown) => {
            count.pending += hits;
            throw error;
          }),
      );
    }
    const failed = (await Promise.allSettled(sends)).find((result) => result.status === 'rejected');
    if (failed) this.onFlushError(failed.reason);
  }

  /** Stops the pending flush (shutdown); unflushed hits are dropped with the process. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
