import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis, RedisOptions } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@shared/config';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** One ioredis connection built the same way everywhere (BullMQ needs maxRetriesPerRequest: null). */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, ...options });
}

/**
 * The request-path connection: every command is bounded (REDIS_COMMAND_TIMEOUT_MS) and fails after one reconnect
 * attempt, so an unreachable Redis makes requests fail fast (the error filter answers 503) instead of queueing them.
 * Losing and regaining the connection is logged once each, not once per reconnect attempt.
 */
export function createRequestPathRedis(config: AppConfig, logger = new Logger('Redis')): Redis {
  const redis = createRedis(config.redisUrl, {
    maxRetriesPerRequest: 1,
    commandTimeout: config.redisCommandTimeoutMs,
    connectTimeout: config.redisCommandTimeoutMs,
  });
  let unreachable = false;
  redis.on('error', (error: Error) => {
    if (unreachable) return;
    unreachable = true;
    logger.warn(`Redis unreachable (${error.message}); requests that need it answer 503 until it is back`);
  });
  redis.on('ready', () => {
    if (!unreachable) return;
    unreachable = false;
    logger.log('Redis reachable again');
  });
  return redis;
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [{ provide: REDIS_CLIENT, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createRequestPathRedis(config) }, RedisCloser],
  exports: [REDIS_CLIENT],
})
export class RedisModule {}
