import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies defaults for a bare development environment', () => {
    const config = loadConfig({}, { port: 3100 });
    expect(config.port).toBe(3100);
    expect(config.emailDatabaseUrl).toBe('postgresql://postgres@127.0.0.1:5432/email');
    expect(config.publicBaseUrl).toBe('http://127.0.0.1:3000');
  });

  it('strips trailing slashes from public URLs', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://mail.example.com/' }).publicBaseUrl).toBe('https://mail.example.com');
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', REDIS_URL: 'http://x', NODE_ENV: 'production' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('PORT');
    expect(problems).toContain('REDIS_URL');
    expect(problems).toContain('CURSOR_SECRET is required in production');
  });

  it('refuses to start in production without real secrets, and accepts generated ones', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig({ NODE_ENV: 'production', ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problemsOf({})).toEqual(['CURSOR_SECRET is required in production', 'ENCRYPTION_KEY is required in production']);
    expect(problemsOf({ CURSOR_SECRET: 'short', ENCRYPTION_KEY: 'k'.repeat(43) })).toEqual(['CURSOR_SECRET must be at least 32 characters']);
    const devDefault = loadConfig({ NODE_ENV: 'test' }).cursorSecret;
    expect(problemsOf({ CURSOR_SECRET: devDefault, ENCRYPTION_KEY: devDefault })).toHaveLength(2);
    const generated = { CURSOR_SECRET: 'c'.repeat(43), ENCRYPTION_KEY: 'e'.repeat(43) };
    expect(loadConfig({ NODE_ENV: 'production', ...generated }).cursorSecret).toBe(generated.CURSOR_SECRET);
  });

  it('reads the retired encryption keys of a rotation, each as long as a current key', () => {
    expect(loadConfig({}).encryptionKeysRetired).toEqual([]);
    expect(loadConfig({ ENCRYPTION_KEYS_RETIRED: ` ${'a'.repeat(32)} ,${'b'.repeat(40)},` }).encryptionKeysRetired).toEqual(['a'.repeat(32), 'b'.repeat(40)]);
    expect(() => loadConfig({ ENCRYPTION_KEYS_RETIRED: `${'a'.repeat(32)},short` })).toThrow(
      /ENCRYPTION_KEYS_RETIRED must list keys of at least 32 characters/,
    );
  });

  it('keeps the development secret for tests and development, so they need no setup', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).cursorSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({}).encryptionKey.length).toBeGreaterThanOrEqual(32);
  });

  it('bounds request timeouts and dependency timeouts with safe defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ httpHeadersTimeoutMs: 10_000, httpRequestTimeoutMs: 60_000, redisCommandTimeoutMs: 2000, databaseConnectTimeoutMs: 5000 });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' })).toThrow('HTTP_HEADERS_TIMEOUT_MS must not exceed');
  });

  it('believes X-Forwarded-For only from the proxies TRUST_PROXY names (a local one by default), never from anyone', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, uniquelocal' }).trustProxy).toBe('10.0.0.0/8,uniquelocal');
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow('TRUST_PROXY must be false, a hop count');
    expect(() => loadConfig({ TRUST_PROXY: '*' })).toThrow('TRUST_PROXY');
  });

  it('binds loopback unless HOST opens it up, and refuses an address it could not bind', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '' }).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'production', CURSOR_SECRET: 'c'.repeat(32), ENCRYPTION_KEY: 'e'.repeat(32) }).host).toBe('127.0.0.1');
    for (const host of ['0.0.0.0', '::', '::1', '10.1.2.3', 'localhost', 'email-api.postline.svc']) expect(loadConfig({ HOST: host }).host).toBe(host);
    for (const host of ['0.0.0.0:3000', 'http://0.0.0.0', 'two words', '-bad']) expect(() => loadConfig({ HOST: host })).toThrow('HOST must be an IP address');
  });

  it('writes request lines at debug in development and at info elsewhere, unless ACCESS_LOG_LEVEL says otherwise', () => {
    expect(loadConfig({}).accessLogLevel).toBe('debug');
    expect(loadConfig({ NODE_ENV: 'test' }).accessLogLevel).toBe('info');
    expect(loadConfig({ NODE_ENV: 'production', CURSOR_SECRET: 'c'.repeat(32), ENCRYPTION_KEY: 'e'.repeat(32) }).accessLogLevel).toBe('info');
    expect(loadConfig({ ACCESS_LOG_LEVEL: 'info' }).accessLogLevel).toBe('info');
    expect(() => loadConfig({ ACCESS_LOG_LEVEL: 'off' })).toThrow('ACCESS_LOG_LEVEL must be one of info, debug');
  });

  it('keeps outbound connections on loopback except in production, unless ALLOW_NON_LOOPBACK_HOSTS says otherwise', () => {
    const production = { NODE_ENV: 'production', CURSOR_SECRET: 'c'.repeat(32), ENCRYPTION_KEY: 'e'.repeat(32) };
    expect(loadConfig({}).allowNonLoopbackHosts).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).allowNonLoopbackHosts).toBe(false);
    expect(loadConfig(production).allowNonLoopbackHosts).toBe(true);
    expect(loadConfig({ ...production, ALLOW_NON_LOOPBACK_HOSTS: 'false' }).allowNonLoopbackHosts).toBe(false);
    expect(loadConfig({ ALLOW_NON_LOOPBACK_HOSTS: 'true' }).allowNonLoopbackHosts).toBe(true);
    expect(loadConfig({ ALLOW_NON_LOOPBACK_HOSTS: '1' }).allowNonLoopbackHosts).toBe(true);
    expect(() => loadConfig({ ALLOW_NON_LOOPBACK_HOSTS: 'yes' })).toThrow('ALLOW_NON_LOOPBACK_HOSTS must be true or false');
  });

  it('reads a base URL override per hosted delivery provider, and the provider request timeout', () => {
    expect(loadConfig({}).deliveryProviderBaseUrls).toEqual({});
    const config = loadConfig({ DELIVERY_BASE_URL_POSTMARK: 'http://127.0.0.1:4001/', DELIVERY_BASE_URL_AMAZON_SES: 'http://localhost:4002/ses' });
    expect(config.deliveryProviderBaseUrls).toEqual({ postmark: 'http://127.0.0.1:4001', 'amazon-ses': 'http://localhost:4002/ses' });
    expect(() => loadConfig({ DELIVERY_BASE_URL_RESEND: 'ftp://127.0.0.1' })).toThrow('DELIVERY_BASE_URL_RESEND must use http: or https:');
    expect(() => loadConfig({ DELIVERY_BASE_URL_BREVO: 'not a url' })).toThrow('DELIVERY_BASE_URL_BREVO must be a URL');
    expect(loadConfig({}).deliveryProviderTimeoutMs).toBe(15_000);
    expect(loadConfig({ DELIVERY_PROVIDER_TIMEOUT_MS: '500' }).deliveryProviderTimeoutMs).toBe(500);
    expect(() => loadConfig({ DELIVERY_PROVIDER_TIMEOUT_MS: '10' })).toThrow('DELIVERY_PROVIDER_TIMEOUT_MS must be an integer between 100 and 120000');
  });

  it('lets webhook destinations be loopback in development or when WEBHOOKS_ALLOW_LOOPBACK says so, never in production', () => {
    const production = { NODE_ENV: 'production', CURSOR_SECRET: 'c'.repeat(32), ENCRYPTION_KEY: 'e'.repeat(32) };
    expect(loadConfig({}).webhooks).toMatchObject({ allowLoopback: true, timeoutMs: 10_000, retryUnitMs: 60_000 });
    expect(loadConfig({ NODE_ENV: 'test' }).webhooks.allowLoopback).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOKS_ALLOW_LOOPBACK: 'true' }).webhooks.allowLoopback).toBe(true);
    expect(loadConfig({ WEBHOOKS_ALLOW_LOOPBACK: 'false' }).webhooks.allowLoopback).toBe(false);
    expect(loadConfig(production).webhooks.allowLoopback).toBe(false);
    expect(() => loadConfig({ ...production, WEBHOOKS_ALLOW_LOOPBACK: 'true' })).toThrow('WEBHOOKS_ALLOW_LOOPBACK must not be on in production');
  });
});
