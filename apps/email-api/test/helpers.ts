import type { Writable } from 'node:stream';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { AccessService } from '@email/access';
import type { Redis } from 'ioredis';
import { REDIS_CLIENT } from '@shared/redis';
import { createTestApp, createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../src/app.module';

export interface EmailApiHarness {
  app: NestFastifyApplication;
  db: TestDatabase;
  workspaceId: string;
  key: string;
  /** A supertest agent with the workspace's all-scopes key. */
  as(key?: string): {
    get(path: string): request.Test;
    post(path: string): request.Test;
    put(path: string): request.Test;
    patch(path: string): request.Test;
    delete(path: string): request.Test;
    request(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string): request.Test;
  };
  newWorkspace(name?: string): Promise<{ workspace_id: string; api_key: string }>;
  keyWith(scopes: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * Boots email-api on a fresh database with one workspace and an all-scopes key, and Redis keys under a prefix of its
 * own (queues, the send limiter's counters), removed on close. `logStream`: where the app's pino lines go, for a test
 * that reads them.
 */
export async function emailApi(env: Record<string, string> = {}, logStream?: Writable): Promise<EmailApiHarness> {
  const db = await createTestDatabase('email');
  const prefix = env.QUEUE_PREFIX ?? uniqueQueuePrefix();
  const app = await createTestApp(
    AppModule,
    { EMAIL_DATABASE_URL: db.url, AUTH_CACHE_TTL_MS: '0', ...env, QUEUE_PREFIX: prefix },
    { ...EMAIL_HTTP_OPTIONS, logStream },
  );
  const access = app.get(AccessService);
  const { workspace_id, api_key } = await access.createWorkspace('Test workspace');
  const as = (key = api_key) => {
    const server = app.getHttpServer();
    // An empty key sends no Authorization header at all.
    const auth = (test: request.Test) => (key ? test.set('authorization', `Bearer ${key}`) : test);
    return {
      get: (path: string) => auth(request(server).get(path)),
      post: (path: string) => auth(request(server).post(path)),
      put: (path: string) => auth(request(server).put(path)),
      patch: (path: string) => auth(request(server).patch(path)),
      delete: (path: string) => auth(request(server).delete(path)),
      request: (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string) => auth(request(server)[method](path)),
    };
  };
  return {
    app,
    db,
    workspaceId: workspace_id,
    key: api_key,
    as,
    newWorkspace: (name = 'Other') => access.createWorkspace(name),
    keyWith: async (scopes) => (await access.createApiKey(workspace_id, { scopes })).api_key,
    close: async () => {
      await removeKeys(app.get<Redis>(REDIS_CLIENT), prefix);
      await app.close();
      await db.drop();
    },
  };
}

/** Every Redis key under the prefix (BullMQ writes it inside a hash tag: `{prefix:queue}:…`). */
async function removeKeys(redis: Redis, prefix: string): Promise<void> {
  for (const pattern of [`${prefix}:*`, `{${prefix}:*`]) {
    for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length) await redis.del(...keys);
    }
  }
}
