import { AppConfig } from '@shared/config';
import { DomainError, SharedErrors } from '@shared/errors';
import { uniqueQueuePrefix } from '@shared/testing';
import { AuthRedis } from './auth-changes';
import { FailedAuthLimiter, RefusedCredentials } from './failed-authentication';

describe('RefusedCredentials', () => {
  const refusal = SharedErrors.fail('invalid_credential', 'The API key is not valid.');

  it('remembers a refusal for its ttl, then forgets it', () => {
    let now = 1_000;
    const refused = new RefusedCredentials(500, 10, () => now);
    refused.set('k', refusal);
    expect(refused.get('k')).toBe(refusal);
    now = 1_499;
    expect(refused.get('k')).toBe(refusal);
    now = 1_500;
    expect(refused.get('k')).toBeUndefined();
    now = 1_000;
    expect(refused.get('k')).toBeUndefined(); // dropped, not merely hidden
  });

  it('remembers nothing with a zero ttl, and drops the oldest entry when full', () => {
    const off = new RefusedCredentials(0);
    off.set('k', refusal);
    expect(off.get('k')).toBeUndefined();
    const small = new RefusedCredentials(60_000, 2);
    small.set('a', refusal);
    small.set('b', refusal);
    small.set('c', refusal);
    expect([small.get('a'), small.get('b'), small.get('c')]).toEqual([undefined, refusal, refusal]);
  });
});

describe('FailedAuthLimiter (real Redis)', () => {
  const config = { redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } as AppConfig;
  const redis = new AuthRedis(config);
  const limiterWith = (limit: number, windowSeconds = 60, queuePrefix = uniqueQueuePrefix()) =>
    new FailedAuthLimiter(redis, { ...config, queuePrefix, authFailureLimit: limit, authFailureWindowSeconds: windowSeconds });

  afterAll(() => redis.onModuleDestroy());
  afterEach(() => jest.restoreAllMocks());

  const refusalOf = (run: () => void): DomainError | undefined => {
    try {
      run();
      return undefined;
    } catch (error) {
      return error as DomainError;
    }
  };

  it('blocks an address from its limit-th failure until the window ends, with Retry-After', async () => {
    const windowStart = Math.floor(Date.now() / 60_000) * 60_000;
    const now = jest.spyOn(Date, 'now').mockReturnValue(windowStart + 10_000);
    const limiter = limiterWith(3);
    for (let i = 0; i < 2; i++) {
      await limiter.recordFailure('203.0.113.7');
      expect(refusalOf(() => limiter.assertAllowed('203.0.113.7'))).toBeUndefined();
    }
    await limiter.recordFailure('203.0.113.7');
    const blocked = refusalOf(() => limiter.assertAllowed('203.0.113.7'));
    expect([blocked?.status, blocked?.code, blocked?.headers['retry-after']]).toEqual([429, 'rate_limited', '50']);
    expect(refusalOf(() => limiter.assertAllowed('198.51.100.9'))).toBeUndefined();

    now.mockReturnValue(windowStart + 59_001);
    expect(refusalOf(() => limiter.assertAllowed('203.0.113.7'))?.headers['retry-after']).toBe('1');
    now.mockReturnValue(windowStart + 60_000);
    expect(refusalOf(() => limiter.assertAllowed('203.0.113.7'))).toBeUndefined();
    now.mockReturnValue(windowStart + 10_000);
    expect(refusalOf(() => limiter.assertAllowed('203.0.113.7'))).toBeUndefined(); // the block was dropped, not merely skipped
  });

  it('counts failures per address in Redis, shared by every replica, in a key that expires with the window', async () => {
    const queuePrefix = uniqueQueuePrefix();
    const windowStart = Math.floor(Date.now() / 10_000) * 10_000;
    jest.spyOn(Date, 'now').mockReturnValue(windowStart + 1_000);
    const replicaA = limiterWith(2, 10, queuePrefix);
    const replicaB = limiterWith(2, 10, queuePrefix);
    await replicaA.recordFailure('192.0.2.1');
    expect(refusalOf(() => replicaB.assertAllowed('192.0.2.1'))).toBeUndefined();
    await replicaB.recordFailure('192.0.2.1');
    expect(refusalOf(() => replicaB.assertAllowed('192.0.2.1'))?.status).toBe(429);
    expect(refusalOf(() => replicaA.assertAllowed('192.0.2.1'))).toBeUndefined(); // A learns at its next failure

    const key = `${queuePrefix}:auth-failures:192.0.2.1:${windowStart / 10_000}`;
    expect(await redis.connection().get(key)).toBe('2');
    const ttl = await redis.connection().pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(10_000);
  });

  it('counts an IPv6 client by its /64: a fresh address from the same network stays blocked, another network does not', async () => {
    const limiter = limiterWith(2);
    await limiter.recordFailure('2001:db8:aa:1::1');
    await limiter.recordFailure('2001:db8:aa:1:ffff::2');
    expect(refusalOf(() => limiter.assertAllowed('2001:db8:aa:1::3'))?.status).toBe(429);
    expect(refusalOf(() => limiter.assertAllowed('2001:db8:aa:2::1'))).toBeUndefined();
  });

  it('counts nothing when the limit is 0', async () => {
    const queuePrefix = uniqueQueuePrefix();
    const limiter = limiterWith(0, 60, queuePrefix);
    for (let i = 0; i < 5; i++) await limiter.recordFailure('192.0.2.2');
    expect(refusalOf(() => limiter.assertAllowed('192.0.2.2'))).toBeUndefined();
    expect(await redis.connection().keys(`${queuePrefix}:*`)).toEqual([]);
  });
});
