import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { BatchedWindowCounter } from './batched-window';

describe('BatchedWindowCounter (real Redis)', () => {
  let redis: Redis;
  const WINDOW_MS = 60_000;
  const now = 1_800_000_000_000;
  const window = Math.floor(now / WINDOW_MS);

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(() => redis.quit());

  const errors: unknown[] = [];
  const counter = (client: Redis = redis) => new BatchedWindowCounter(client, WINDOW_MS, (error) => errors.push(error));

  it('counts hits in memory at once, and adds them to the shared counter on flush', async () => {
    const key = `test:batched:${randomUUID()}`;
    const replica = counter();
    expect([1, 2, 3].map(() => replica.hit(key, now).used)).toEqual([1, 2, 3]);
    expect(await redis.get(`${key}:${window}`)).toBeNull();
    await replica.flush(now);
    expect(await redis.get(`${key}:${window}`)).toBe('3');
    expect(await redis.pttl(`${key}:${window}`)).toBeGreaterThan(WINDOW_MS);
    expect(replica.hit(key, now)).toEqual({ used: 4, resetMs: (window + 1) * WINDOW_MS - now });
    replica.stop();
  });

  it("sees the other replicas' hits once it has flushed", async () => {
    const key = `test:batched:${randomUUID()}`;
    const [a, b] = [counter(), counter()];
    for (let i = 0; i < 5; i++) a.hit(key, now);
    await a.flush(now);
    b.hit(key, now);
    await b.flush(now);
    expect(b.hit(key, now).used).toBe(7);
    [a, b].forEach((replica) => replica.stop());
  });

  it('starts again in the next window and forgets the ended one', async () => {
    const key = `test:batched:${randomUUID()}`;
    const replica = counter();
    replica.hit(key, now);
    replica.hit(key, now);
    expect(replica.hit(key, now + WINDOW_MS).used).toBe(1);
    await replica.flush(now + WINDOW_MS);
    expect(await redis.get(`${key}:${window}`)).toBeNull();
    expect(await redis.get(`${key}:${window + 1}`)).toBe('1');
    replica.stop();
  });

  it('keeps counting alone when Redis is unreachable, reporting the failed flush', async () => {
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    const key = `test:batched:${randomUUID()}`;
    const replica = counter(down);
    errors.length = 0;
    replica.hit(key, now);
    replica.hit(key, now);
    await replica.flush(now);
    expect(errors).toHaveLength(1);
    expect(replica.hit(key, now).used).toBe(3);
    replica.stop();
    down.disconnect();
  });
});
