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
    const stylesheet = await request(api.app.getHttpServer())
      .get(`/f/assets/${api.app.get(HostedPages).stylesheet().fileName}`)
      .expect(200);
    expect(stylesheet.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(stylesheet.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(stylesheet.text).toContain('.progress-bar{');
  });

  it('serves the theme font the page names from its own origin, cached for good, and nothing else under /f/fonts', async () => {
    const server = api.app.getHttpServer();
    const page = await request(server).get('/f/no-such-form').expect(404);
    expect(page.headers['content-security-policy']).toContain("font-src 'self';");
    const fontUrl = /url\("(\/f\/fonts\/inter-latin-wght-normal\.[0-9a-f]{8}\.woff2)"\)/.exec(page.text)?.[1];
    expect(fontUrl).toBeDefined();
    const font = await request(server).get(fontUrl!).responseType('blob').expect(200);
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((font.body as Buffer).subarray(0, 4).toString('latin1')).toBe('wOF2');
    await request(server).get('/f/fonts/inter-latin-wght-normal.00000000.woff2').expect(404);
    await request(server).get('/f/fonts/..%2Fpackage.json').expect(404);
  });
});
