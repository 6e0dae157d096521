import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { clientSubject, countInWindow, retryAfterSeconds } from '@shared/rate-limit';

export interface SignInLimits {
  /** Failed attempts per account (the normalised address) per window. */
  perAccount: number;
  /** Failed attempts per client IP (an IPv6 client by its /64) per window. */
  perIp: number;
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAccount: 10, perIp: 50, windowMs: 15 * 60_000 };

/**
 * Failed sign-ins counted per account and per IP in Redis fixed windows shared by every replica (countInWindow's
 * keys). Once either count reaches its limit, every attempt is refused before its password is checked, the right
 * password included, until the window ends; successful sign-ins count for nothing. Addresses are keyed by digest.
 */
export class SignInLimiter {
  constructor(
    private readonly redis: Redis,
    /** e.g. `<namespace>:email-sign-in`: services never share counters. */
    private readonly prefix: string,
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  ) {}

  /** The seconds to wait when the account or the IP is over its limit, else null. */
  async retryAfter(account: string, ip: string, now = Date.now()): Promise<number | null> {
    const window = Math.floor(now / this.limits.windowMs);
    const [byAccount, byIp] = await this.redis.mget(`${this.accountKey(account)}:${window}`, `${this.ipKey(ip)}:${window}`);
    const over = Number(byAccount ?? 0) >= this.limits.perAccount || Number(byIp ?? 0) >= this.limits.perIp;
    return over ? retryAfterSeconds((window + 1) * this.limits.windowMs - now) : null;
  }

  async recordFailure(account: string, ip: string, now = Date.now()): Promise<void> {
    await Promise.all([
      countInWindow(this.redis, this.accountKey(account), this.limits.windowMs, now),
      countInWindow(this.redis, this.ipKey(ip), this.limits.windowMs, now),
    ]);
  }

  private accountKey(account: string): string {
    return `${this.prefix}:account:${createHash('sha256').update(account.trim().toLowerCase()).digest('hex')}`;
  }

  private ipKey(ip: string): string {
    return `${this.prefix}:ip:${clientSubject(ip)}`;
  }
}
