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
});
