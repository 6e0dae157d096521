import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '@shared/config';
import { loggerOptions, scrubEmails } from './logger';

describe('logger', () => {
  const capture = () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    return { lines, logger: pino(loggerOptions(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' }), 'test'), stream) };
  };

  it('writes no email address: not in the message, a field, a nested value or an error', () => {
    const { lines, logger } = capture();
    logger.info({ email: 'ann@example.com', note: { text: 'write to Bob@Example.org' }, list: ['c%40example.net'] }, 'signup by dan@example.com');
    logger.error({ err: new Error('duplicate key for erin@example.com') }, 'failed');
    logger.warn('plain message for frank@example.com');
    const output = lines.join('');
    expect(output).not.toMatch(/example\.(com|org|net)/i);
    expect(output).toContain('[email]');
    expect(output).toContain('duplicate key for [email]');
  });

  it('redacts credentials', () => {
    const { lines, logger } = capture();
    logger.info({ req: { headers: { authorization: 'Bearer sk_secret' } }, body: { access_token: 'tok_secret' } }, 'x');
    expect(lines.join('')).not.toMatch(/sk_secret|tok_secret/);
  });

  it('redacts credential keys at the top level of a log line too', () => {
    const { lines, logger } = capture();
    logger.info({ password: 'pw_secret', token: 'tok_top', api_key: 'key_top' }, 'x');
    expect(lines.join('')).not.toMatch(/pw_secret|tok_top|key_top/);
  });

  it('leaves other values alone', () => {
    expect(scrubEmails({ id: 'sub_1', count: 3, at: 'user @ host' })).toEqual({ id: 'sub_1', count: 3, at: 'user @ host' });
  });
});
