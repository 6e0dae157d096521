import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { TooManyRequests } from '@shared/errors';
import { REDIS_CLIENT } from '@shared/redis';
import { countInWindow, retryAfterSeconds } from './fixed-window';

interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * Per-credential request limit: a fixed window counted in Redis (one round trip), shared by every API
 * replica. Installed as the guard after authentication (see AuthModule.forRoot's `after`); unauthenticated
 * (public) routes are not counted. Over the limit: 429 with Retry-After and the error envelope.
 * A guard rather than an interceptor: a global interceptor costs every request, counted or not.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.rateLimitRequests;
    this.windowMs = config.rateLimitWindowSeconds * 1000;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const credentialId = context.switchToHttp().getRequest<{ user?: { credentialId?: string } }>().user?.credentialId;
    if (!credentialId || this.limit <= 0) return true;
    const { used, resetMs } = await countInWindow(this.redis, `ratelimit:${credentialId}`, this.windowMs);
    const reply = context.switchToHttp().getResponse<Reply>();
    const resetSeconds = retryAfterSeconds(resetMs);
    reply.header('ratelimit-limit', String(this.limit));
    reply.header('ratelimit-remaining', String(Math.max(0, this.limit - used)));
    reply.header('ratelimit-reset', String(resetSeconds));
    if (used > this.limit) throw TooManyRequests(resetSeconds);
    return true;
  }
}
