import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { TooManyRequests } from '@shared/errors';
import { BatchedWindowCounter, countInWindow, retryAfterSeconds } from '@shared/rate-limit';
import { REDIS_CLIENT } from '@shared/redis';

/** One counter a request is charged to: what is limited (`scope`), whose count (`subject`), and how many are allowed. */
export interface LimitRule {
  scope: string;
  subject: string;
  /** Requests allowed per window; 0 turns the rule off. */
  limit: number;
}

/**
 * Fixed-window request counters in Redis, shared by every replica. A request is charged to its rules in order and
 * stops at the first one over its limit, so put the narrowest first (the client IP before the form): a client that
 * floods is refused on its own counter and never uses up the form's allowance for everyone else.
 * Each rule is its own round trip on its own key, which keeps this valid on Redis Cluster.
 */
@Injectable()
export class RequestLimiter implements OnModuleDestroy {
  private readonly windowMs: number;
  private readonly prefix: string;
  private readonly logger = new Logger('RequestLimiter');
  private readonly batched: BatchedWindowCounter;

  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.windowMs = config.formsPublicLimitWindowSeconds * 1000;
    // Installs (and test runs) that share one Redis keep their counters apart, like their queues.
    this.prefix = `${config.queuePrefix}:forms-limit`;
    this.batched = new BatchedWindowCounter(redis, this.windowMs, (error) =>
      this.logger.warn(`page-view counts not shared: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /** Charges one request to each rule; 429 with Retry-After (until the window ends) at the first rule over its limit. */
  async consume(rules: readonly LimitRule[]): Promise<void> {
    const now = Date.now();
    for (const rule of rules) {
      if (rule.limit <= 0) continue;
      const { used, resetMs } = await countInWindow(this.redis, `${this.prefix}:${rule.scope}:${rule.subject}`, this.windowMs, now);
      if (used > rule.limit) throw TooManyRequests(retryAfterSeconds(resetMs));
    }
  }

  /**
   * Charges one request to a rule without waiting on Redis (counted in memory, shared every 100 ms): for requests
   * cheaper than a round trip, like the cached hosted page. 429 with Retry-After when over the limit.
   */
  consumeBuffered(rule: LimitRule): void {
    if (rule.limit <= 0) return;
    const { used, resetMs } = this.batched.hit(`${this.prefix}:${rule.scope}:${rule.subject}`);
    if (used > rule.limit) throw TooManyRequests(retryAfterSeconds(resetMs));
  }

  onModuleDestroy(): void {
    this.batched.stop();
  }
}
