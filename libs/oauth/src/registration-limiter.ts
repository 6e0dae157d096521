import type { Redis } from 'ioredis';
import { countInWindow, retryAfterSeconds } from '@shared/rate-limit';

/**
 * Dynamic registration is open to anyone and writes a row, so it is counted per client IP in a Redis fixed window
 * shared by every replica; a registration over the limit is refused before anything is stored.
 */
export class RegistrationLimiter {
  constructor(
    private readonly redis: Redis,
    /** e.g. `<namespace>:email-oauth-register`: services never share counters. */
    private readonly prefix: string,
    private readonly perIp = 20,
    private readonly windowMs = 60 * 60_000,
  ) {}

  /** Counts the attempt; the seconds to wait when it is over the limit, else null. */
  async attempt(ip: string): Promise<number | null> {
    const { used, resetMs } = await countInWindow(this.redis, `${this.prefix}:${ip}`, this.windowMs);
    return used > this.perIp ? retryAfterSeconds(resetMs) : null;
  }
}
