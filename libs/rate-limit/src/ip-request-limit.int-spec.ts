import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DomainError } from '@shared/errors';
import { IpRequestLimit } from './ip-request-limit';

describe('IpRequestLimit (real Redis)', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(() => redis.quit());

  const limitOf = (perIp: number) => new IpRequestLimit(redis, `test:ip-limit:${randomUUID()}`, perIp, 60_000);

  it('refuses an address past its count with 429 and Retry-After, and counts other addresses apart', async () => {
    const limit = limitOf(2);
    expect([await limit.attempt('203.0.113.7'), await limit.attempt('203.0.113.7')]).toEqual([null, null]);
    const refused = await limit.consume('203.0.113.7').catch((error: DomainError) => error);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number((refused as DomainError).headers['retry-after'])).toBeGreaterThan(0);
    expect(await limit.attempt('203.0.113.8')).toBeNull();
    expect(await limit.attempt('::ffff:203.0.113.7')).not.toBeNull(); // the same IPv4 client, written as IPv6
  });

  it('counts an IPv6 client by its /64, so drawing a fresh address from it does not reset the count', async () => {
    const limit = limitOf(2);
    expect(await limit.attempt('2001:db8:aa:1::1')).toBeNull();
    expect(await limit.attempt('2001:db8:aa:1:ffff::2')).toBeNull();
    expect(await limit.attempt('2001:0db8:00aa:0001::3')).not.toBeNull();
    expect(await limit.attempt('2001:db8:aa:2::1')).toBeNull();
  });

  it('counts nothing with a limit of 0', async () => {
    const limit = limitOf(0);
    for (let i = 0; i < 3; i++) expect(await limit.attempt('203.0.113.9')).toBeNull();
  });
});
