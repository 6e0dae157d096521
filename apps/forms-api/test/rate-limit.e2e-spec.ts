import { formsApi, FormsApiHarness } from './helpers';

describe('forms-api: per-key rate limit', () => {
  let api: FormsApiHarness;
  beforeAll(async () => {
    api = await formsApi({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => api?.close());

  it('answers 429 with Retry-After and the envelope past the limit, per key', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await api.as().get('/api/v1/me').expect(200);
      expect(ok.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await api.as().get('/api/v1/forms').expect(429);
    expect(limited.body).toEqual({ error: { type: 'invalid_request', code: 'rate_limited', message: expect.any(String) } });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another key of the same owner has its own budget.
    const other = await api.keyWith(api.main.ownerId, ['forms:read']);
    await api.as(other).get('/api/v1/forms').expect(200);
  });
});
