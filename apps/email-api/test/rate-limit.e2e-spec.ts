import { emailApi, EmailApiHarness } from './helpers';

describe('email-api: per-credential rate limit', () => {
  let h: EmailApiHarness;
  beforeAll(async () => {
    h = await emailApi({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => h?.close());

  it('answers 429 with Retry-After and the envelope past the limit, per credential', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await h.as().get('/v1/workspace').expect(200);
      expect(ok.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await h.as().get('/v1/workspace').expect(429);
    expect(limited.body).toEqual({ error: { type: 'invalid_request', code: 'rate_limited', message: expect.any(String) } });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const other = await h.keyWith(['workspace:read']);
    await h.as(other).get('/v1/workspace').expect(200);
    await h.as().get('/v1').expect(200);
  });
});
