/** Element ids of fields whose ids look like another field's parts, and text lengths counted as the server counts them, in Chromium. */
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { DEFAULT_THANK_YOU_SCREEN_ID, type DraftSchema, type Field } from '@forms/draft-schema';
import { launchChromium } from '@shared/testing';
import { startServer, type Recorded } from './hosted-page-server.fixture';

const form = (fields: Field[]): DraftSchema => ({
  version: 1,
  steps: [{ id: 's-title', title: 'Questions', fields }],
  settings: {
    submitButtonLabel: 'Send',
    hidden: { variables: [] },
    submissions: { thankYou: { id: DEFAULT_THANK_YOU_SCREEN_ID, title: 'Thanks!' }, thankYouScreens: [] },
  },
  theme: { primaryColor: '#0f766e', background: { type: 'color', value: '#ffffff' }, fontFamily: 'Georgia' },
  workflow: { version: 1, enabled: true, rules: [], fallbacks: {} },
});

const forms: Record<string, DraftSchema> = {
  // `q-error` and `c-0` are what the error slot of `q` and the first option of `c` were once called.
  pub_ids: form([
    { id: 'q-error', type: 'text', label: 'Nickname', required: false },
    { id: 'q', type: 'email', label: 'Email', required: true },
    { id: 'c-0', type: 'text', label: 'Company', required: false },
    {
      id: 'c',
      type: 'single_choice',
      label: 'Pick one',
      required: true,
      options: [
        { id: 'o_a', label: 'Opt A', value: 'a' },
        { id: 'o_b', label: 'Opt B', value: 'b' },
      ],
    },
  ]),
  pub_len: form([{ id: 'short', type: 'text', label: 'Three characters', required: true, maxLength: 3 }]),
};

describe('hosted page ids and lengths in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  const recorded: Recorded = { submissions: [], uploads: [] };

  beforeAll(async () => {
    ({ server, origin } = await startServer(forms, recorded));
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("labels and error messages reach their own field when field ids look like another field's parts", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/f/pub_ids`);

    await page.getByText('Opt A').click();
    await expect(page.getByRole('radio', { name: 'Opt A' }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Company').inputValue()).resolves.toBe('');

    await page.getByRole('button', { name: 'Send' }).click();
    const email = page.getByLabel('Email');
    await expect(email.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('[data-field="q"] .field-error').textContent()).resolves.toBe('This field is required.');
    await expect(page.locator('[data-field="q-error"] .field-error').textContent()).resolves.toBe('');
    // The email input is described by that same slot.
    const slotId = await page.locator('[data-field="q"] .field-error').getAttribute('id');
    await expect(email.getAttribute('aria-describedby')).resolves.toContain(slotId);
    await expect(page.getByLabel('Nickname').getAttribute('aria-invalid')).resolves.toBeNull();

    await page.screenshot({ path: join(tmpdir(), 'hosted-page-ids.png'), fullPage: true });

    await email.fill('ada@example.org');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thanks!').waitFor();
    expect(recorded.submissions.at(-1)?.values).toEqual({ q: 'ada@example.org', c: 'a' });
    await page.close();
  }, 30_000);

  it('lets a respondent type every character the server accepts: lengths count characters, not UTF-16 units', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/f/pub_len`);
    const input = page.getByLabel('Three characters');

    await input.pressSequentially('😀😀😀😀');
    await expect(input.inputValue()).resolves.toBe('😀😀😀😀');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.locator('[data-field="short"] .field-error').textContent()).resolves.toBe('Enter at most 3 characters.');

    await input.fill('');
    await input.pressSequentially('😀😀😀');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thanks!').waitFor();
    expect(recorded.submissions.at(-1)?.values).toEqual({ short: '😀😀😀' });
    await page.close();
  }, 30_000);
});
