import { PROVIDER_DESCRIPTIONS } from '../providers/provider-settings';
import { publicConfig } from './connection-mapping';
import { readEnteredSettings } from './entered-settings';

describe('what a person enters on the setup page', () => {
  const smtp = PROVIDER_DESCRIPTIONS['custom-smtp'];

  it('splits public values from secrets, trims pasted values and reads the port as a number', () => {
    const read = readEnteredSettings(smtp, {
      host: ' smtp.example.com ',
      port: '587',
      secure_mode: 'starttls',
      username: 'me',
      password: ' pw ',
      extra: 'ignored',
    });
    expect(read).toEqual({ config: { host: 'smtp.example.com', port: 587, secure_mode: 'starttls', username: 'me' }, secrets: { password: 'pw' }, errors: {} });
  });

  it('names every setting that is missing or malformed, in words for a person', () => {
    const { errors } = readEnteredSettings(smtp, { host: 'smtp://x.test:25', port: '70000', secure_mode: 'ssl', username: 'a\u0007b' });
    expect(errors).toEqual({
      host: 'Enter the host name only, without a scheme, port or path.',
      port: 'Port must be a whole number from 1 to 65535.',
      secure_mode: 'Security must be one of starttls, tls, none.',
      username: 'Username contains control characters.',
    });
    expect(readEnteredSettings(PROVIDER_DESCRIPTIONS.resend, {}).errors).toEqual({ api_key: 'API key is required.' });
    expect(readEnteredSettings(PROVIDER_DESCRIPTIONS.resend, { api_key: ['a', 'b'] }).errors).toEqual({ api_key: 'API key is required.' });
  });

  it('shows only has_* for secrets, and nothing at all for a webhook signing key', () => {
    const entered = readEnteredSettings(PROVIDER_DESCRIPTIONS.mailgun, {
      api_key: 'key-1',
      domain: 'mg.example.com',
      region: 'eu',
      webhook_signing_key: 'whk',
    });
    expect(entered.secrets).toEqual({ api_key: 'key-1', webhook_signing_key: 'whk' });
    expect(publicConfig('mailgun', entered)).toEqual({ has_api_key: true, domain: 'mg.example.com', region: 'eu' });
    expect(publicConfig('postmark', readEnteredSettings(PROVIDER_DESCRIPTIONS.postmark, { server_token: 't' }))).toEqual({
      has_server_token: true,
      has_account_token: false,
    });
  });
});
