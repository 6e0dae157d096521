import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signingSecretPreview, WebhookSigner } from './signing';
import { MAX_ATTEMPTS, RETRY_STEPS, retryDelayMs } from './retry-schedule';

describe('webhook signing', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'subscriber.created', data: { subscriber: { id: 'sub_1' } } });

  it('signs so the reference standardwebhooks package verifies, and only with the same secret', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = new WebhookSigner(secret).headers('msg_1', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow();
  });

  it('keeps the id and carries the attempt time in seconds', () => {
    const headers = new WebhookSigner(newSigningSecret()).headers('msg_1', new Date('2026-01-02T03:04:05.678Z'), body);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Date.parse('2026-01-02T03:04:05Z') / 1000));
  });

  it('previews a secret by its last four characters only', () => {
    const secret = newSigningSecret();
    expect(signingSecretPreview(secret)).toBe(`whsec_…${secret.slice(-4)}`);
  });
});

describe('retry schedule', () => {
  it('waits longer after each failure, about a day in all, then gives up', () => {
    const unit = 60_000;
    const middle = () => 0.5;
    const waits = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, unit, middle)!);
    expect(waits).toEqual(RETRY_STEPS.map((step) => step * unit));
    const total = waits.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20 * 3_600_000);
    expect(total).toBeLessThan(26 * 3_600_000);
    expect(retryDelayMs(MAX_ATTEMPTS, unit)).toBeNull();
    expect(retryDelayMs(0, unit)).toBeNull();
  });

  it('spreads each wait by up to 20 % either way', () => {
    expect(retryDelayMs(1, 1000, () => 0)).toBe(800);
    expect(retryDelayMs(1, 1000, () => 0.999999)).toBe(1200);
  });
});
