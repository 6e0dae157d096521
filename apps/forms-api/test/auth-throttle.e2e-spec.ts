import { AccountsRepository } from '@forms/accounts';
import { describeFailedAuthLimit, failedAuthLimitEnv } from '@shared/testing';
import { formsApi } from './helpers';

describeFailedAuthLimit('forms-api', async () => {
  const api = await formsApi(failedAuthLimitEnv());
  return {
    app: api.app,
    read: '/api/v1/me',
    key: api.main.key,
    keyPrefix: 'fsk_',
    spyOnKeyLookups: () => jest.spyOn(api.app.get(AccountsRepository), 'findKeyByHash'),
    close: api.close,
  };
});
