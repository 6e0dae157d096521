import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AccountsRepository } from '@forms/accounts';
import { uniqueQueuePrefix } from '@shared/testing';
import { formsApi, FormsApiHarness } from './helpers';

const badToken = () => `fsk_${randomBytes(24).toString('base64url')}`;

describe('forms-api: failed authentication is limited per IP', () => {
  let api: FormsApiHarness;
  beforeAll(async () => {
    api = await formsApi({ AUTH_FAILURE_LIMIT: '5', AUTH_FAILURE_WINDOW_SECONDS: '60', AUTH_CACHE_TTL_MS: '60000', QUEUE_PREFIX: uniqueQueuePrefix() });
  });
  afterAll(() => api?.close());

  const from = (ip: string, token: string) =>
    request(api.app.getHttpServer()).get('/api/v1/me').set('x-forwarded-for', ip).set('authorization', `Bearer ${token}`);

  it('past the limit: 429 with Retry-After and the envelope; verified keys keep working, other addresses are not affected', async () => {
    await from('203.0.113.7', api.main.key).expect(200);
    for (let i = 0; i < 5; i++) await from('203.0.113.7', badToken()).expect(401);
    const limited = await from('203.0.113.7', badToken()).expect(429);
    expect(limited.body).toEqual({ error: { type: 'invalid_request', code: 'rate_limited', message: expect.any(String) } });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    await from('203.0.113.7', api.main.key).expect(200);
    await from('198.51.100.9', badToken()).expect(401);
  });

  it('an unknown credential repeated is refused from memory, not looked up each time', async () => {
    const lookups = jest.spyOn(api.app.get(AccountsRepository), 'findKeyByHash');
    const token = badToken();
    for (let i = 0; i < 4; i++) {
      const res = await from('192.0.2.44', token).expect(401);
      expect(res.body.error.code).toBe('invalid_credential');
    }
    expect(lookups).toHaveBeenCalledTimes(1);
    lookups.mockRestore();
  });
});
