import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { countInWindow, retryAfterSeconds } from '@shared/rate-limit';

export interface SignInLimits {
  /** Attempts per account (the normalised address) per window, whatever the outcome. */
  perAccount: number;
  /** Attempts per client IP per window. */
  perIp: number;
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAccount: 10, perIp: 50, windowMs: 15 * 60_000 };

/**
 * Sign-in attempts counted per account and per IP in Redis fixed windows shared by every replica; an attempt over
 * either limit is refused before its password is checked. The address is keyed by its digest, never in clear.
 */
export class SignInLimiter {
  constructor(
    private readonly redis: Redis,
    /** e.g. `email:sign-in`: services never share counters. */
    private readonly prefix: string,
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  ) {}

  /** Counts the attempt; the seconds to wait when it is over a limit, else null. */
  async attempt(account: string, ip: string): Promise<number | null> {
    const accountKey = createHash('sha256').update(account.trim().toLowerCase()).digest('hex');
    const [byAccount, byIp] = await Promise.all([
      countInWindow(this.redis, `${this.prefix}:account:${accountKey}`, this.limits.windowMs),
      countInWindow(this.redis, `${this.prefix}:ip:${ip}`, this.limits.windowMs),
    ]);
    const over = [byAccount.used > this.limits.perAccount ? byAccount : null, byIp.used > this.limits.perIp ? byIp : null].filter((c) => c !== null);
    return over.length ? retryAfterSeconds(Math.max(...over.map((c) => c.resetMs))) : null;
  }
}
