import { AccountsService } from '@forms/accounts';
import { createTestApp, createTestDatabase, describeDependencyOutage, SHORT_DEPENDENCY_TIMEOUTS } from '@shared/testing';
import { AppModule } from '../src/app.module';
import { twoStepDraft } from './helpers';

describeDependencyOutage('forms-api', async ({ redisUrl, throughProxy }) => {
  const db = await createTestDatabase('forms');
  const env = { ...SHORT_DEPENDENCY_TIMEOUTS, REDIS_URL: redisUrl, FORMS_DATABASE_URL: await throughProxy(db.url) };
  const app = await createTestApp(AppModule, env);
  const { api_key } = await app.get(AccountsService).createAccount({ email: 'outage@example.com' });
  return {
    app,
    authorization: `Bearer ${api_key}`,
    read: '/api/v1/forms',
    write: { path: '/api/v1/forms', body: { draftSchema: twoStepDraft() } },
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
});
