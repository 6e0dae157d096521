import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '@shared/config';
import { loggerOptions, PinoNestLogger, scrubEmails } from './logger';

describe('logger', () => {
  const capture = (level = 'info') => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    return { lines, logger: pino(loggerOptions(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: level }), 'test'), stream) };
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

  it('leaves other values alone, versioned package paths of stack traces included', () => {
    expect(scrubEmails({ id: 'sub_1', count: 3, at: 'user @ host' })).toEqual({ id: 'sub_1', count: 3, at: 'user @ host' });
    const frame = 'at x (node_modules/.pnpm/@prisma+client@7.10.0_prisma@7.10.1_typescript@5.9.3/node_modules/@prisma/client/runtime.js:1:2)';
    expect(scrubEmails(frame)).toBe(frame);
    expect(scrubEmails('to a.b+c@mail.example.co.uk and x%40xn--mller-kva.de')).toBe('to [email] and [email]');
  });

  it("writes Nest's start-up narration (modules, routes) at debug, and every other Nest message at its own level", () => {
    const levelsOf = (level: string) => {
      const { lines, logger } = capture(level);
      const nest = new PinoNestLogger(logger);
      nest.log('Mapped {/v1, GET} route', 'RouterExplorer');
      nest.log('AppModule dependencies initialized', 'InstanceLoader');
      nest.log('Nest application successfully started', 'NestApplication');
      nest.log('Redis reachable again', 'Redis');
      nest.warn('lost Redis', 'Redis');
      return lines.map((line) => JSON.parse(line) as { level: number; msg: string }).map(({ level, msg }) => `${level} ${msg}`);
    };
    expect(levelsOf('info')).toEqual(['30 Redis reachable again', '40 lost Redis']);
    expect(levelsOf('debug')).toEqual([
      '20 Mapped {/v1, GET} route',
      '20 AppModule dependencies initialized',
      '20 Nest application successfully started',
      '30 Redis reachable again',
      '40 lost Redis',
    ]);
  });
});
