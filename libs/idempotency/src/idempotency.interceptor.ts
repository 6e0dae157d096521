import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, Optional, SetMetadata, UseInterceptors, applyDecorators } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ApiHeader } from '@nestjs/swagger';
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Observable, catchError, concatMap, finalize, from, map, of, switchMap, throwError } from 'rxjs';
import { MAX_INPUT_DEPTH, SharedErrors, findUnstorableInput, inputTooDeep } from '@shared/errors';
import { REDIS_CLIENT } from '@shared/redis';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_REQUIRED = Symbol('idempotency-key-required');
const RESULT_TTL_SECONDS = 24 * 60 * 60;
const WAIT_FOR_DUPLICATE_MS = 3000;
const POLL_MS = 25;

export interface IdempotencyOptions {
  /**
   * How long a running request holds its key without a heartbeat. A live request refreshes it every third of this,
   * so only a holder that crashed (or lost Redis) lets it lapse, and a retry can run this soon after the crash.
   */
  leaseMs: number;
}

export const IDEMPOTENCY_OPTIONS = Symbol('IDEMPOTENCY_OPTIONS');
const DEFAULT_OPTIONS: IdempotencyOptions = { leaseMs: 5000 };

// Compare-and-act on the running entry, so a request whose lease lapsed never extends or frees another request's key.
const REFRESH_IF_OWNED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE_IF_OWNED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

interface StoredEntry {
  fingerprint: string;
  state: 'running' | 'done';
  /** Set while running: tells this request's entry from a later holder's after a lapsed lease. */
  owner?: string;
  status?: number;
  body?: unknown;
}

interface HttpRequestLike {
  method: string;
  url: string;
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
  user?: { subjectId?: string };
}

interface HttpReplyLike {
  statusCode: number;
  status(code: number): unknown;
  header(name: string, value: string): unknown;
}

/** Where the state of a key is kept: per credential subject, the key itself hashed. */
const storageKey = (tenant: string, key: string) => `idempotency:${tenant}:${createHash('sha256').update(key).digest('hex')}`;

/** What became of an Idempotency-Key: still running, or done with the answer it replays (a 2xx status and body). */
export type IdempotencyOutcome = { state: 'running' } | { state: 'done'; status: number; body: unknown };

/** The key when it is 1-255 visible ASCII characters, else 400 `invalid_idempotency_key` naming `field` (where it came from). */
export function checkIdempotencyKey(key: string | undefined, field = 'Idempotency-Key'): string {
  if (!key || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw SharedErrors.invalid('invalid_idempotency_key', `${field} must be 1-255 visible ASCII characters.`, field);
  }
  return key;
}

/** The outcome recorded for `key` of a credential subject, or null when there is none (never used, failed, or expired after 24 h). */
export async function findIdempotencyOutcome(redis: Redis, tenant: string, key: string): Promise<IdempotencyOutcome | null> {
  const raw = await redis.get(storageKey(tenant, key));
  if (raw === null) return null;
  const entry = JSON.parse(raw) as StoredEntry;
  return entry.state === 'done' ? { state: 'done', status: entry.status ?? 200, body: entry.body ?? null } : { state: 'running' };
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` count as the same body. Refuses nesting the validators would refuse. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (value && typeof value === 'object' && depth >= MAX_INPUT_DEPTH) throw inputTooDeep('body');
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key], depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Implements `Idempotency-Key`: the first request with a key runs and its 2xx response is kept for 24 h;
 * a repeat with the same method, path and body replays it; the same key with anything else is a 409;
 * a duplicate that arrives while the first is still running waits briefly, then gets a 409 — it never runs twice.
 * A failed request releases the key so a corrected retry can run; a crashed one loses it when its lease lapses.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly leaseMs: number;

  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    @Optional() @Inject(IDEMPOTENCY_OPTIONS) options?: IdempotencyOptions,
  ) {
    this.leaseMs = (options ?? DEFAULT_OPTIONS).leaseMs;
  }

  intercept(context: ExecutionContext, next: CallHandler<unknown>): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<HttpRequestLike>();
    const reply = http.getResponse<HttpReplyLike>();
    const rawKey = request.headers[IDEMPOTENCY_HEADER];
    if (rawKey === undefined) {
      if (Reflect.getMetadata(KEY_REQUIRED, context.getHandler()) === true) {
        throw SharedErrors.invalid(
          'idempotency_key_required',
          'This operation needs an Idempotency-Key header: send a new unique value per intended action.',
          'Idempotency-Key',
        );
      }
      return next.handle();
    }
    const key = checkIdempotencyKey(Array.isArray(rawKey) ? rawKey[0] : rawKey);
    // Interceptors run before the validation pipe: refuse what it would refuse, with the same error, before fingerprinting.
    const unstorable = findUnstorableInput(request.body, '');
    if (unstorable) throw unstorable;

    const redisKey = storageKey(request.user?.subjectId ?? 'anonymous', key);
    const fingerprint = createHash('sha256')
      .update(`${request.method} ${request.url}\n${canonicalJson(request.body)}`)
      .digest('hex');
    const running = JSON.stringify({ fingerprint, state: 'running', owner: randomUUID() } satisfies StoredEntry);
    const declaredStatus = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined;

    return from(this.claim(redisKey, fingerprint, running)).pipe(
      switchMap((existing) => {
        if (existing) {
          reply.status(existing.status ?? 200);
          reply.header('idempotent-replayed', 'true');
          return of(existing.body);
        }
        const heartbeat = this.keepAlive(redisKey, running);
        return next.handle().pipe(
          concatMap((body) => from(this.record(redisKey, running, fingerprint, declaredStatus ?? reply.statusCode, body)).pipe(map(() => body))),
          catchError((error: unknown) => from(this.release(redisKey, running)).pipe(switchMap(() => throwError(() => error)))),
          finalize(() => clearInterval(heartbeat)),
        );
      }),
    );
  }

  /** Refreshes the lease while the request runs. A failed refresh is left alone: the lease then lapses, as after a crash. */
  private keepAlive(redisKey: string, running: string): NodeJS.Timeout {
    return setInterval(
      () => {
        this.redis.eval(REFRESH_IF_OWNED, 1, redisKey, running, this.leaseMs).catch(() => undefined);
      },
      Math.max(1, Math.floor(this.leaseMs / 3)),
    );
  }

  private async release(redisKey: string, running: string): Promise<void> {
    await this.redis.eval(RELEASE_IF_OWNED, 1, redisKey, running);
  }

  /** Keeps a 2xx result for replay; anything else frees the key. */
  private async record(redisKey: string, running: string, fingerprint: string, status: number, body: unknown): Promise<void> {
    if (status < 200 || status >= 300) return this.release(redisKey, running);
    const entry: StoredEntry = { fingerprint, state: 'done', status, body: body ?? null };
    await this.redis.set(redisKey, JSON.stringify(entry), 'EX', RESULT_TTL_SECONDS);
  }

  /** Takes the key for this request (returns undefined) or returns the finished entry to replay. */
  private async claim(redisKey: string, fingerprint: string, running: string): Promise<StoredEntry | undefined> {
    const deadline = Date.now() + WAIT_FOR_DUPLICATE_MS;
    for (;;) {
      const taken = await this.redis.set(redisKey, running, 'PX', this.leaseMs, 'NX');
      if (taken === 'OK') return undefined;
      const raw = await this.redis.get(redisKey);
      if (raw === null) continue; // released between our two calls: try to take it again
      const entry = JSON.parse(raw) as StoredEntry;
      if (entry.fingerprint !== fingerprint) {
        throw SharedErrors.fail('idempotency_key_reused', 'This Idempotency-Key was already used with a different request. Use a new key for a new request.', {
          details: { field: 'Idempotency-Key' },
        });
      }
      if (entry.state === 'done') return entry;
      if (Date.now() >= deadline) {
        throw SharedErrors.fail('idempotency_key_in_progress', 'A request with this Idempotency-Key is still being processed. Retry shortly.', {
          details: { field: 'Idempotency-Key' },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/**
 * Marks a handler as accepting `Idempotency-Key`: it replays the first answer to a repeated key, and documents the
 * header on the operation. With `required`, a request without the header is refused (400 `idempotency_key_required`).
 */
export const Idempotent = ({ required = false }: { required?: boolean } = {}) =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    SetMetadata(KEY_REQUIRED, required),
    ApiHeader({
      name: 'Idempotency-Key',
      required,
      schema: { type: 'string' },
      description: required
        ? 'Required. Repeating a key with the same body replays the first answer.'
        : 'Repeating a key with the same body replays the first answer.',
    }),
  );
