import { describeHttpEdges, SHORT_HTTP_TIMEOUTS } from '@shared/testing';
import { emailApi } from './helpers';

describeHttpEdges('email-api', async () => {
  const api = await emailApi(SHORT_HTTP_TIMEOUTS);
  return { app: api.app, authorization: `Bearer ${api.key}`, list: '/v1/tags', itemPrefix: '/v1/subscribers/', create: '/v1/tags', close: api.close };
});
