import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis, RedisOptions } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@shared/config';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** One ioredis connection built the same way everywhere (BullMQ needs maxRetriesPerRequest: null). */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, ...options });
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
  providers: [
    { provide: REDIS_CLIENT, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createRedis(config.redisUrl, { maxRetriesPerRequest: 2 }) },
    RedisCloser,
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule {}
