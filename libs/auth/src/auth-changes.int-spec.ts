import { Redis } from 'ioredis';
import { AppConfig } from '@shared/config';
import { uniqueQueuePrefix } from '@shared/testing';
import { AuthChange, AuthChangeBus, AuthRedis } from './auth-changes';

/** Waits up to two seconds for `done`. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('AuthChangeBus (real Redis)', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  let raw: Redis;
  const opened: { bus: AuthChangeBus; redis: AuthRedis }[] = [];

  /** One replica's bus; `checkMs` is how often it re-reads the epochs. */
  function replica(queuePrefix: string, checkMs = 60_000) {
    const config = { redisUrl, queuePrefix, authChangeCheckMs: checkMs } as AppConfig;
    const redis = new AuthRedis(config);
    const bus = new AuthChangeBus(config, redis);
    opened.push({ bus, redis });
    return bus;
  }

  function listen(bus: AuthChangeBus, service: 'email' | 'forms') {
    const seen: (AuthChange | null)[] = [];
    bus.listen(service, (change) => seen.push(change));
    return seen;
  }

  beforeAll(() => {
    raw = new Redis(redisUrl);
  });

  afterAll(async () => {
    for (const { bus, redis } of opened) {
      await bus.onModuleDestroy();
      await redis.onModuleDestroy();
    }
    await raw.quit();
  });

  it('delivers a published change to every replica listening to that service, and to no other service', async () => {
    const prefix = uniqueQueuePrefix();
    const publisher = replica(prefix);
    const [one, two] = [replica(prefix), replica(prefix)];
    const emailOne = listen(one, 'email');
    const emailTwo = listen(two, 'email');
    const formsTwo = listen(two, 'forms');
    // The first epoch read (nothing cached yet) forgets everything once.
    await until(() => emailOne.length > 0 && emailTwo.length > 0);
    await settle();
    emailOne.length = emailTwo.length = formsTwo.length = 0;

    await publisher.publish('email', { kind: 'credential', id: 'key_1' });
    await until(() => emailOne.length > 0 && emailTwo.length > 0);
    await settle();
    expect(emailOne).toEqual([{ kind: 'credential', id: 'key_1' }]);
    expect(emailTwo).toEqual([{ kind: 'credential', id: 'key_1' }]);
    expect(formsTwo).toEqual([]);
    expect(await raw.get(`${prefix}:auth-epoch:email`)).toBe('1');
  });

  it('forgets everything when an epoch moved without a message (a change was missed)', async () => {
    const prefix = uniqueQueuePrefix();
    const bus = replica(prefix, 50);
    const seen = listen(bus, 'email');
    await until(() => seen.length > 0);
    await settle();
    seen.length = 0;

    // Messages received in order keep the epoch in step: no forget-everything follows them. (A check that reads the
    // epoch between its increment and the message's arrival forgets everything first, which is harmless.)
    await bus.publish('email', { kind: 'owner', id: 'usr_1' });
    await until(() => seen.some((change) => change !== null));
    await settle();
    expect(seen.slice(seen.findIndex((change) => change !== null))).toEqual([{ kind: 'owner', id: 'usr_1' }]);

    seen.length = 0;
    await raw.incr(`${prefix}:auth-epoch:email`);
    await until(() => seen.length > 0);
    expect(seen[0]).toBeNull();
  });

  it('treats an unreadable or incomplete message as "something changed"', async () => {
    const prefix = uniqueQueuePrefix();
    const bus = replica(prefix);
    const seen = listen(bus, 'forms');
    await until(() => seen.length > 0);
    await settle();
    seen.length = 0;
    const channel = `${prefix}:auth-changes:forms`;
    for (const message of ['not json', '{"kind":"credential","id":"k"}', '{"kind":"admin","id":"k","epoch":1}', '{"kind":"owner","id":5,"epoch":1}']) {
      await raw.publish(channel, message);
    }
    await until(() => seen.length === 4);
    expect(seen).toEqual([null, null, null, null]);
  });

  it('still calls every listener of a service, added before or after the first', async () => {
    const prefix = uniqueQueuePrefix();
    const bus = replica(prefix);
    const first = listen(bus, 'email');
    const second = listen(bus, 'email');
    await until(() => first.length > 0);
    await settle();
    first.length = second.length = 0;
    await bus.publish('email', { kind: 'credential', id: 'key_9' });
    await until(() => first.length > 0 && second.length > 0);
    expect([first, second]).toEqual([[{ kind: 'credential', id: 'key_9' }], [{ kind: 'credential', id: 'key_9' }]]);
  });
});
