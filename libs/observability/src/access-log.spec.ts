import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { loadConfig } from '@shared/config';
import { httpLoggingOptions, registerAccessLog } from './access-log';

/** The access line's level as each environment sets it: a bare Fastify app with a route, a failing route and the probes. */
async function requestLines(env: Record<string, string>): Promise<Array<{ level: number; route: string; status: number }>> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const config = loadConfig({ CURSOR_SECRET: 'c'.repeat(32), ENCRYPTION_KEY: 'e'.repeat(32), ...env });
  const app = Fastify(httpLoggingOptions(config, 'test', stream));
  registerAccessLog(app, config);
  app.get('/v1/things', async () => ({ data: [] }));
  app.get('/v1/broken', async () => Promise.reject(new Error('boom')));
  app.get('/mcp', async (_request, reply) => reply.code(501).send({ error: { code: 'mcp_not_available' } }));
  for (const probe of ['/healthz', '/readyz', '/metrics']) app.get(probe, async () => 'ok');
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  for (const path of ['/v1/things', '/v1/broken', '/mcp', '/healthz', '/readyz', '/metrics']) await (await fetch(`${base}${path}`)).text();
  await app.close();
  return lines
    .map((line) => JSON.parse(line) as { level: number; msg: string; route: string; status: number })
    .filter((line) => line.msg === 'request')
    .map(({ level, route, status }) => ({ level, route, status }));
}

describe('access log levels', () => {
  it('are off at the development defaults, except a 5xx other than 501 (a feature not offered); probes are never logged', async () => {
    expect(await requestLines({ NODE_ENV: 'development' })).toEqual([{ level: 50, route: '/v1/broken', status: 500 }]);
  });

  it('come back with LOG_LEVEL=debug in development, probes still left out', async () => {
    expect(await requestLines({ NODE_ENV: 'development', LOG_LEVEL: 'debug' })).toEqual([
      { level: 20, route: '/v1/things', status: 200 },
      { level: 50, route: '/v1/broken', status: 500 },
      { level: 20, route: '/mcp', status: 501 },
    ]);
  });

  it('are on at info in production unless ACCESS_LOG_LEVEL lowers them', async () => {
    expect(await requestLines({ NODE_ENV: 'production' })).toEqual([
      { level: 30, route: '/v1/things', status: 200 },
      { level: 50, route: '/v1/broken', status: 500 },
      { level: 30, route: '/mcp', status: 501 },
    ]);
    expect(await requestLines({ NODE_ENV: 'production', ACCESS_LOG_LEVEL: 'debug' })).toEqual([{ level: 50, route: '/v1/broken', status: 500 }]);
  });

  it('can be raised to info in development with ACCESS_LOG_LEVEL', async () => {
    expect(await requestLines({ NODE_ENV: 'development', ACCESS_LOG_LEVEL: 'info' })).toEqual([
      { level: 30, route: '/v1/things', status: 200 },
      { level: 50, route: '/v1/broken', status: 500 },
      { level: 30, route: '/mcp', status: 501 },
    ]);
  });
});
