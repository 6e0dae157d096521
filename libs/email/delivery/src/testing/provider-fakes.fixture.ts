import type { HostedProviderName } from '../providers/hosted/hosted-provider';
import type { DeliveryProviderSettings } from '../providers/provider-factory';
import { FAKE_SES_CREDENTIALS, FakeAmazonSes } from './fake-amazon-ses.fixture';
import { FAKE_BREVO_CREDENTIALS, FakeBrevo } from './fake-brevo.fixture';
import { FAKE_MAILGUN_CREDENTIALS, FakeMailgun } from './fake-mailgun.fixture';
import { FAKE_POSTMARK_CREDENTIALS, FakePostmark } from './fake-postmark.fixture';
import { FAKE_RESEND_CREDENTIALS, FakeResend } from './fake-resend.fixture';
import { FAKE_SENDGRID_CREDENTIALS, FakeSendgrid } from './fake-sendgrid.fixture';

export * from './fake-provider-server.fixture';
export * from './fake-amazon-ses.fixture';
export * from './fake-postmark.fixture';
export * from './fake-sendgrid.fixture';
export * from './fake-mailgun.fixture';
export * from './fake-resend.fixture';
export * from './fake-brevo.fixture';
export { readMime } from './mime-reader.fixture';
export { outgoingMessage } from './outgoing-message.fixture';

export interface ProviderFakes {
  'amazon-ses': FakeAmazonSes;
  postmark: FakePostmark;
  sendgrid: FakeSendgrid;
  mailgun: FakeMailgun;
  resend: FakeResend;
  brevo: FakeBrevo;
}

const FAKES: { [P in HostedProviderName]: () => ProviderFakes[P] } = {
  'amazon-ses': () => new FakeAmazonSes(),
  postmark: () => new FakePostmark(),
  sendgrid: () => new FakeSendgrid(),
  mailgun: () => new FakeMailgun(),
  resend: () => new FakeResend(),
  brevo: () => new FakeBrevo(),
};

/** A started fake of the provider's API on 127.0.0.1; pass its `baseUrl` as the provider's base URL. Stop it after. */
export function startFakeProvider<P extends HostedProviderName>(provider: P): Promise<ProviderFakes[P]> {
  return FAKES[provider]().start() as Promise<ProviderFakes[P]>;
}

/**
 * For a describe block: a fake started before all tests, reset (then `prepare`d) before each, stopped after all.
 * Returns its getter.
 */
export function useFakeProvider<P extends HostedProviderName>(provider: P, prepare?: (fake: ProviderFakes[P]) => void): () => ProviderFakes[P] {
  let fake: ProviderFakes[P] | undefined;
  beforeAll(async () => {
    fake = await startFakeProvider(provider);
  });
  afterAll(() => fake?.stop());
  beforeEach(() => {
    fake?.reset();
    if (fake) prepare?.(fake);
  });
  return () => {
    if (!fake) throw new Error(`the ${provider} fake is not started yet`);
    return fake;
  };
}

/**
 * Which credentials: `valid` (full access), `wrong` (refused), or `send_only` (may send, may not inspect the account:
 * SES, Mailgun and Resend have such keys; the others fall back to their full key).
 */
export type FakeCredentialKind = 'valid' | 'wrong' | 'send_only';

/** Settings the fakes know, keyed as the setup form and `createDeliveryProvider` name them. */
export function fakeProviderSettings(provider: HostedProviderName, kind: FakeCredentialKind = 'valid'): DeliveryProviderSettings {
  const pick = (valid: string, sendOnly = valid) => (kind === 'wrong' ? `${valid.slice(0, 8)}-wrong-0000` : kind === 'send_only' ? sendOnly : valid);
  switch (provider) {
    case 'amazon-ses': {
      const { region, accessKeyId, secretAccessKey, sendOnly } = FAKE_SES_CREDENTIALS;
      const sendOnlyKey = kind === 'send_only';
      return {
        config: { region, access_key_id: sendOnlyKey ? sendOnly.accessKeyId : accessKeyId },
        secrets: { secret_access_key: pick(secretAccessKey, sendOnly.secretAccessKey) },
      };
    }
    case 'postmark':
      return { config: { message_stream: null }, secrets: { server_token: pick(FAKE_POSTMARK_CREDENTIALS.serverToken) } };
    case 'sendgrid':
      return { config: {}, secrets: { api_key: pick(FAKE_SENDGRID_CREDENTIALS.apiKey) } };
    case 'mailgun':
      return {
        config: { domain: FAKE_MAILGUN_CREDENTIALS.domain },
        secrets: { api_key: pick(FAKE_MAILGUN_CREDENTIALS.apiKey, FAKE_MAILGUN_CREDENTIALS.sendingKey) },
      };
    case 'resend':
      return { config: {}, secrets: { api_key: pick(FAKE_RESEND_CREDENTIALS.apiKey, FAKE_RESEND_CREDENTIALS.sendingKey) } };
    case 'brevo':
      return { config: {}, secrets: { api_key: pick(FAKE_BREVO_CREDENTIALS.apiKey) } };
  }
}
