import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ConfigModule } from '@shared/config';
import { RedisModule } from '@shared/redis';
import { createTestApp } from '@shared/testing';
import { Idempotent } from './idempotency.interceptor';

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

  @Post('failing')
  @Idempotent()
  fail() {
    executions += 1;
    throw new Error('boom');
  }
}

@Module({ imports: [ConfigModule.forRoot(), RedisModule], controllers: [ThingsController] })
class IdempotencyTestModule {}

describe('Idempotency-Key (real Redis)', () => {
  let app: NestFastifyApplication;
  const post = (path: string, key: string | undefined, body: object) => {
    const req = request(app.getHttpServer()).post(path).send(body);
    return key ? req.set('idempotency-key', key) : req;
  };

  beforeAll(async () => {
    app = await createTestApp(IdempotencyTestModule, {});
  });

  afterAll(async () => {
    await app?.close();
  });

  beforeEach(() => {
    executions = 0;
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
    const redis = app.get<import('ioredis').Redis>((await import('@shared/redis')).REDIS_CLIENT);
    const keys = await redis.keys('idempotency:anonymous:*');
    const ttls = await Promise.all(keys.map((k) => redis.ttl(k)));
    expect(Math.max(...ttls)).toBeGreaterThan(24 * 3600 - 60);
    expect(Math.max(...ttls)).toBeLessThanOrEqual(24 * 3600);
  });
});
