import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { DomainError, TooManyRequests } from '@shared/errors';
import { clientSubject, countInWindow, retryAfterSeconds, WindowCount } from '@shared/rate-limit';
import { AuthRedis } from './auth-changes';

/**
 * Credentials that failed verification (unknown, revoked, expired), refused from memory for `ttlMs` so a client
 * repeating a bad token costs no database lookup. None of these states can turn valid again: a key's secret exists
 * only once it is created, and revocation and expiry are final.
 */
export class RefusedCredentials {
  private readonly entries = new Map<string, { error: DomainError; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): DomainError | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.until > this.now()) return entry.error;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  set(key: string, error: DomainError): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { error, until: this.now() + this.ttlMs });
  }
}

/**
 * Per-IP limit on failed authentications (an IPv6 client counted by its /64, see clientSubject): a fixed window
 * counted in Redis and shared by every replica. Each failure is counted (one INCR); once the count passes the limit,
 * this replica refuses the IP from memory until the window ends, with 429 and Retry-After, before any database
 * lookup. Requests whose credential is already verified and cached never reach this check, so a working key behind
 * the same address keeps working on replicas that know it.
 */
@Injectable()
export class FailedAuthLimiter {
  private readonly blockedUntil = new Map<string, number>();
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    private readonly redis: AuthRedis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.limit = config.authFailureLimit;
    this.windowMs = config.authFailureWindowSeconds * 1000;
  }

  assertAllowed(ip: string): void {
    const subject = clientSubject(ip);
    const until = this.blockedUntil.get(subject);
    if (until === undefined) return;
    const now = Date.now();
    if (until <= now) {
      this.blockedUntil.delete(subject);
      return;
    }
    throw TooManyRequests(retryAfterSeconds(until - now));
  }

  async recordFailure(ip: string): Promise<void> {
    if (this.limit <= 0) return;
    const now = Date.now();
    const subject = clientSubject(ip);
    let failures: WindowCount;
    try {
      failures = await countInWindow(this.redis.connection(), `${this.config.queuePrefix}:auth-failures:${subject}`, this.windowMs, now, this.windowMs);
    } catch {
      return; // Redis unreachable (readiness reports it): the failure goes uncounted, the 401 itself stands
    }
    if (failures.used < this.limit) return;
    if (this.blockedUntil.size >= 100_000) this.blockedUntil.clear();
    this.blockedUntil.set(subject, now + failures.resetMs);
  }
}
