/**
 * Every URL the API advertises answers. The walk collects the URLs in GET /v1, the capabilities document, llms.txt,
 * llms-full.txt, the API catalog, the OpenAPI document and a sample of error bodies (401, 403, 404), then follows the
 * links and files of every documentation page it reaches. URLs under the configured base are requested on the test
 * app: each must answer 2xx (anchors must exist on their page), except the features not offered yet, which must
 * answer their 501 error. URLs on other hosts are listed, and none may point at a route this server serves.
 */
import { UNAVAILABLE_FEATURES } from '@email/platform';
import { saveConnection, smtpConnection } from './broadcasts-fixtures';
import { emailApi, EmailApiHarness } from './helpers';

const BASE = 'https://mail.example.test';

interface Found {
  url: string;
  from: string;
}

/** Every http(s) URL in a JSON value (string values) or a text (bare or in markdown links). */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return (value.match(/https?:\/\/[^\s)"'<>`]+/g) ?? []).map((url) => url.replace(/[.,;:]+$/, ''));
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

/** The links and files a page refers to (href, src and the reference's document URL), resolved against the page. */
function linksOf(page: string, pageUrl: string): string[] {
  return [...page.matchAll(/\s(?:href|src|data-openapi-url)="([^"]*)"/g)]
    .map((match) => match[1].replace(/&amp;/g, '&'))
    .filter((link) => !link.startsWith('data:'))
    .map((link) => new URL(link, pageUrl).href);
}

/** Route templates (Nest syntax) of the features not offered yet, as patterns with the code they answer. */
const NOT_YET = UNAVAILABLE_FEATURES.flatMap(({ code, paths }) =>
  paths.map((path) => ({ code, pattern: new RegExp(`^/${path.replace(/[.]/g, '\\.').replace(/:[a-z_]+/g, '[^/]+')}$`) })),
);

/** First segments of the routes this server answers on; a link to one of them on another host is a mistake. */
const OUR_ROUTES = /^\/(v1|docs|settings|mcp|oauth|llms(-full)?\.txt|\.well-known)(\/|$)/;

describe('email-api: every advertised URL answers', () => {
  let h: EmailApiHarness;
  let narrowKey: string;

  beforeAll(async () => {
    h = await emailApi({ PUBLIC_BASE_URL: BASE });
    // A workspace that can send: without a connection, capabilities would advertise the web app's setup page (APP_BASE_URL).
    await saveConnection(h.app, h.workspaceId, smtpConnection('edc_advertised', 2525));
    narrowKey = await h.keyWith(['tags:read']);
  });
  afterAll(() => h?.close());

  /** The URLs the API hands out before any link is followed, each with where it was found. */
  async function advertised(): Promise<Found[]> {
    const found: Found[] = [];
    const add = (from: string, value: unknown) => found.push(...urlsIn(value).map((url) => ({ url, from })));
    add('GET /v1', (await h.as('').get('/v1').expect(200)).body);
    add('GET /v1/capabilities', (await h.as().get('/v1/capabilities').expect(200)).body);
    add('GET /v1/openapi.json', (await h.as('').get('/v1/openapi.json').expect(200)).body);
    add('/llms.txt', (await h.as('').get('/llms.txt').expect(200)).text);
    add('/llms-full.txt', (await h.as('').get('/llms-full.txt').expect(200)).text);
    add('/.well-known/api-catalog', JSON.parse((await h.as('').get('/.well-known/api-catalog').expect(200)).text));
    add('401 error', (await h.as('').get('/v1/workspace').expect(401)).body);
    add('403 error', (await h.as(narrowKey).get('/v1/subscribers').expect(403)).body);
    add('404 error', (await h.as().get('/v1/no-such-route').expect(404)).body);
    return found;
  }

  it('answers every URL under the base, follows the docs pages, and keeps links to other hosts off our routes', async () => {
    const queue = await advertised();
    const visited = new Map<string, string>(); // URL without fragment → where first found
    const pages = new Map<string, string>(); // HTML pages by URL without fragment
    const failures: string[] = [];
    const external = new Set<string>();
    const anchors: Found[] = [];

    while (queue.length) {
      const { url, from } = queue.shift()!;
      if (!url.startsWith(`${BASE}/`) && url !== BASE) {
        external.add(url);
        if (OUR_ROUTES.test(new URL(url).pathname)) failures.push(`${url} (from ${from}) points at one of our routes on another host`);
        continue;
      }
      const [target, fragment] = url.split('#');
      if (fragment) anchors.push({ url, from });
      if (visited.has(target)) continue;
      visited.set(target, from);

      const path = target.slice(BASE.length) || '/';
      const res = await h.as().get(path);
      if (path === '/mcp') {
        // The MCP endpoint is stateless: it takes JSON-RPC by POST and tells a GET so (mcp.e2e-spec covers the rest).
        if (res.status !== 405 || res.headers.allow !== 'POST') failures.push(`${path} (from ${from}): ${res.status}, expected 405 with Allow: POST`);
        continue;
      }
      const notYet = NOT_YET.find(({ pattern }) => pattern.test(new URL(target).pathname));
      if (notYet) {
        if (res.status !== 501 || res.body.error?.code !== notYet.code)
          failures.push(`${path} (from ${from}): ${res.status} ${res.text.slice(0, 120)}, expected 501 ${notYet.code}`);
        continue;
      }
      if (res.status === 302 && res.headers.location?.startsWith('/')) {
        queue.push({ url: `${BASE}${res.headers.location}`, from: path });
        continue;
      }
      if (res.status < 200 || res.status > 299) {
        failures.push(`${path} (from ${from}): ${res.status} ${res.text.slice(0, 120)}`);
        continue;
      }
      if (/^text\/html/.test(res.headers['content-type'] ?? '')) {
        pages.set(target, res.text);
        queue.push(...linksOf(res.text, target).map((link) => ({ url: link, from: path })));
      }
    }
    for (const { url, from } of anchors) {
      const [target, fragment] = url.split('#');
      const page = pages.get(target);
      if (page && !page.includes(` id="${fragment}"`)) failures.push(`${url} (from ${from}): no element with id "${fragment}"`);
    }

    expect(failures).toEqual([]);
    // The walk reached what the issue names, so a collection that silently finds nothing cannot pass.
    const paths = [...visited.keys()].map((url) => url.slice(BASE.length));
    expect(paths).toEqual(
      expect.arrayContaining([
        '/docs',
        '/docs/api-reference',
        '/docs/authentication',
        '/settings?tab=api-keys',
        '/mcp',
        '/.well-known/oauth-authorization-server',
        '/v1/webhook-subscriptions',
        '/v1/openapi.json',
        '/llms-full.txt',
      ]),
    );
    expect(paths.filter((path) => path.startsWith('/docs/assets/'))).toHaveLength(4);
    expect(anchors.map(({ url }) => url)).toContain(`${BASE}/docs/authentication#add-permissions`);
    // Other hosts: only the standards the documents cite.
    expect([...external].filter((url) => !url.startsWith('https://www.rfc-editor.org/'))).toEqual([]);
  });

  it('serves pages with their CSP and revalidation, static files cached for a year and compressed, and 304 to a matching ETag', async () => {
    const page = await h.as('').get('/docs/api-reference').expect(200);
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': expect.stringContaining("script-src 'self'"),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    });
    await h.as('').get('/docs/api-reference').set('if-none-match', page.headers.etag).expect(304);

    const bundle = /src="(\/docs\/assets\/swagger-ui-bundle\.[0-9a-f]+\.js)"/.exec(page.text)![1];
    const plain = await h.as('').get(bundle).set('accept-encoding', 'identity').expect(200);
    expect(plain.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const compressed = await h.as('').get(bundle).set('accept-encoding', 'gzip, br').expect(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(Number(compressed.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']) / 2);
    await h.as('').get(bundle).set('if-none-match', plain.headers.etag).expect(304);
    await h.as('').get('/docs/assets/swagger-ui-bundle.js').expect(404);
    await h.as('').get('/').expect(302).expect('location', '/docs');
  });

  it('serves the OAuth metadata and answers the token endpoint with an OAuth error, with or without a key', async () => {
    for (const key of [undefined, '']) {
      const metadata = await h.as(key).get('/.well-known/openid-configuration').expect(200);
      expect(metadata.body).toMatchObject({ token_endpoint: expect.stringMatching(/\/oauth\/token$/), code_challenge_methods_supported: ['S256'] });
      const token = await h.as(key).post('/oauth/token').type('form').send({ grant_type: 'password' }).expect(400);
      expect(token.body).toEqual({ error: 'invalid_request', error_description: 'client_id is required.' });
    }
  });
});
