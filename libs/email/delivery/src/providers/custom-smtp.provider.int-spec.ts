import { SmtpSink } from '@shared/testing';
import { CustomSmtpProvider, classifySmtpReply } from './custom-smtp.provider';
import { outgoingMessage as message } from '../testing/outgoing-message.fixture';

describe('CustomSmtpProvider against a local smtp-server', () => {
  const sink = new SmtpSink();
  const authSink = new SmtpSink({ user: 'postline', pass: 's3cret-pass' });
  let provider: CustomSmtpProvider;

  beforeAll(async () => {
    await sink.start();
    await authSink.start();
    provider = new CustomSmtpProvider({ host: '127.0.0.1', port: sink.port, secure_mode: 'none' });
  });

  afterAll(async () => {
    await sink.stop();
    await authSink.stop();
  });

  beforeEach(() => {
    sink.behaviour = {};
    sink.received.length = 0;
  });

  it('accepts a message, which arrives with a text + html alternative and the headers', async () => {
    const outcome = await provider.send(message());

    expect(outcome).toEqual({ kind: 'accepted', providerMessageId: expect.any(String) });
    expect(sink.received).toHaveLength(1);
    const [mail] = sink.received;
    expect(mail.from).toBe('news@postline.test');
    expect(mail.to).toEqual(['reader@postline.test']);
    expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative;/im);
    expect(mail.raw).toMatch(/^Content-Type: text\/plain/im);
    expect(mail.raw).toMatch(/^Content-Type: text\/html/im);
    expect(mail.raw.indexOf('Content-Type: text/plain')).toBeLessThan(mail.raw.indexOf('Content-Type: text/html'));
    expect(mail.raw).toContain('Hello reader');
    expect(mail.raw).toContain('<strong>reader</strong>');
    expect(mail.raw).toMatch(/^Message-ID: <msg_01@postline\.test>\r$/m);
    expect(mail.raw).toMatch(/^List-Unsubscribe: <https:\/\/postline\.test\/u\/abc123>\r$/m);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    expect(mail.raw).toMatch(/^From: Postline News <news@postline\.test>\r$/m);
    expect(mail.raw).toMatch(/^Subject: Hello there\r$/m);
  });

  it('classifies a 550 as permanent with the enhanced status code', async () => {
    sink.behaviour = { reject: { stage: 'rcpt', code: 550, text: '5.1.1 User unknown' } };
    expect(await provider.send(message())).toEqual({
      kind: 'permanent',
      reason: { code: '5.1.1', message: expect.stringContaining('User unknown'), providerStatus: 550 },
    });
    expect(sink.received).toHaveLength(0);
  });

  it('classifies a 550 after DATA as permanent', async () => {
    sink.behaviour = { reject: { stage: 'data', code: 554, text: '5.7.1 Message rejected as spam' } };
    expect(await provider.send(message())).toMatchObject({ kind: 'permanent', reason: { code: '5.7.1', providerStatus: 554 } });
  });

  it('classifies a 452 as transient', async () => {
    sink.behaviour = { reject: { stage: 'rcpt', code: 452, text: '4.2.2 Mailbox full' } };
    expect(await provider.send(message())).toMatchObject({ kind: 'transient', reason: { code: '4.2.2', providerStatus: 452 } });
  });

  it('classifies a 421 as transient', async () => {
    sink.behaviour = { reject: { stage: 'mail', code: 421, text: '4.3.2 Service not available, closing channel' } };
    expect(await provider.send(message())).toMatchObject({ kind: 'transient', reason: { code: '4.3.2', providerStatus: 421 } });
  });

  it("classifies SES's 454 throttling reply as throttled", async () => {
    sink.behaviour = { reject: { stage: 'data', code: 454, text: 'Throttling failure: Maximum sending rate exceeded.' } };
    const outcome = await provider.send(message());
    expect(outcome).toMatchObject({ kind: 'throttled', reason: { code: '454', providerStatus: 454 } });
    expect(outcome).not.toHaveProperty('retryAfterMs');
  });

  it('classifies a 4.7.0 rate-limit reply as throttled, with the retry-after it names', async () => {
    sink.behaviour = { reject: { stage: 'mail', code: 450, text: '4.7.0 Rate limit reached, try again in 30 seconds' } };
    expect(await provider.send(message())).toMatchObject({ kind: 'throttled', retryAfterMs: 30_000, reason: { code: '4.7.0' } });
  });

  it('is unknown when the server drops the connection after receiving the whole message', async () => {
    sink.behaviour = { afterData: 'destroy' };
    expect(await provider.send(message())).toMatchObject({ kind: 'unknown', reason: { code: 'connection_lost_after_handoff' } });
  });

  it('is unknown when the server never answers the message', async () => {
    sink.behaviour = { afterData: 'silence' };
    const impatient = new CustomSmtpProvider({ host: '127.0.0.1', port: sink.port, secure_mode: 'none' }, { socketTimeoutMs: 300 });
    expect(await impatient.send(message())).toMatchObject({ kind: 'unknown', reason: { code: 'timeout_after_handoff' } });
  });

  it('is transient when nothing listens on the port', async () => {
    const closed = new SmtpSink();
    await closed.start();
    const port = closed.port;
    await closed.stop();
    const nowhere = new CustomSmtpProvider({ host: '127.0.0.1', port, secure_mode: 'none' });
    expect(await nowhere.send(message())).toMatchObject({ kind: 'transient', reason: { code: 'connection_failed' } });
    expect(await nowhere.verify()).toMatchObject({ ok: false, kind: 'transient', reason: { code: 'connection_failed' } });
  });

  describe('pooled', () => {
    const openSockets = () => (sink as unknown as { sockets: Set<{ destroy(): void }> }).sockets;

    it('carries many messages over at most poolSize sessions', async () => {
      const pooled = new CustomSmtpProvider({ host: '127.0.0.1', port: sink.port, secure_mode: 'none' }, { poolSize: 2 });
      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => pooled.send({ ...message(), to: `reader${i}@postline.test` })));
      expect(outcomes.map((outcome) => outcome.kind)).toEqual(Array(12).fill('accepted'));
      expect(sink.received.map((mail) => mail.to[0]).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `reader${i}@postline.test`).sort());
      expect(openSockets().size).toBeLessThanOrEqual(2);
      pooled.close();
    });

    it('sends over a fresh session when the server closed an idle one, and reports a drop after hand-off as unknown', async () => {
      const pooled = new CustomSmtpProvider({ host: '127.0.0.1', port: sink.port, secure_mode: 'none' }, { poolSize: 1 });
      expect(await pooled.send(message())).toMatchObject({ kind: 'accepted' });
      for (const socket of openSockets()) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await pooled.send(message())).toMatchObject({ kind: 'accepted' });
      sink.behaviour = { afterData: 'destroy' };
      expect(await pooled.send(message())).toMatchObject({ kind: 'unknown', reason: { code: 'connection_lost_after_handoff' } });
      expect(sink.received).toHaveLength(2);
      pooled.close();
    });
  });

  it('sends with good credentials and refuses bad ones as permanent authentication_failed', async () => {
    const good = new CustomSmtpProvider({ host: '127.0.0.1', port: authSink.port, secure_mode: 'none', username: 'postline', password: 's3cret-pass' });
    const bad = new CustomSmtpProvider({ host: '127.0.0.1', port: authSink.port, secure_mode: 'none', username: 'postline', password: 'wrong' });

    expect(await good.send(message())).toMatchObject({ kind: 'accepted' });
    expect(authSink.received).toHaveLength(1);
    expect(await bad.send(message())).toMatchObject({ kind: 'permanent', reason: { code: 'authentication_failed', providerStatus: 535 } });
    expect(authSink.received).toHaveLength(1);
  });

  it('verifies a reachable server and good credentials, and fails bad credentials', async () => {
    expect(await provider.verify()).toEqual({ ok: true, inspection: 'available' });
    const good = new CustomSmtpProvider({ host: '127.0.0.1', port: authSink.port, secure_mode: 'none', username: 'postline', password: 's3cret-pass' });
    const bad = new CustomSmtpProvider({ host: 'localhost', port: authSink.port, secure_mode: 'none', username: 'postline', password: 'nope' });
    expect(await good.verify()).toEqual({ ok: true, inspection: 'available' });
    expect(await bad.verify()).toMatchObject({ ok: false, kind: 'permanent', reason: { code: 'authentication_failed' } });
    expect(authSink.received).toHaveLength(1);
  });

  it('fails starttls against a server that does not offer STARTTLS, before sending anything', async () => {
    const strict = new CustomSmtpProvider({ host: '127.0.0.1', port: sink.port, secure_mode: 'starttls' });
    expect(await strict.send(message())).toMatchObject({ kind: 'permanent' });
    expect(sink.received).toHaveLength(0);
  });
});

describe('CustomSmtpProvider loopback guard', () => {
  it('refuses non-loopback hosts unless explicitly allowed', () => {
    for (const host of ['smtp.example.com', '10.0.0.1', '192.168.1.5', '2001:db8::1', '128.0.0.1']) {
      expect(() => new CustomSmtpProvider({ host, port: 25, secure_mode: 'none' })).toThrow(/non-loopback/);
    }
    expect(() => new CustomSmtpProvider({ host: 'smtp.example.com', port: 25, secure_mode: 'tls' }, { allowNonLoopbackHosts: true })).not.toThrow();
  });

  it('refuses an unknown secure_mode', () => {
    expect(() => new CustomSmtpProvider({ host: '127.0.0.1', port: 25, secure_mode: 'ssl' as never })).toThrow(/secure_mode/);
  });
});

describe('classifySmtpReply', () => {
  it('sorts replies into transient, throttled and permanent', () => {
    expect(classifySmtpReply(451, '451 4.3.0 Local error').kind).toBe('transient');
    expect(classifySmtpReply(450, '450 4.2.1 Mailbox busy').kind).toBe('transient');
    expect(classifySmtpReply(421, '421 4.7.0 Too many connections, slow down')).toMatchObject({ kind: 'throttled', reason: { code: '4.7.0' } });
    expect(classifySmtpReply(451, '451 4.7.1 Sending rate exceeded, retry after 2 minutes')).toMatchObject({ kind: 'throttled', retryAfterMs: 120_000 });
    expect(classifySmtpReply(552, '552 5.3.4 Message too big')).toEqual({
      kind: 'permanent',
      reason: { code: '5.3.4', message: '552 5.3.4 Message too big', providerStatus: 552 },
    });
  });
});
