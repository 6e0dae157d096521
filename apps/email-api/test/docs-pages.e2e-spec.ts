/**
 * The documentation pages as a person sees them, in headless Chromium: each page loads under its Content-Security-Policy
 * without a console error or a failed request, fetches nothing from outside loopback, and shows its heading; the API
 * reference renders every operation of the OpenAPI document. Screenshots of each page are written to
 * `<tmp>/postline-docs-screenshots/` for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, listenOnLoopback } from '@shared/testing';
import { DOCS_PAGE_ROUTES } from '@email/docs-pages';
import { emailApi, EmailApiHarness } from './helpers';

const SCREENSHOTS = path.join(tmpdir(), 'postline-docs-screenshots');
// Not a loopback host: any request the pages made to it would show up as leaving loopback.
const PUBLIC_BASE_URL = 'https://mail.example.test';

interface Visit {
  page: Page;
  problems: string[];
  requested: string[];
}

describe('email-api: the documentation pages in Chromium', () => {
  let api: EmailApiHarness;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    api = await emailApi({ PUBLIC_BASE_URL });
    origin = await listenOnLoopback(api.app);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  /** Opens a route, recording every request, console error, page error and failed or refused response. */
  async function visit(route: string): Promise<Visit> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
    page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    const response = await page.goto(`${origin}${route}`, { waitUntil: 'networkidle' });
    expect({ route, status: response?.status() }).toEqual({ route, status: 200 });
    return { page, problems, requested };
  }

  const leavingLoopback = (urls: string[]) => urls.filter((url) => !url.startsWith('data:') && new URL(url).hostname !== '127.0.0.1');

  const guides = Object.entries(DOCS_PAGE_ROUTES).filter(([name]) => name !== 'apiReference');

  it.each(guides)('%s (%s) loads cleanly, stays on loopback and shows its heading', async (name, route) => {
    const { page, problems, requested } = await visit(route === DOCS_PAGE_ROUTES.apiKeys ? `${route}?tab=api-keys` : route);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
    expect({ route, problems }).toEqual({ route, problems: [] });
    expect({ route, outside: leavingLoopback(requested) }).toEqual({ route, outside: [] });
    await expect(page.locator('h1').count()).resolves.toBe(1);
    await expect(page.locator('h1').isVisible()).resolves.toBe(true);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await expect(page.getByRole('navigation', { name: 'Documentation' }).locator('[aria-current=page]').count()).resolves.toBeLessThanOrEqual(1);
    // The site stylesheet applied: the header is laid out as a bar, not as unstyled text.
    await expect(page.locator('.site-header').evaluate((header) => getComputedStyle(header).borderBottomStyle)).resolves.toBe('solid');
    await page.close();
  });

  it('the authentication page has the anchor the 403 error links to', async () => {
    const { page, problems } = await visit('/docs/authentication#add-permissions');
    await expect(page.locator('#add-permissions').isVisible()).resolves.toBe(true);
    await expect(page.locator('#add-permissions').textContent()).resolves.toContain('insufficient_scope');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the API reference renders every operation of the OpenAPI document with Swagger UI', async () => {
    const document = (await api.as('').get('/v1/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item)).length;
    const { page, problems, requested } = await visit('/docs/api-reference');
    await page.locator('.opblock').first().waitFor();
    await expect(page.locator('.opblock').count()).resolves.toBe(operations);
    await expect(page.locator('.swagger-ui .info .title').textContent()).resolves.toContain('Postline Email Marketing API');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'apiReference.png'), fullPage: true });

    // One operation opened, as a reader would: its parameters and the scopes it needs show.
    const listSubscribers = page
      .locator('.opblock', { has: page.locator('[data-path="/v1/subscribers"]') })
      .filter({ hasText: 'GET' })
      .first();
    await listSubscribers.locator('.opblock-summary-control').click();
    await expect(listSubscribers.locator('.parameters').isVisible()).resolves.toBe(true);
    await expect(listSubscribers.textContent()).resolves.toContain('subscribers:read');
    await listSubscribers.screenshot({ path: path.join(SCREENSHOTS, 'apiReference-listSubscribers.png') });

    expect(problems).toEqual([]);
    expect(leavingLoopback(requested)).toEqual([]);
    await page.close();
  });
});
