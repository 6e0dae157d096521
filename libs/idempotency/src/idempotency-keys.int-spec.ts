import { CallHandler, ExecutionContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';
import { firstValueFrom, Observable, of, Subject, throwError } from 'rxjs';
import { DomainError } from '@shared/errors';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** The interceptor driven directly (no HTTP server): one call with a given key, tenant and handler. */
describe('IdempotencyInterceptor keys and release (real Redis)', () => {
  let redis: Redis;
  let interceptor: IdempotencyInterceptor;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    // A long lease: only an explicit release can free a key within these tests.
    interceptor = new IdempotencyInterceptor(redis, { leaseMs: 60_000 });
  });

  afterAll(async () => {
    await redis.quit();
  });

  function call(key: string | string[] | undefined, handle: () => Observable<unknown>, options: { tenant?: string; body?: unknown; statusCode?: number } = {}) {
    const reply = { statusCode: options.statusCode ?? 201, status: jest.fn(), header: jest.fn() };
    const request = {
      method: 'POST',
      url: '/v1/things',
      body: options.body ?? { a: 1 },
      headers: { 'idempotency-key': key },
      user: { subjectId: options.tenant ?? 'wsp_1' },
    };
    const context = {
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
      getHandler: () => function handler() {},
    } as unknown as ExecutionContext;
    const next: CallHandler = { handle };
    return { reply, run: () => firstValueFrom(interceptor.intercept(context, next)) };
  }

  const refusal = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      return error as DomainError;
    }
    throw new Error('expected a refusal');
  };

  it('accepts 1 to 255 visible ASCII characters, and takes the first of repeated headers', async () => {
    for (const key of ['x', '!~', 'k'.repeat(255)]) {
      expect(await call(`${key}`, () => of({ ok: key })).run()).toEqual({ ok: key });
    }
    const first = `first-${randomUUID()}`;
    await call([first, 'second'], () => of({ n: 1 })).run();
    expect(await redis.exists(`idempotency:wsp_1:${createHash('sha256').update(first).digest('hex')}`)).toBe(1);
  });

  it.each([
    ['an empty key', ''],
    ['a 256-character key', 'k'.repeat(256)],
    ['a space', 'a b'],
    ['a leading space', ' ab'],
    ['a trailing newline', 'ab\n'],
    ['non-ASCII', 'clé'],
  ])('refuses %s with 400 invalid_idempotency_key', async (_case, key) => {
    const error = await refusal(call(key, () => of(1)).run);
    expect([error.status, error.code, error.details, error.message]).toEqual([
      400,
      'invalid_idempotency_key',
      { field: 'Idempotency-Key' },
      'Idempotency-Key must be 1-255 visible ASCII characters.',
    ]);
  });

  it('refuses an unstorable body before taking the key', async () => {
    const key = randomUUID();
    const error = await refusal(call(key, () => of(1), { body: { name: 'a\u0000b' } }).run);
    expect([error.code, error.details]).toEqual(['invalid_characters', { field: 'name' }]);
    expect(await call(key, () => of('ran'), { body: { name: 'ab' } }).run()).toBe('ran');
  });

  it('frees the key when the handler fails, or answers outside 2xx, so a retry runs', async () => {
    const key = randomUUID();
    const failure = new Error('boom');
    expect(await refusal(call(key, () => throwError(() => failure)).run)).toBe(failure);
    expect(await call(key, () => of('after failure'), { statusCode: 422 }).run()).toBe('after failure');
    const replay = call(key, () => of('after 4xx'));
    expect(await replay.run()).toBe('after 4xx');
    expect(replay.reply.header).not.toHaveBeenCalled();
    const again = call(key, () => of('must not run'));
    expect(await again.run()).toBe('after 4xx');
    expect(again.reply.header).toHaveBeenCalledWith('idempotent-replayed', 'true');
    expect(again.reply.status).toHaveBeenCalledWith(201);
  });

  it('keeps keys apart per tenant', async () => {
    const key = randomUUID();
    expect(await call(key, () => of('tenant 1'), { tenant: 'wsp_1' }).run()).toBe('tenant 1');
    expect(await call(key, () => of('tenant 2'), { tenant: 'wsp_2' }).run()).toBe('tenant 2');
  });

  it('answers 409 idempotency_key_in_progress when the first request is still running after the wait', async () => {
    const key = randomUUID();
    const first = new Subject<unknown>();
    const running = call(key, () => first).run();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const error = await refusal(call(key, () => of('duplicate')).run);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect([error.status, error.code, error.details]).toEqual([409, 'idempotency_key_in_progress', { field: 'Idempotency-Key' }]);
    first.next('first done');
    first.complete();
    expect(await running).toBe('first done');
  });
});
