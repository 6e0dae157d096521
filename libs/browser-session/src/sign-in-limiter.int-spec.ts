import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { SignInLimiter } from './sign-in-limiter';

describe('SignInLimiter (real Redis)', () => {
  let redis: Redis;
  const now = 1_800_000_000_000;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(() => redis.quit());

  const limiterOf = () => new SignInLimiter(redis, `test:sign-in:${randomUUID()}`, { perAccount: 3, perIp: 2, windowMs: 60_000 });

  it('refuses an account after its failures, from any address, until the window ends', async () => {
    const limiter = limiterOf();
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) await limiter.recordFailure('Ada@Example.test', ip, now);
    expect(await limiter.retryAfter(' ada@example.test', '198.51.100.1', now)).toBe(60); // `now` starts a window
    expect(await limiter.retryAfter('grace@example.test', '198.51.100.1', now)).toBeNull();
    expect(await limiter.retryAfter('ada@example.test', '198.51.100.1', now + 60_000)).toBeNull();
  });

  it('refuses a client IP after its failures on any accounts; an IPv6 client is counted by its /64', async () => {
    const limiter = limiterOf();
    await limiter.recordFailure('a@example.test', '2001:db8:aa:1::1', now);
    await limiter.recordFailure('b@example.test', '2001:db8:aa:1:ffff::2', now);
    expect(await limiter.retryAfter('c@example.test', '2001:db8:aa:1::3', now)).not.toBeNull();
    expect(await limiter.retryAfter('c@example.test', '2001:db8:aa:2::1', now)).toBeNull();
  });
});
