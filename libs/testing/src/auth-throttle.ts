import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { uniqueQueuePrefix } from './databases';

/** The failed-auth limit the suite runs under, with its own Redis counters. */
export const failedAuthLimitEnv = () => ({
  AUTH_FAILURE_LIMIT: '5',
  AUTH_FAILURE_WINDOW_SECONDS: '60',
  AUTH_CACHE_TTL_MS: '60000',
  QUEUE_PREFIX: uniqueQueuePrefix(),
});

export interface AuthThrottleTarget {
  app: INestApplication;
  /** An authenticated GET that a working key may call. */
  read: string;
  /** A key that works. */
  key: string;
  /** The prefix of the service's keys, so bad tokens look real. */
  keyPrefix: string;
  /** Watches the repository method that looks a key up by its hash. */
  spyOnKeyLookups(): jest.SpyInstance;
  close(): Promise<void>;
}

/** The per-IP failed-authentication limit and the memory of refused credentials, for one service. */
export function describeFailedAuthLimit(service: string, boot: () => Promise<AuthThrottleTarget>): void {
  describe(`${service}: failed authentication is limited per IP`, () => {
    let target: AuthThrottleTarget;
    beforeAll(async () => {
      target = await boot();
    });
    afterAll(() => target?.close());

    const badToken = () => `${target.keyPrefix}${randomBytes(24).toString('base64url')}`;
    const from = (ip: string, token: string) =>
      request(target.app.getHttpServer()).get(target.read).set('x-forwarded-for', ip).set('authorization', `Bearer ${token}`);

    it('past the limit: 429 with Retry-After and the envelope; verified keys keep working, other addresses are not affected', async () => {
      await from('203.0.113.7', target.key).expect(200);
      for (let i = 0; i < 5; i++) await from('203.0.113.7', badToken()).expect(401);
      const limited = await from('203.0.113.7', badToken()).expect(429);
      expect(limited.body).toEqual({ error: { type: 'invalid_request', code: 'rate_limited', message: expect.any(String) } });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);

      await from('203.0.113.7', target.key).expect(200);
      await from('198.51.100.9', badToken()).expect(401);
    });

    it('an unknown credential repeated is refused from memory, not looked up each time', async () => {
      const lookups = target.spyOnKeyLookups();
      const token = badToken();
      for (let i = 0; i < 4; i++) {
        const res = await from('192.0.2.44', token).expect(401);
        expect(res.body.error.code).toBe('invalid_credential');
      }
      expect(lookups).toHaveBeenCalledTimes(1);
      lookups.mockRestore();
    });
  });
}
