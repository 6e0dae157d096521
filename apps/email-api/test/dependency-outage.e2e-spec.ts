import { AccessService } from '@email/access';
import { createTestApp, createTestDatabase, describeDependencyOutage, SHORT_DEPENDENCY_TIMEOUTS } from '@shared/testing';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../src/app.module';

describeDependencyOutage('email-api', async ({ redisUrl, throughProxy }) => {
  const db = await createTestDatabase('email');
  const env = { ...SHORT_DEPENDENCY_TIMEOUTS, REDIS_URL: redisUrl, EMAIL_DATABASE_URL: await throughProxy(db.url) };
  const app = await createTestApp(AppModule, env, EMAIL_HTTP_OPTIONS);
  const { api_key } = await app.get(AccessService).createWorkspace('Outage');
  return {
    app,
    authorization: `Bearer ${api_key}`,
    read: '/v1/tags',
    write: { path: '/v1/tags', body: { name: 'outage' } },
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
});
