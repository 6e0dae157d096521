import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { fakeProviderSettings, FakeCredentialKind, FakeProviderServer, startFakeProvider } from '../../testing/provider-fakes.fixture';
import { outgoingMessage } from '../../testing/outgoing-message.fixture';
import type { DeliveryProvider, OutgoingMessage } from '../delivery-provider';
import { createDeliveryProvider } from '../provider-factory';
import type { HostedProviderName } from './hosted-provider';

const message = (overrides: Partial<OutgoingMessage> = {}) => outgoingMessage({ metadata: { broadcast_id: 'brd_01J9ZX' }, ...overrides });

/** What differs between the providers: whether they batch, give a wait hint on 429, their code for a refused recipient, and send-only keys. */
const PROVIDERS: Record<HostedProviderName, { batch: boolean; waitHint: boolean; refusedCode: string; sendOnlyKeys: boolean }> = {
  'amazon-ses': { batch: false, waitHint: false, refusedCode: 'MessageRejected', sendOnlyKeys: true },
  postmark: { batch: true, waitHint: false, refusedCode: '406', sendOnlyKeys: false },
  sendgrid: { batch: true, waitHint: true, refusedCode: 'http_400', sendOnlyKeys: false },
  mailgun: { batch: false, waitHint: true, refusedCode: 'http_400', sendOnlyKeys: true },
  resend: { batch: true, waitHint: true, refusedCode: 'validation_error', sendOnlyKeys: true },
  brevo: { batch: false, waitHint: true, refusedCode: 'invalid_parameter', sendOnlyKeys: false },
};

const headerNamed = (headers: Record<string, string>, name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

const secretsOf = (name: HostedProviderName, kind: FakeCredentialKind) => Object.values(fakeProviderSettings(name, kind).secrets);

describe.each(Object.keys(PROVIDERS) as HostedProviderName[])('%s against its fake', (name) => {
  const expected = PROVIDERS[name];
  let fake: FakeProviderServer;
  // Long enough that a loaded machine still hands the request off before it runs out (else the outcome is transient).
  const HANG_TIMEOUT_MS = 1_000;
  const provider = (kind: FakeCredentialKind = 'valid', timeoutMs = 2_000, baseUrl = fake.baseUrl): DeliveryProvider =>
    createDeliveryProvider(name, fakeProviderSettings(name, kind), { baseUrls: { [name]: baseUrl }, allowNonLoopbackHosts: false, timeoutMs });

  beforeAll(async () => {
    fake = await startFakeProvider(name);
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('accepts a message: the provider id comes back, and the recipient, bodies, our Message-ID, the extra headers and the metadata arrive', async () => {
    const outcome = await provider().send(message());

    expect(fake.accepted).toHaveLength(1);
    const [sent] = fake.accepted;
    expect(outcome).toEqual({ kind: 'accepted', providerMessageId: sent.providerMessageId });
    expect(sent).toMatchObject({ to: 'reader@postline.test', subject: 'Hello there', html: '<p>Hello <strong>reader</strong></p>', text: 'Hello reader' });
    expect(sent.from).toContain('news@postline.test');
    expect(sent.from).toContain('Postline News');
    expect(headerNamed(sent.headers, 'Message-ID')).toBe('<msg_01@postline.test>');
    expect(headerNamed(sent.headers, 'List-Unsubscribe')).toBe('<https://postline.test/u/abc123>');
    expect(headerNamed(sent.headers, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(sent.metadata).toEqual({ broadcast_id: 'brd_01J9ZX' });
  });

  it('is throttled when the provider rate limits, with the wait it asks for when it names one', async () => {
    fake.mode = 'throttle';
    fake.retryAfterSeconds = 3;
    const outcome = await provider().send(message());

    expect(outcome.kind).toBe('throttled');
    if (outcome.kind !== 'throttled') return;
    if (expected.waitHint) {
      expect(outcome.retryAfterMs).toBeGreaterThan(1_000);
      expect(outcome.retryAfterMs).toBeLessThanOrEqual(3_000);
    } else {
      expect(outcome).not.toHaveProperty('retryAfterMs');
    }
    expect(fake.accepted).toHaveLength(0);
  });

  it('is permanent when the provider refuses the recipient, with its code and words', async () => {
    fake.refusedRecipients.add('gone@postline.test');
    const outcome = await provider().send(message({ to: 'gone@postline.test' }));

    expect(outcome).toMatchObject({ kind: 'permanent', reason: { code: expected.refusedCode, message: expect.any(String) } });
    expect(fake.accepted).toHaveLength(0);
  });

  it('is transient when the provider fails with a 5xx', async () => {
    fake.mode = 'server_error';
    expect(await provider().send(message())).toMatchObject({ kind: 'transient', reason: { providerStatus: expect.any(Number) } });
  });

  it('is unknown, never transient, when the provider takes the request and never answers', async () => {
    fake.mode = 'hang';
    const outcome = await provider('valid', HANG_TIMEOUT_MS).send(message());

    expect(outcome).toMatchObject({ kind: 'unknown', reason: { code: 'timeout_after_handoff' } });
    expect(fake.requests).toHaveLength(1);
  });

  it('is unknown when the connection drops after the whole request was sent', async () => {
    fake.mode = 'drop';
    expect(await provider().send(message())).toMatchObject({ kind: 'unknown', reason: { code: 'connection_lost_after_handoff' } });
  });

  it('is transient, and verify too, when nothing listens at the base URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = provider('valid', 2_000, `http://127.0.0.1:${port}`);

    expect(await nowhere.send(message())).toMatchObject({ kind: 'transient', reason: { code: 'connection_failed' } });
    expect(await nowhere.verify()).toMatchObject({ ok: false, kind: 'transient', reason: { code: 'connection_failed' } });
  });

  it('refuses bad credentials as permanent authentication_failed, on send and verify, and never repeats the key', async () => {
    fake.echoCredentials = true;
    const refused = provider('wrong');
    const outcome = await refused.send(message());
    const verified = await refused.verify();

    expect(outcome).toMatchObject({ kind: 'permanent', reason: { code: 'authentication_failed' } });
    expect(verified).toMatchObject({ ok: false, kind: 'permanent', reason: { code: 'authentication_failed' } });
    const reported = JSON.stringify([outcome, verified]);
    for (const secret of secretsOf(name, 'wrong')) expect(reported).not.toContain(secret);
    expect(fake.accepted).toHaveLength(0);
  });

  it('verifies good credentials without sending anything', async () => {
    expect(await provider().verify()).toEqual({ ok: true, inspection: 'available' });
    expect(fake.accepted).toHaveLength(0);
  });

  it('verify is transient when the provider throttles or never answers', async () => {
    fake.mode = 'throttle';
    expect(await provider().verify()).toMatchObject({ ok: false, kind: 'transient' });
    fake.mode = 'hang';
    expect(await provider('valid', HANG_TIMEOUT_MS).verify()).toMatchObject({ ok: false, kind: 'transient', reason: { code: 'timeout_after_handoff' } });
  });

  if (expected.sendOnlyKeys) {
    it('tells a send-only key (which cannot inspect the account) from a bad one, and it sends', async () => {
      const sendOnly = provider('send_only');
      expect(await sendOnly.verify()).toEqual({ ok: true, inspection: 'unavailable' });
      expect(await sendOnly.send(message())).toMatchObject({ kind: 'accepted' });
    });
  }

  if (expected.batch) {
    it('sends a batch: one outcome per message, in order, a refused recipient refused alone', async () => {
      fake.refusedRecipients.add('gone@postline.test');
      const batch = ['a@postline.test', 'gone@postline.test', 'c@postline.test'].map((to, index) =>
        message({ to, messageId: `msg_${index}@postline.test`, html: `<p>Hello ${to}</p>` }),
      );
      const outcomes = await provider().sendBatch!(batch);

      expect(outcomes.map((outcome) => outcome.kind)).toEqual(['accepted', 'permanent', 'accepted']);
      expect(fake.accepted.map((sent) => sent.to)).toEqual(['a@postline.test', 'c@postline.test']);
      expect(fake.accepted.map((sent) => headerNamed(sent.headers, 'Message-ID'))).toEqual(['<msg_0@postline.test>', '<msg_2@postline.test>']);
      expect(outcomes[0]).toEqual({ kind: 'accepted', providerMessageId: fake.accepted[0].providerMessageId });
      expect(outcomes[2]).toEqual({ kind: 'accepted', providerMessageId: fake.accepted[1].providerMessageId });
    });
  }

  if (expected.batch) {
    it('gives every message of a batch the same unknown outcome when the provider never answers', async () => {
      fake.mode = 'hang';
      const outcomes = await provider('valid', HANG_TIMEOUT_MS).sendBatch!([message({ to: 'a@postline.test' }), message({ to: 'b@postline.test' })]);
      expect(outcomes).toEqual([expect.objectContaining({ kind: 'unknown' }), expect.objectContaining({ kind: 'unknown' })]);
    });
  }

  it('refuses, before any request, a line break in a header and a recipient that is not one bare address', async () => {
    const injected = await provider().send(message({ headers: { 'List-Unsubscribe': '<https://x.test>\r\nBcc: victim@postline.test' } }));
    const listed = await provider().send(message({ to: 'reader@postline.test, other@postline.test' }));
    expect([injected, listed]).toEqual([
      expect.objectContaining({ kind: 'permanent', reason: expect.objectContaining({ code: 'invalid_message' }) }),
      expect.objectContaining({ kind: 'permanent', reason: expect.objectContaining({ code: 'invalid_message' }) }),
    ]);
    expect(fake.requests).toHaveLength(0);
  });
});
