import { AccessRepository } from '@email/access';
import { describeFailedAuthLimit, failedAuthLimitEnv } from '@shared/testing';
import { emailApi } from './helpers';

describeFailedAuthLimit('email-api', async () => {
  const api = await emailApi(failedAuthLimitEnv());
  return {
    app: api.app,
    read: '/v1/workspace',
    key: api.key,
    keyPrefix: 'ml_',
    spyOnKeyLookups: () => jest.spyOn(api.app.get(AccessRepository), 'findKeyByHash'),
    close: api.close,
  };
});
