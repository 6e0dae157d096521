import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { from, Observable, switchMap } from 'rxjs';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { TooManyRequests } from '@shared/errors';
import { REDIS_CLIENT } from '@shared/redis';

interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * Per-credential request limit: a fixed window counted in Redis (one round trip), shared by every API
 * replica. Runs after authentication; unauthenticated (public) routes are not counted. Over the limit:
 * 429 with Retry-After and the error envelope.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.rateLimitRequests;
    this.windowMs = config.rateLimitWindowSeconds * 1000;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const credentialId = context.switchToHttp().getRequest<{ user?: { credentialId?: string } }>().user?.credentialId;
    if (!credentialId || this.limit <= 0) return next.handle();
    return from(this.count(credentialId)).pipe(
      switchMap(({ used, resetMs }) => {
        const reply = context.switchToHttp().getResponse<Reply>();
        const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
        reply.header('ratelimit-limit', String(this.limit));
        reply.header('ratelimit-remaining', String(Math.max(0, this.limit - used)));
        reply.header('ratelimit-reset', String(resetSeconds));
        if (used > this.limit) throw TooManyRequests(resetSeconds);
        return next.handle();
      }),
    );
  }

  private async count(credentialId: string): Promise<{ used: number; resetMs: number }> {
    const now = Date.now();
    const window = Math.floor(now / this.windowMs);
    const key = `ratelimit:${credentialId}:${window}`;
    const [[, used]] = (await this.redis.multi().incr(key).pexpire(key, this.windowMs * 2).exec()) as [[null, number], [null, number]];
    return { used, resetMs: (window + 1) * this.windowMs - now };
  }
}
