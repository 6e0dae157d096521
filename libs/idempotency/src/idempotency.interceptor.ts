import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, UseInterceptors, applyDecorators } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { Observable, catchError, concatMap, from, map, of, switchMap, throwError } from 'rxjs';
import { Conflict, ErrorCodes, InvalidRequest } from '@shared/errors';
import { REDIS_CLIENT } from '@shared/redis';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const RESULT_TTL_SECONDS = 24 * 60 * 60;
/** A request that crashes mid-flight frees its key after this long instead of blocking it for a day. */
const LOCK_TTL_SECONDS = 120;
const WAIT_FOR_DUPLICATE_MS = 3000;
const POLL_MS = 25;

interface StoredEntry {
  fingerprint: string;
  state: 'running' | 'done';
  status?: number;
  body?: unknown;
}

interface HttpRequestLike {
  method: string;
  url: string;
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
  user?: { tenantId?: string };
}

interface HttpReplyLike {
  statusCode: number;
  status(code: number): unknown;
  header(name: string, value: string): unknown;
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` count as the same body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Implements `Idempotency-Key`: the first request with a key runs and its 2xx response is kept for 24 h;
 * a repeat with the same method, path and body replays it; the same key with anything else is a 409;
 * a duplicate that arrives while the first is still running waits briefly, then gets a 409 — it never runs twice.
 * A failed request releases the key so a corrected retry can run.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<HttpRequestLike>();
    const reply = http.getResponse<HttpReplyLike>();
    const rawKey = request.headers[IDEMPOTENCY_HEADER];
    if (rawKey === undefined) return next.handle();
    const key = Array.isArray(rawKey) ? rawKey[0] : rawKey;
    if (!key || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
      throw InvalidRequest(ErrorCodes.invalidIdempotencyKey, 'Idempotency-Key must be 1-255 visible ASCII characters.', 'Idempotency-Key');
    }

    const tenant = request.user?.tenantId ?? 'anonymous';
    const redisKey = `idempotency:${tenant}:${createHash('sha256').update(key).digest('hex')}`;
    const fingerprint = createHash('sha256').update(`${request.method} ${request.url}\n${canonicalJson(request.body)}`).digest('hex');
    const declaredStatus = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined;

    return from(this.claim(redisKey, fingerprint)).pipe(
      switchMap((existing) => {
        if (existing) {
          reply.status(existing.status ?? 200);
          reply.header('idempotent-replayed', 'true');
          return of(existing.body);
        }
        return next.handle().pipe(
          concatMap((body) => from(this.record(redisKey, fingerprint, declaredStatus ?? reply.statusCode, body)).pipe(map(() => body))),
          catchError((error) => from(this.redis.del(redisKey)).pipe(switchMap(() => throwError(() => error)))),
        );
      }),
    );
  }

  /** Keeps a 2xx result for replay; anything else frees the key. */
  private async record(redisKey: string, fingerprint: string, status: number, body: unknown): Promise<void> {
    if (status < 200 || status >= 300) {
      await this.redis.del(redisKey);
      return;
    }
    const entry: StoredEntry = { fingerprint, state: 'done', status, body: body ?? null };
    await this.redis.set(redisKey, JSON.stringify(entry), 'EX', RESULT_TTL_SECONDS);
  }

  /** Takes the key for this request (returns undefined) or returns the finished entry to replay. */
  private async claim(redisKey: string, fingerprint: string): Promise<StoredEntry | undefined> {
    const running: StoredEntry = { fingerprint, state: 'running' };
    const deadline = Date.now() + WAIT_FOR_DUPLICATE_MS;
    for (;;) {
      const taken = await this.redis.set(redisKey, JSON.stringify(running), 'EX', LOCK_TTL_SECONDS, 'NX');
      if (taken === 'OK') return undefined;
      const raw = await this.redis.get(redisKey);
      if (raw === null) continue; // released between our two calls: try to take it again
      const entry = JSON.parse(raw) as StoredEntry;
      if (entry.fingerprint !== fingerprint) {
        throw Conflict(
          ErrorCodes.idempotencyKeyReused,
          'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
          { field: 'Idempotency-Key' },
        );
      }
      if (entry.state === 'done') return entry;
      if (Date.now() >= deadline) {
        throw Conflict(ErrorCodes.idempotencyKeyInProgress, 'A request with this Idempotency-Key is still being processed. Retry shortly.', {
          field: 'Idempotency-Key',
        });
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/** Marks a handler as accepting `Idempotency-Key`. */
export const Idempotent = () => applyDecorators(UseInterceptors(IdempotencyInterceptor));
