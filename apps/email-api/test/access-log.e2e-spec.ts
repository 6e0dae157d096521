import { Writable } from 'node:stream';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { AccessService } from '@email/access';
import { createTestApp, createTestDatabase, TestDatabase } from '@shared/testing';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../src/app.module';

/** The log lines a real email-api writes, captured from its pino destination. */
describe('email-api: the access log', () => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let key: string;
  const http = () => request(app.getHttpServer());
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const requestLines = () => parsed().filter((line) => line.msg === 'request');

  beforeAll(async () => {
    db = await createTestDatabase('email');
    app = await createTestApp(AppModule, { EMAIL_DATABASE_URL: db.url, LOG_LEVEL: 'info', ACCESS_LOG_401_SAMPLE: '100' }, { ...EMAIL_HTTP_OPTIONS, logStream });
    key = (await app.get(AccessService).createWorkspace('Logs')).api_key;

    await http().post('/v1/subscribers').set('authorization', `Bearer ${key}`).send({ email: 'carol@example.com' }).expect(201);
    await http().get('/v1/subscribers?email=alice@example.com').set('authorization', `Bearer ${key}`).expect(200);
    await http().get('/v1/subscribers?email=bob%40example.com').set('authorization', `Bearer ${key}`).expect(200);
    await http().get('/v1/subscribers/sub_01ARZ3NDEKTSV4RRFFQ69G5FAV?access_token=sk_live_leaked_secret').set('authorization', `Bearer ${key}`);
    await http().get('/v1/workspace').set('x-request-id', 'req_traceable_1').set('authorization', `Bearer ${key}`).expect(200);
    await http().get('/healthz').expect(200);
    await http().get('/readyz');
    await http().get('/v1/no/such/route?email=dave@example.com').set('authorization', `Bearer ${key}`).expect(404);
    for (let i = 0; i < 50; i++) await http().get('/v1/workspace').expect(401);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('never holds an email address, a query string or a credential', () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toMatch(/example\.com/);
      expect(line).not.toMatch(/access_token|sk_live_leaked_secret|\?/);
      expect(line).not.toContain(key);
    }
  });

  it('writes one line per request with the route pattern, status, duration and request id', () => {
    expect(parsed().filter((line) => /incoming request|request completed/.test(String(line.msg)))).toEqual([]);
    const listed = requestLines().filter((line) => line.route === '/v1/subscribers' && line.method === 'GET');
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({ level: 30, service: 'email-api', status: 200, reqId: expect.any(String), duration_ms: expect.any(Number) });
    expect(requestLines().find((line) => line.route === '/v1/subscribers/:subscriber_id')).toBeDefined();
    expect(requestLines().find((line) => line.reqId === 'req_traceable_1')).toMatchObject({ route: '/v1/workspace', status: 200 });
    expect(requestLines().find((line) => line.status === 404)).toMatchObject({ route: '(unmatched)' });
  });

  it('never logs health probes, and samples anonymous 401s', () => {
    expect(lines.some((line) => /healthz|readyz|metrics/.test(line))).toBe(false);
    expect(requestLines().filter((line) => line.status === 401).length).toBeLessThanOrEqual(1);
  });
});
