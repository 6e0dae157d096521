import type { Redis } from 'ioredis';
import type { AppConfig } from '@shared/config';
import { TooManyRequests } from '@shared/errors';
import { clientSubject } from './client-subject';
import { countInWindow, retryAfterSeconds } from './fixed-window';

/**
 * Requests per client IP (an IPv6 client by its /64, see clientSubject) on a route anyone may call without a
 * credential (which RateLimitGuard does not count): a fixed window in Redis shared by every replica.
 */
export class IpRequestLimit {
  constructor(
    private readonly redis: Redis,
    /** e.g. `<namespace>:email-mcp-public`: each route family and service counts apart. */
    private readonly prefix: string,
    /** Requests per window; 0 turns the limit off. */
    private readonly perIp: number,
    private readonly windowMs: number,
  ) {}

  /** Counts the request; the seconds to wait when it is over the limit, else null. */
  async attempt(ip: string): Promise<number | null> {
    if (this.perIp <= 0) return null;
    const { used, resetMs } = await countInWindow(this.redis, `${this.prefix}:${clientSubject(ip)}`, this.windowMs);
    return used > this.perIp ? retryAfterSeconds(resetMs) : null;
  }

  /** Counts the request; over the limit, 429 with Retry-After and the error envelope. */
  async consume(ip: string): Promise<void> {
    const wait = await this.attempt(ip);
    if (wait !== null) throw TooManyRequests(wait);
  }
}

/** The per-IP limit on a service's MCP requests that carry no credential (initialize, tools/list, …). */
export function mcpPublicLimit(
  redis: Redis,
  config: Pick<AppConfig, 'queuePrefix' | 'mcpPublicRequestsPerIp' | 'mcpPublicWindowSeconds'>,
  service: 'email' | 'forms',
): IpRequestLimit {
  return new IpRequestLimit(redis, `${config.queuePrefix}:${service}-mcp-public`, config.mcpPublicRequestsPerIp, config.mcpPublicWindowSeconds * 1000);
}
