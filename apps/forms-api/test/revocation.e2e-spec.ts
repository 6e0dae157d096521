import { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { createTestApp, uniqueQueuePrefix } from '@shared/testing';
import { AppModule } from '../src/app.module';
import { Account, formsApi, FormsApiHarness } from './helpers';

/** Milliseconds until `send()` answers `status`, polled every 50 ms; Infinity when it still has not after 6 s. */
async function msUntilStatus(send: () => request.Test, status: number, since: number): Promise<number> {
  while (Date.now() - since < 6_000) {
    if ((await send()).status === status) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Infinity;
}

describe('forms-api: revocation and role changes reach every replica within a second', () => {
  // The default cache TTL for keys and memberships: only a published change can beat it.
  const env = { AUTH_CACHE_TTL_MS: '5000', QUEUE_PREFIX: uniqueQueuePrefix() };
  let api: FormsApiHarness;
  let second: NestFastifyApplication;
  const on = (replica: NestFastifyApplication, key: string) => ({
    get: (path: string) => request(replica.getHttpServer()).get(path).set('authorization', `Bearer ${key}`),
    post: (path: string) => request(replica.getHttpServer()).post(path).set('authorization', `Bearer ${key}`),
  });

  beforeAll(async () => {
    api = await formsApi(env);
    second = await createTestApp(AppModule, { ...env, FORMS_DATABASE_URL: api.db.url, RATE_LIMIT_REQUESTS: '0' });
  });
  afterAll(async () => {
    await second?.close();
    await api?.close();
  });

  it('a key revoked through one replica is refused by the other in under 1000 ms', async () => {
    for (let round = 0; round < 3; round++) {
      const issued = await api.accounts.createApiKey(api.main.ownerId, { scopes: ['forms:read'] });
      await on(api.app, issued.api_key).get('/api/v1/me').expect(200);
      await on(second, issued.api_key).get('/api/v1/me').expect(200);
      const started = Date.now();
      await api.accounts.revokeApiKey(issued.id);
      expect(await msUntilStatus(() => on(second, issued.api_key).get('/api/v1/me'), 401, started)).toBeLessThan(1000);
    }
  });

  it('an editor downgraded to viewer through one replica stops creating forms on the other in under 1000 ms', async () => {
    const editor: Account = await api.newAccount('editor@example.com');
    // Creating a form reads the caller's memberships through the membership cache.
    const create = (replica: NestFastifyApplication) => () =>
      on(replica, editor.key).post('/api/v1/forms').send({ title: 'x', workspaceId: api.main.workspaceId });
    for (let round = 0; round < 3; round++) {
      await api.accounts.setMembership(api.main.workspaceId, editor.ownerId, 'editor');
      await create(api.app)().expect(201);
      await create(second)().expect(201);
      const started = Date.now();
      await api.accounts.setMembership(api.main.workspaceId, editor.ownerId, 'viewer');
      expect(await msUntilStatus(create(second), 403, started)).toBeLessThan(1000);
    }
  });
});
