/** The hosted page in a real Chromium, served by the test server of hosted-page-server.fixture.ts. */
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_THANK_YOU_SCREEN_ID, type DraftSchema } from '@forms/draft-schema';
import { walk } from '@forms/runtime';
import { launchChromium } from '@shared/testing';
import { startServer, type Recorded } from './hosted-page-server.fixture';

const schema: DraftSchema = {
  version: 1,
  steps: [
    {
      id: 's_about',
      title: 'About you',
      fields: [
        { id: 'name', type: 'text', label: 'Your name', required: true },
        { id: 'email', type: 'email', label: 'Email address', required: true, description: 'We never share it.' },
        {
          id: 'plan',
          type: 'single_choice',
          label: 'Plan',
          required: true,
          options: [
            { id: 'o_free', label: 'Free', value: 'free' },
            { id: 'o_pro', label: 'Pro', value: 'pro' },
          ],
        },
        { id: 'source', type: 'hidden', label: 'Source', required: false, name: 'utm_source', dataType: 'text' },
        { id: 'ref', type: 'hidden', label: 'Referrer', required: false, name: 'ref', dataType: 'number' },
      ],
    },
    {
      id: 's_company',
      title: 'Your company',
      fields: [{ id: 'company', type: 'text', label: 'Company name', required: true }],
    },
    {
      id: 's_quiz',
      title: 'A little quiz',
      fields: [
        {
          id: 'pet',
          type: 'single_choice',
          label: 'Favourite pet',
          required: true,
          options: [
            { id: 'o_cat', label: 'Cat', value: 'cat' },
            { id: 'o_dog', label: 'Dog', value: 'dog' },
          ],
        },
        {
          id: 'rank',
          type: 'ranking',
          label: 'Rank the snacks',
          required: false,
          options: ['Apple', 'Bread', 'Cheese'].map((label) => ({ id: label, label, value: label.toLowerCase() })),
        },
        { id: 'cv', type: 'file_upload', label: 'Attach a photo', required: false, maxFiles: 1, maxSizeMb: 1, accept: ['image/*'] },
        { id: 'sign', type: 'signature', label: 'Signature', required: true },
        { id: 'deposit', type: 'payment', label: 'Deposit', required: false, currency: 'EUR', amount: { type: 'variable', variableId: 'total' } },
      ],
    },
  ],
  settings: {
    submitButtonLabel: 'Send answers',
    hidden: { variables: [{ id: 'total', name: 'total', type: 'number', initialValue: 5 }] },
    submissions: {
      thankYou: { id: DEFAULT_THANK_YOU_SCREEN_ID, title: 'Thanks!' },
      thankYouScreens: [
        { id: 'ty_cat', title: 'You are a cat person' },
        { id: 'ty_dog', title: 'You are a dog person', showSocialShareIcons: true },
      ],
    },
  },
  theme: { primaryColor: '#0f766e', background: { type: 'color', value: '#f0fdfa' }, fontFamily: 'Georgia' },
  workflow: {
    version: 1,
    enabled: true,
    rules: [
      {
        id: 'r_free',
        stepId: 's_about',
        match: 'all',
        conditions: [{ id: 'c1', subject: { type: 'field', fieldId: 'plan' }, operator: 'equals', value: 'free' }],
        actions: [{ id: 'a1', variableId: 'total', operation: 'add', operand: { type: 'field', fieldId: 'ref' } }],
        target: { type: 'step', stepId: 's_quiz' },
      },
    ],
    fallbacks: {},
  },
  quiz: {
    enabled: true,
    type: 'match',
    mode: 'personality',
    endings: [
      { id: 'e_cat', screenId: 'ty_cat' },
      { id: 'e_dog', screenId: 'ty_dog' },
    ],
    mappings: [
      { id: 'm1', fieldId: 'pet', optionValue: 'cat', endingId: 'e_cat', points: 1 },
      { id: 'm2', fieldId: 'pet', optionValue: 'dog', endingId: 'e_dog', points: 1 },
    ],
  },
};

/** One step whose default ending sends the respondent on (`redirect_to`). */
const redirecting: DraftSchema = {
  ...schema,
  steps: [{ id: 's_only', title: 'Quick question', fields: [{ id: 'q', type: 'text', label: 'Anything to add?', required: false }] }],
  settings: {
    ...schema.settings,
    submissions: { thankYou: { id: DEFAULT_THANK_YOU_SCREEN_ID, title: 'Bye', redirectUrl: 'https://next.test/welcome' }, thankYouScreens: [] },
  },
  workflow: { version: 1, enabled: true, rules: [], fallbacks: {} },
  quiz: undefined,
};
const forms: Record<string, DraftSchema> = { pub_x: schema, pub_r: redirecting };

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe('hosted form page in Chromium', () => {
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

  it('validates, routes, keeps variables, uploads, submits and shows the quiz ending', async () => {
    const page = await browser.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    await page.goto(`${origin}/f/pub_x?utm_source=newsletter&ref=10`);

    // Every control has an accessible name; the labels resolve to their controls.
    const unnamed = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLInputElement>('input, select, textarea, button'))
        .filter(
          (control) =>
            !(control.labels?.length || control.getAttribute('aria-label') || control.getAttribute('aria-labelledby') || control.textContent?.trim()),
        )
        .map((control) => control.outerHTML),
    );
    expect(unnamed).toEqual([]);
    for (const label of ['Your name', 'Email address', 'Company name', 'Attach a photo']) await expect(page.getByLabel(label).count()).resolves.toBe(1);
    await expect(page.getByRole('radiogroup', { name: 'Plan' }).count()).resolves.toBe(1);
    await expect(page.getByLabel('Or type your full name to sign').count()).resolves.toBe(1);

    // Next on an empty step: messages in the error slots, aria-invalid, focus on the first invalid field.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.locator('[id="f.name.error"]').textContent()).resolves.toBe('This field is required.');
    await expect(page.getByLabel('Your name').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('[id="f.plan.error"]').textContent()).resolves.toBe('This field is required.');
    await expect(focusedId(page)).resolves.toBe('f.name');

    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Email address').fill('not-an-email');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.locator('[id="f.email.error"]').textContent()).resolves.toBe('Enter a valid email address.');
    await expect(page.getByLabel('Email address').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('Your name').getAttribute('aria-invalid')).resolves.toBeNull();
    await expect(focusedId(page)).resolves.toBe('f.email');

    // Keyboard: Tab into the radio group, Space picks the focused option, Enter moves on.
    await page.getByLabel('Email address').fill('blocked@example.com');
    await page.keyboard.press('Tab');
    await expect(focusedId(page)).resolves.toBe('f.plan.0');
    await page.keyboard.press('Space');
    await expect(page.getByRole('radio', { name: 'Free' }).isChecked()).resolves.toBe(true);
    await page.keyboard.press('Enter');

    // The free plan skips the company step and adds the hidden `ref` (10) to the total (5): 15.00.
    await expect(page.locator('[id="step.s_quiz"]').isVisible()).resolves.toBe(true);
    await expect(page.locator('[id="step.s_company"]').isHidden()).resolves.toBe(true);
    await expect(focusedId(page)).resolves.toBe('f.pet.0');
    await expect(page.locator('#form-announcer').textContent()).resolves.toBe('Step 3 of 3: A little quiz');
    await expect(page.getByRole('progressbar', { name: 'Form progress' }).getAttribute('aria-valuetext')).resolves.toBe('Step 3 of 3');
    await expect(page.locator('[data-field="deposit"] .payment-amount').textContent()).resolves.toBe('€15.00');
    await expect(page.getByRole('button', { name: 'Next' }).isHidden()).resolves.toBe(true);

    // Back restores the variables: going forward again does not add twice.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(focusedId(page)).resolves.toBe('f.name');
    await expect(page.locator('#form-progress-label').textContent()).resolves.toBe('Step 1 of 3');
    await expect(page.getByLabel('Your name').inputValue()).resolves.toBe('Ada');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.locator('[data-field="deposit"] .payment-amount').textContent()).resolves.toBe('€15.00');

    // Arrow keys move the choice within a radio group.
    await page.getByRole('radio', { name: 'Cat' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('radio', { name: 'Dog' }).isChecked()).resolves.toBe(true);

    // Ranking by keyboard: Enter on "Move Cheese up".
    await page.getByRole('button', { name: 'Move Cheese up' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Move Cheese up');
    await expect(page.locator('#form-announcer').textContent()).resolves.toBe('Cheese moved to position 2 of 3');

    await page.getByLabel('Attach a photo').setInputFiles({ name: 'me & you.png', mimeType: 'image/png', buffer: Buffer.from('png-bytes') });
    await page.locator('[data-field="cv"] .upload-list').getByText('me & you.png: uploaded').waitFor();

    // A required signature: the typed name is the keyboard alternative to drawing.
    await page.getByRole('button', { name: 'Send answers' }).click();
    await expect(page.locator('[id="f.sign.error"]').textContent()).resolves.toBe('This field is required.');
    await page.getByLabel('Or type your full name to sign').fill('Ada Lovelace');

    // The server rejects the email: its message shows under the field, back on the first step.
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.locator('[id="f.email.error"]').getByText('This address cannot be used.').waitFor();
    await expect(page.locator('[id="step.s_about"]').isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Email address').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(focusedId(page)).resolves.toBe('f.email');

    await page.getByLabel('Email address').fill('ADA@example.org');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Send answers' }).click();

    const ending = page.locator('[id="ty.ty_dog"]');
    await ending.waitFor({ state: 'visible' });
    await expect(page.locator('#hosted-form').isHidden()).resolves.toBe(true);
    await expect(page.locator('[id="ty.ty_cat"]').isHidden()).resolves.toBe(true);
    await expect(focusedId(page)).resolves.toBe('ty.ty_dog.title');
    await expect(ending.getByRole('link', { name: 'Share on LinkedIn' }).getAttribute('href')).resolves.toBe(
      `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(`${origin}/f/pub_x`)}`,
    );

    expect(recorded.uploads).toHaveLength(1);
    expect(recorded.uploads[0].headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'x-file-type': 'image/png',
      'x-file-name': 'me%20%26%20you.png',
    });
    expect(recorded.submissions).toHaveLength(2);
    const [rejected, accepted] = recorded.submissions;
    expect(accepted).toEqual({
      values: {
        name: 'Ada',
        email: 'ada@example.org',
        plan: 'free',
        pet: 'dog',
        rank: ['apple', 'cheese', 'bread'],
        cv: [{ id: 'upl_1', fileName: 'me & you.png', mimeType: 'image/png', size: 9, url: 'https://files.test/upl_1' }],
        sign: expect.stringMatching(/^data:image\/png;base64,/),
      },
      hiddenValues: { utm_source: 'newsletter', ref: '10' },
      completedStepIds: ['s_about', 's_quiz'],
      analyticsSessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(rejected.analyticsSessionId).toBe(accepted.analyticsSessionId);
    expect(walk(schema, accepted.values, accepted.hiddenValues)).toMatchObject({ visitedStepIds: ['s_about', 's_quiz'], variables: { total: 15 } });

    // The deliberate 422 is the only console error (Chromium logs failed responses).
    expect(consoleErrors.filter((text) => !text.includes('status of 422'))).toEqual([]);
    await page.close();
  }, 90_000);

  it('slides the next step in, unless the person prefers reduced motion', async () => {
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const page = await browser.newPage({ reducedMotion });
      await page.goto(`${origin}/f/pub_x`);
      await page.getByLabel('Your name').fill('Ada');
      await page.getByLabel('Email address').fill('ada@example.org');
      await page.getByRole('radio', { name: 'Pro' }).check();
      await page.keyboard.press('Enter');
      await page.locator('[id="step.s_company"]').waitFor();
      const animation = await page.locator('[id="step.s_company"]').evaluate((element) => getComputedStyle(element).animationName);
      expect([reducedMotion, animation]).toEqual([reducedMotion, reducedMotion === 'reduce' ? 'none' : 'step-forward']);
      await expect(focusedId(page)).resolves.toBe('f.company');
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(page.locator('[id="step.s_about"]').evaluate((element) => getComputedStyle(element).animationName)).resolves.toBe(
        reducedMotion === 'reduce' ? 'none' : 'step-back',
      );
      await page.close();
    }
  }, 30_000);

  it('follows redirect_to after submitting', async () => {
    const page = await browser.newPage();
    await page.route('https://next.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Welcome</title>' }));
    await page.goto(`${origin}/f/pub_r`);
    await expect(page.getByRole('button', { name: 'Next' }).isHidden()).resolves.toBe(true);
    await page.getByLabel('Anything to add?').fill('Nope');
    await page.getByLabel('Anything to add?').press('Enter');
    await page.waitForURL('https://next.test/welcome');
    expect(recorded.submissions[recorded.submissions.length - 1]).toMatchObject({ values: { q: 'Nope' }, completedStepIds: ['s_only'] });
    await page.close();
  }, 30_000);
});
