import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import request from 'supertest';
import { AccessService } from '@email/access';
import { EmailPrisma } from '@email/data-access';
import { createTestApp, uniqueQueuePrefix } from '@shared/testing';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../src/app.module';
import { emailApi, EmailApiHarness } from './helpers';

/** Milliseconds until `replica` refuses `key`, polled every 50 ms; Infinity when it still accepts it after 6 s. */
async function msUntilRefused(replica: NestFastifyApplication, key: string, since: number): Promise<number> {
  while (Date.now() - since < 6_000) {
    const res = await request(replica.getHttpServer()).get('/v1/workspace').set('authorization', `Bearer ${key}`);
    if (res.status === 401) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Infinity;
}

describe('email-api: a revoked key is refused by every replica within a second', () => {
  const prefix = uniqueQueuePrefix();
  // The default principal cache TTL: only a published change can beat it.
  const env = { AUTH_CACHE_TTL_MS: '5000', QUEUE_PREFIX: prefix };
  let first: EmailApiHarness;
  let second: NestFastifyApplication;
  let redis: Redis;

  beforeAll(async () => {
    first = await emailApi(env);
    second = await createTestApp(AppModule, { ...env, EMAIL_DATABASE_URL: first.db.url }, EMAIL_HTTP_OPTIONS);
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    redis?.disconnect();
    await second?.close();
    await first?.close();
  });

  const cachedOnBothReplicas = async () => {
    const { id, api_key } = await first.app.get(AccessService).createApiKey(first.workspaceId, { scopes: ['workspace:read'] });
    for (const replica of [first.app, second]) {
      await request(replica.getHttpServer()).get('/v1/workspace').set('authorization', `Bearer ${api_key}`).expect(200);
    }
    return { id, key: api_key };
  };

  it('revoked through the service on one replica, refused on the other in under 1000 ms', async () => {
    for (let round = 0; round < 3; round++) {
      const { id, key } = await cachedOnBothReplicas();
      const started = Date.now();
      await first.app.get(AccessService).revokeApiKey(id);
      expect(await msUntilRefused(first.app, key, started)).toBeLessThan(1000);
      expect(await msUntilRefused(second, key, started)).toBeLessThan(1000);
      const res = await request(second.getHttpServer()).get('/v1/workspace').set('authorization', `Bearer ${key}`).expect(401);
      expect(res.body.error.code).toBe('credential_revoked');
    }
  });

  it('a lost message is caught by the epoch check within a second', async () => {
    const { id, key } = await cachedOnBothReplicas();
    const started = Date.now();
    // What a revocation whose pub/sub message never arrived leaves behind: the row and the bumped epoch.
    await first.app.get(EmailPrisma).apiKey.update({ where: { id }, data: { status: 'revoked', revoked_at: new Date() } });
    await redis.incr(`${prefix}:auth-epoch:email`);
    expect(await msUntilRefused(second, key, started)).toBeLessThan(1000);
  });
});
