import { WebhookReceiver } from '@shared/testing';
import { SafeWebhookClient } from './safe-client';

describe('SafeWebhookClient against real loopback receivers', () => {
  const receivers: WebhookReceiver[] = [];
  const clients: SafeWebhookClient[] = [];
  const start = async (options: Parameters<typeof WebhookReceiver.start>[0] = {}) => {
    const receiver = await WebhookReceiver.start(options);
    receivers.push(receiver);
    return receiver;
  };
  const client = (options: Partial<ConstructorParameters<typeof SafeWebhookClient>[0]> = {}) => {
    const made = new SafeWebhookClient({ allowLoopback: true, allowPublic: true, timeoutMs: 10_000, ...options });
    clients.push(made);
    return made;
  };
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' };

  afterAll(async () => {
    for (const made of clients) made.close();
    for (const receiver of receivers) await receiver.stop();
  });

  it('posts over HTTPS to the checked address with the URL host, and reports a 2xx as delivered', async () => {
    const receiver = await start({ tls: true });
    const result = await client({ ca: receiver.ca }).post(receiver.url('/in?x=1', 'localhost'), headers, '{"a":1}');
    expect(result).toEqual({ ok: true, status: 204, error: null });
    expect(receiver.received[0]).toMatchObject({ path: '/in?x=1', body: '{"a":1}' });
    expect(receiver.received[0].headers).toMatchObject({ host: `localhost:${receiver.port}`, 'webhook-id': 'msg_1', 'content-type': 'application/json' });
  });

  it('refuses loopback receivers unless allowed, without connecting', async () => {
    const receiver = await start();
    const result = await client({ allowLoopback: false }).post(receiver.url(), headers, '{}');
    expect(result).toMatchObject({ ok: false, status: null, error: expect.stringContaining('https') });
    const https = await start({ tls: true });
    expect((await client({ allowLoopback: false, ca: https.ca }).post(https.url(), headers, '{}')).error).toContain('loopback');
    expect(receiver.received).toHaveLength(0);
    expect(https.received).toHaveLength(0);
  });

  it('outside production refuses any host but loopback without looking it up or connecting', async () => {
    let lookups = 0;
    const resolve = async () => (lookups++, ['127.0.0.1']);
    const result = await client({ allowPublic: false, resolve }).post('https://hooks.example.com/x', headers, '{}');
    expect(result).toMatchObject({ ok: false, status: null, error: expect.stringContaining('only to loopback addresses') });
    expect(lookups).toBe(0);
    const receiver = await start();
    expect((await client({ allowPublic: false }).post(receiver.url(), headers, '{}')).ok).toBe(true);
  });

  it('refuses a host name that resolves to a private address', async () => {
    const result = await client({ resolve: async () => ['10.0.0.7'] }).post('https://hooks.example.com/x', headers, '{}');
    expect(result.error).toContain('10.0.0.7, a private-network address');
  });

  it('connects to the address it checked even when the DNS answer changes afterwards', async () => {
    const receiver = await start({ tls: true });
    const answers = [['127.0.0.1'], ['169.254.169.254']];
    let lookups = 0;
    const resolve = async () => answers[Math.min(lookups++, 1)];
    const result = await client({ ca: receiver.ca, resolve }).post(receiver.url('/hook', 'localhost'), headers, '{}');
    expect(result.ok).toBe(true);
    expect(lookups).toBe(1);
    expect(receiver.received).toHaveLength(1);
  });

  it('does not follow a redirect to a private address', async () => {
    const inside = await start();
    const outside = await start({ answer: () => ({ status: 302, headers: { location: inside.url('/admin') } }) });
    const result = await client().post(outside.url(), headers, '{}');
    expect(result).toEqual({ ok: false, status: 302, error: expect.stringContaining('redirect, which is not followed') });
    expect(inside.received).toHaveLength(0);
  });

  it('reports a non-2xx answer, a refused connection and a receiver too slow to answer', async () => {
    const failing = await start({ answer: () => ({ status: 500 }) });
    expect(await client().post(failing.url(), headers, '{}')).toEqual({ ok: false, status: 500, error: 'The receiver answered 500.' });
    const closed = await start();
    const url = closed.url();
    await closed.stop();
    receivers.splice(receivers.indexOf(closed), 1);
    expect((await client().post(url, headers, '{}')).error).toContain('ECONNREFUSED');
    const slow = await start({ answer: () => ({ status: 200, delayMs: 5000 }) });
    expect((await client({ timeoutMs: 300 }).post(slow.url(), headers, '{}')).error).toMatch(/No answer within \d+ ms/);
  });

  it('refuses a TLS certificate it does not trust', async () => {
    const receiver = await start({ tls: true });
    expect((await client().post(receiver.url(), headers, '{}')).error).toContain('connection failed');
  });
});
