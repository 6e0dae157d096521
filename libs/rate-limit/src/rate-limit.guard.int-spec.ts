import { ExecutionContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '@shared/config';
import { DomainError } from '@shared/errors';
import { RateLimitGuard } from './rate-limit.guard';

/** One request through the guard: what it answered and the headers it set. */
async function call(guard: RateLimitGuard, user?: { credentialId?: string }) {
  const headers: Record<string, string> = {};
  const context = {
    switchToHttp: () => ({ getRequest: () => ({ user }), getResponse: () => ({ header: (name: string, value: string) => (headers[name] = value) }) }),
  } as unknown as ExecutionContext;
  try {
    return { allowed: await guard.canActivate(context), headers };
  } catch (error) {
    return { error: error as DomainError, headers };
  }
}

describe('RateLimitGuard (real Redis)', () => {
  let redis: Redis;
  const guardWith = (requests: number, windowSeconds = 60) =>
    new RateLimitGuard(redis, { rateLimitRequests: requests, rateLimitWindowSeconds: windowSeconds } as AppConfig);

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });

  afterAll(async () => {
    await redis.quit();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('counts each credential in a fixed window and answers 429 past the limit', async () => {
    const guard = guardWith(3);
    const credentialId = `key_${randomUUID()}`;
    for (const remaining of ['2', '1', '0']) {
      const { allowed, headers } = await call(guard, { credentialId });
      expect(allowed).toBe(true);
      expect(headers['ratelimit-limit']).toBe('3');
      expect(headers['ratelimit-remaining']).toBe(remaining);
    }
    for (let i = 0; i < 2; i++) {
      const { error, headers } = await call(guard, { credentialId });
      expect(error).toBeInstanceOf(DomainError);
      expect([error!.status, error!.code]).toEqual([429, 'rate_limited']);
      // Remaining never goes below zero, and Retry-After agrees with the reset header.
      expect(headers['ratelimit-remaining']).toBe('0');
      expect(error!.headers['retry-after']).toBe(headers['ratelimit-reset']);
    }
    expect((await call(guard, { credentialId: `key_${randomUUID()}` })).allowed).toBe(true);
  });

  it('keeps the counter in a key that expires after the window', async () => {
    const credentialId = `key_${randomUUID()}`;
    const window = Math.floor(Date.now() / 10_000);
    jest.spyOn(Date, 'now').mockReturnValue(window * 10_000 + 1_000);
    await call(guardWith(5, 10), { credentialId });
    const [key] = await redis.keys(`ratelimit:${credentialId}:*`);
    expect(key).toBe(`ratelimit:${credentialId}:${window}`);
    expect(await redis.get(key)).toBe('1');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(10_000);
    expect(ttl).toBeLessThanOrEqual(20_000);
  });

  it('reports the seconds left in the window, rounded up, at least 1', async () => {
    const windowStart = Math.floor(Date.now() / 60_000) * 60_000;
    const now = jest.spyOn(Date, 'now');
    now.mockReturnValue(windowStart + 500);
    expect((await call(guardWith(5), { credentialId: `key_${randomUUID()}` })).headers['ratelimit-reset']).toBe('60');
    now.mockReturnValue(windowStart + 58_100);
    expect((await call(guardWith(5), { credentialId: `key_${randomUUID()}` })).headers['ratelimit-reset']).toBe('2');
    now.mockReturnValue(windowStart + 59_999);
    expect((await call(guardWith(5), { credentialId: `key_${randomUUID()}` })).headers['ratelimit-reset']).toBe('1');
  });

  it('starts a fresh count in the next window', async () => {
    const credentialId = `key_${randomUUID()}`;
    const windowStart = Math.floor(Date.now() / 60_000) * 60_000;
    const now = jest.spyOn(Date, 'now').mockReturnValue(windowStart + 1_000);
    const guard = guardWith(1);
    expect((await call(guard, { credentialId })).allowed).toBe(true);
    expect((await call(guard, { credentialId })).error?.status).toBe(429);
    now.mockReturnValue(windowStart + 61_000);
    expect((await call(guard, { credentialId })).allowed).toBe(true);
  });

  it('does not count requests without a credential, nor anything when the limit is 0', async () => {
    const credentialId = `key_${randomUUID()}`;
    expect(await call(guardWith(1))).toEqual({ allowed: true, headers: {} });
    expect(await call(guardWith(1), {})).toEqual({ allowed: true, headers: {} });
    for (let i = 0; i < 3; i++) expect(await call(guardWith(0), { credentialId })).toEqual({ allowed: true, headers: {} });
    expect(await redis.keys(`ratelimit:${credentialId}:*`)).toEqual([]);
  });
});
