import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { ConfigModule } from '@shared/config';
import { REDIS_CLIENT, RedisModule } from '@shared/redis';
import { createTestApp } from '@shared/testing';
import { canonicalJson, Idempotent, IDEMPOTENCY_OPTIONS } from './idempotency.interceptor';

const LEASE_MS = 600;

let executions = 0;

@Controller('things')
class ThingsController {
  @Post()
  @Idempotent()
  async create(@Body() body: Record<string, unknown>) {
    executions += 1;
    await new Promise((resolve) => setTimeout(resolve, 150));
    return { id: `thing_${executions}`, body };
  }

  @Post('accepted')
  @HttpCode(202)
  @Idempotent()
  accept() {
    executions += 1;
    return { run_id: `run_${executions}` };
  }

  @Post('slow')
  @Idempotent()
  async slow() {
    executions += 1;
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 3));
    return { id: `slow_${executions}` };
  }

  @Post('required')
  @Idempotent({ required: true })
  required() {
    executions += 1;
    return { id: `required_${executions}` };
  }

  @Post('failing')
  @Idempotent()
  fail() {
    executions += 1;
    throw new Error('boom');
  }
}

@Module({
  imports: [ConfigModule.forRoot(), RedisModule],
  controllers: [ThingsController],
  providers: [{ provide: IDEMPOTENCY_OPTIONS, useValue: { leaseMs: LEASE_MS } }],
})
class IdempotencyTestModule {}

describe('Idempotency-Key (real Redis)', () => {
  let app: NestFastifyApplication;
  const post = (path: string, key: string | undefined, body: object) => {
    const req = request(app.getHttpServer()).post(path).send(body);
    return key ? req.set('idempotency-key', key) : req;
  };

  const redisKeyOf = (key: string) => `idempotency:anonymous:${createHash('sha256').update(key).digest('hex')}`;
  let redis: Redis;

  beforeAll(async () => {
    app = await createTestApp(IdempotencyTestModule, {});
    redis = app.get<Redis>(REDIS_CLIENT);
  });

  afterAll(async () => {
    await app?.close();
  });

  beforeEach(() => {
    executions = 0;
  });

  it('refuses a request without the header where the key is required, and runs nothing', async () => {
    const refused = await post('/things/required', undefined, {}).expect(400);
    expect(refused.body.error).toMatchObject({ code: 'idempotency_key_required', details: { field: 'Idempotency-Key' } });
    expect(executions).toBe(0);
    const key = randomUUID();
    const first = await post('/things/required', key, {}).expect(201);
    await post('/things/required', key, {}).expect(201).expect('idempotent-replayed', 'true');
    expect([first.body.id, executions]).toEqual(['required_1', 1]);
  });

  it('replays the stored response for the same key and body (keys in any order)', async () => {
    const key = randomUUID();
    const first = await post('/things', key, { a: 1, b: { c: 2 } }).expect(201);
    const again = await post('/things', key, { b: { c: 2 }, a: 1 }).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(executions).toBe(1);
  });

  it('replays the declared status code too', async () => {
    const key = randomUUID();
    const first = await post('/things/accepted', key, {}).expect(202);
    await post('/things/accepted', key, {}).expect(202, first.body);
    expect(executions).toBe(1);
  });

  it('409 idempotency_key_reused for the same key with another body', async () => {
    const key = randomUUID();
    await post('/things', key, { a: 1 }).expect(201);
    const res = await post('/things', key, { a: 2 }).expect(409);
    expect(res.body.error).toMatchObject({ type: 'conflict', code: 'idempotency_key_reused', details: { field: 'Idempotency-Key' } });
    expect(executions).toBe(1);
  });

  it('never runs concurrent duplicates twice', async () => {
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 5 }, () => post('/things', key, { n: 1 })));
    expect(executions).toBe(1);
    for (const res of responses) {
      expect([201, 409]).toContain(res.status);
      if (res.status === 201) expect(res.body.id).toBe('thing_1');
      else expect(res.body.error.code).toBe('idempotency_key_in_progress');
    }
    expect(responses.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
  });

  it('releases the key when the request fails, so a retry runs', async () => {
    const key = randomUUID();
    await post('/things/failing', key, {}).expect(500);
    await post('/things/failing', key, {}).expect(500);
    expect(executions).toBe(2);
  });

  it('runs every request without a key, and rejects an unusable key', async () => {
    await post('/things', undefined, {}).expect(201);
    await post('/things', undefined, {}).expect(201);
    expect(executions).toBe(2);
    const res = await post('/things', 'x'.repeat(300), {}).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_idempotency_key', details: { field: 'Idempotency-Key' } });
  });

  it('stores results for 24 hours', async () => {
    const key = randomUUID();
    await post('/things', key, {}).expect(201);
    const ttl = await redis.ttl(redisKeyOf(key));
    expect(ttl).toBeGreaterThan(24 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);
  });

  it('refuses a hostile nesting depth with the validation 400, not a stack overflow', async () => {
    // 20 KB of brackets: the probe needed 2,300 levels against the built app; under jest the stack is a little deeper.
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const res = await request(app.getHttpServer())
      .post('/things')
      .set('idempotency-key', randomUUID())
      .set('content-type', 'application/json')
      .send(deep)
      .expect(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'input_too_deep' });
    expect(executions).toBe(0);
  });

  it('frees the key of a crashed holder once its short lease runs out', async () => {
    const key = randomUUID();
    // What a process that died mid-request leaves behind: a running entry nobody refreshes.
    const fingerprint = createHash('sha256')
      .update(`POST /things\n${canonicalJson({ n: 1 })}`)
      .digest('hex');
    await redis.set(redisKeyOf(key), JSON.stringify({ fingerprint, state: 'running', owner: 'crashed' }), 'PX', LEASE_MS);
    const started = Date.now();
    const res = await post('/things', key, { n: 1 }).expect(201);
    expect(Date.now() - started).toBeLessThan(LEASE_MS + 1_000);
    expect(res.body.id).toBe('thing_1');
  });

  it('keeps the key of a live request beyond the lease (heartbeat), so a duplicate never runs it twice', async () => {
    const key = randomUUID();
    const first = post('/things/slow', key, {}).then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 1.5));
    const lease = await redis.pttl(redisKeyOf(key));
    expect(lease).toBeGreaterThan(0);
    expect(lease).toBeLessThanOrEqual(LEASE_MS);
    const duplicate = await post('/things/slow', key, {});
    expect((await first).status).toBe(201);
    expect(executions).toBe(1);
    expect([201, 409]).toContain(duplicate.status);
    if (duplicate.status === 201) expect(duplicate.body.id).toBe('slow_1');
  });
});
