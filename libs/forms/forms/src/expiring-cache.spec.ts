import { ExpiringCache } from './expiring-cache';

describe('ExpiringCache', () => {
  it('shares one load per key until it expires', async () => {
    const cache = new ExpiringCache<number>(60_000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    expect(await cache.get('b', load)).toBe(2);
    cache.delete('a');
    expect(await cache.get('a', load)).toBe(3);
  });

  it('forgets failed loads, loads every time with a TTL of 0, and evicts the oldest entry when full', async () => {
    const failing = new ExpiringCache<number>(60_000);
    await expect(failing.get('x', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await failing.get('x', async () => 7)).toBe(7);

    let loads = 0;
    const off = new ExpiringCache<number>(0);
    await off.get('k', async () => ++loads);
    await off.get('k', async () => ++loads);
    expect(loads).toBe(2);

    const small = new ExpiringCache<string>(60_000, 2);
    await small.get('1', async () => 'one');
    await small.get('2', async () => 'two');
    await small.get('3', async () => 'three');
    expect(await small.get('1', async () => 'reloaded')).toBe('reloaded');
    expect(await small.get('3', async () => 'reloaded')).toBe('three');
  });
});
