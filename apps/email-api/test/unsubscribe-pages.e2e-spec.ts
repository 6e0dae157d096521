/**
 * The unsubscribe pages as a recipient sees them, in headless Chromium on a phone-sized and a desktop viewport: the
 * confirm page (in the workspace's name, masked address) loads under its CSP with no console error and no request
 * beyond the page itself, its button (a plain form, no JavaScript) leads to the done page, and the subscriber is then
 * Unsubscribed. Screenshots go to `<tmp>/postline-unsubscribe-screenshots/` for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { EmailPrisma } from '@email/data-access';
import { UnsubscribeTokens, unsubscribePath } from '@email/delivery';
import { trustedWorkspaceId } from '@shared/core';
import { launchChromium, listenOnLoopback } from '@shared/testing';
import { emailApi, EmailApiHarness } from './helpers';

const SCREENSHOTS = path.join(tmpdir(), 'postline-unsubscribe-screenshots');

describe('email-api: the unsubscribe pages in Chromium', () => {
  let api: EmailApiHarness;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    api = await emailApi();
    origin = await listenOnLoopback(api.app);
    await api.app.get(EmailPrisma).workspace.update({ where: { id: api.workspaceId }, data: { name: 'Northwind Coffee <Roasters>' } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  for (const [device, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    it(`confirm → done on a ${device}, with JavaScript off`, async () => {
      const subscriber = (
        await api
          .as()
          .post('/v1/subscribers')
          .send({ email: `${device}.reader@example.com` })
          .expect(201)
      ).body.data as { id: string };
      const token = api.app.get(UnsubscribeTokens).sign({ workspaceId: trustedWorkspaceId(api.workspaceId), subscriberId: subscriber.id });
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      const problems: string[] = [];
      const requested: string[] = [];
      page.on('request', (request) => requested.push(`${request.method()} ${new URL(request.url()).pathname}`));
      page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
      page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));

      const url = `${origin}${unsubscribePath(token)}`;
      expect((await page.goto(url, { waitUntil: 'load' }))?.status()).toBe(200);
      const heading = page.getByRole('heading', { level: 1 });
      expect(await heading.textContent()).toBe(`Unsubscribe ${device[0]}•••@e•••.com from Northwind Coffee <Roasters>?`);
      const button = page.getByRole('button', { name: 'Unsubscribe' });
      const box = (await button.boundingBox())!;
      // Readable and tappable: the button fits the viewport and is a comfortable touch target.
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${device}-confirm.png`), fullPage: true });

      await Promise.all([page.waitForURL(url), button.click()]);
      expect(await heading.textContent()).toBe('You are unsubscribed');
      expect(await page.locator('main').textContent()).toContain(
        `${device[0]}•••@e•••.com will no longer receive marketing emails from Northwind Coffee <Roasters>.`,
      );
      await page.screenshot({ path: path.join(SCREENSHOTS, `${device}-done.png`), fullPage: true });

      expect(problems).toEqual([]);
      const tokenPath = unsubscribePath(token);
      expect(requested).toEqual([`GET ${tokenPath}`, `POST ${tokenPath}`]);
      const saved = await api.app.get(EmailPrisma).subscriber.findUniqueOrThrow({ where: { id: subscriber.id } });
      expect(saved.status).toBe('Unsubscribed');
      await context.close();
    });
  }
});
