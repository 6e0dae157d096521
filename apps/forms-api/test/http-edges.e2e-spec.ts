import request from 'supertest';
import { describeHttpEdges, SHORT_HTTP_TIMEOUTS } from '@shared/testing';
import { HostedPages } from '../src/public/hosted-pages';
import { formsApi, FormsApiHarness } from './helpers';

describeHttpEdges('forms-api', async () => {
  const api = await formsApi(SHORT_HTTP_TIMEOUTS);
  return {
    app: api.app,
    authorization: `Bearer ${api.main.key}`,
    list: '/api/v1/forms',
    itemPrefix: '/api/v1/forms/',
    create: '/api/v1/forms',
    close: api.close,
  };
});

describe('forms-api: hosted pages keep their own caching', () => {
  let api: FormsApiHarness;

  beforeAll(async () => {
    api = await formsApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it('the page is revalidated (no-cache) and the versioned script cached for good, not no-store', async () => {
    const page = await request(api.app.getHttpServer()).get('/f/no-such-form').expect(404);
    expect(page.headers['cache-control']).toBe('no-cache');
    const { fileName } = await api.app.get(HostedPages).script();
    const script = await request(api.app.getHttpServer()).get(`/f/assets/${fileName}`).expect(200);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
