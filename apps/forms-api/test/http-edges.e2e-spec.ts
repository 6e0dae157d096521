import { describeHttpEdges, SHORT_HTTP_TIMEOUTS } from '@shared/testing';
import { formsApi } from './helpers';

describeHttpEdges('forms-api', async () => {
  const api = await formsApi(SHORT_HTTP_TIMEOUTS);
  return { app: api.app, authorization: `Bearer ${api.main.key}`, list: '/api/v1/forms', itemPrefix: '/api/v1/forms/', create: '/api/v1/forms', close: api.close };
});
