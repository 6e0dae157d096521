import type { AppConfig } from '@shared/config';
import { createRedis } from '@shared/redis';
import { uniqueQueuePrefix } from '@shared/testing';
import { ConnectionLimiter } from './connection-limiter';

describe('ConnectionLimiter (real Redis)', () => {
  const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const replica = redis.duplicate();
  const config = { queuePrefix: uniqueQueuePrefix() } as AppConfig;
  // Two replicas' limiters: one bucket per connection in Redis.
  const one = new ConnectionLimiter(redis, config);
  const two = new ConnectionLimiter(replica, config);

  afterAll(async () => {
    const keys = await redis.keys(`${config.queuePrefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    replica.disconnect();
  });

  it('grants a burst of one second, then tells how long to wait, shared across replicas', async () => {
    // A slow rate, so a pause of the noisy test machine between two calls does not refill a token.
    const limits = { ratePerSecond: 2, connections: 1, dailyQuota: null };
    expect(await one.take('edc_rate', limits, 1)).toEqual({ granted: 1 });
    expect(await two.take('edc_rate', limits, 5)).toEqual({ granted: 1 });
    const denied = await one.take('edc_rate', limits, 5);
    expect(denied).toMatchObject({ granted: 0, quotaSpent: false });
    expect((denied as { retryInMs: number }).retryInMs).toBeGreaterThan(0);
    expect((denied as { retryInMs: number }).retryInMs).toBeLessThanOrEqual(500);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const refilled = await two.take('edc_rate', limits, 5);
    expect(refilled.granted).toBeGreaterThanOrEqual(1);
    expect(refilled.granted).toBeLessThanOrEqual(2);
    await one.refund('edc_rate', limits, 2);
    expect((await one.take('edc_rate', limits, 2)).granted).toBe(2);
  });

  it('stops at the daily quota until the UTC day ends', async () => {
    const limits = { ratePerSecond: 1000, connections: 1, dailyQuota: 10 };
    expect(await one.take('edc_quota', limits, 8)).toEqual({ granted: 8 });
    expect(await two.take('edc_quota', limits, 8)).toEqual({ granted: 2 });
    const spent = await one.take('edc_quota', limits, 1);
    expect(spent).toMatchObject({ granted: 0, quotaSpent: true });
    const untilMidnight = new Date().setUTCHours(24, 0, 0, 0) - Date.now();
    expect(Math.abs((spent as { retryInMs: number }).retryInMs - untilMidnight)).toBeLessThan(5000);
  });
});
