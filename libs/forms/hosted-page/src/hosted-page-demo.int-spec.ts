/**
 * The demo form filled in with the keyboard alone in Chromium, at desktop and phone widths: the progress indicator,
 * the components, the ending screen, and screenshots of each step compared with committed baselines.
 */
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_THANK_YOU_SCREEN_ID, type DraftSchema } from '@forms/draft-schema';
import { launchChromium } from '@shared/testing';
import { startServer, type Recorded } from './hosted-page-server.fixture';
import { expectScreenshot, solidPng } from './screenshots.fixture';

const option = (label: string) => ({ id: `o_${label.toLowerCase()}`, label, value: label.toLowerCase() });

const demo: DraftSchema = {
  version: 1,
  steps: [
    {
      id: 's_you',
      title: 'About you',
      description: 'Two minutes, three short steps.',
      fields: [
        { id: 'name', type: 'text', label: 'Your name', required: true, placeholder: 'Ada Lovelace' },
        { id: 'email', type: 'email', label: 'Work email', required: true, description: 'Only to follow up on your answers.' },
        { id: 'role', type: 'single_choice', label: 'What do you do?', required: true, options: ['Design', 'Engineering', 'Product'].map(option) },
      ],
    },
    {
      id: 's_experience',
      title: 'Your experience',
      fields: [
        { id: 'nps', type: 'nps', label: 'How likely are you to recommend us to a friend?', required: true },
        { id: 'stars', type: 'rating', label: 'Rate the onboarding', required: true, max: 5, icon: 'star' },
        { id: 'ease', type: 'opinion_scale', label: 'How easy was setting up?', required: false, min: 1, max: 5, minLabel: 'Hard', maxLabel: 'Easy' },
      ],
    },
    {
      id: 's_more',
      title: 'Anything else?',
      fields: [
        { id: 'liked', type: 'multiple_choice', label: 'What did you like?', required: false, options: ['Speed', 'Design', 'Price'].map(option) },
        { id: 'comments', type: 'long_text', label: 'Comments', required: false, placeholder: 'Tell us more' },
        { id: 'shot', type: 'file_upload', label: 'A screenshot, if it helps', required: false, maxFiles: 1, maxSizeMb: 5, accept: ['image/*'] },
        { id: 'consent', type: 'checkbox', label: 'You may contact me about my answers', required: true },
      ],
    },
  ],
  settings: {
    submitButtonLabel: 'Send feedback',
    hidden: { variables: [] },
    submissions: {
      thankYou: {
        id: DEFAULT_THANK_YOU_SCREEN_ID,
        title: 'Thank you, that helps a lot!',
        description: 'We read every answer. Tell a friend who might like us too.',
        logoUrl: 'https://img.test/logo.png',
        mediaUrl: 'https://img.test/team.png',
        mediaType: 'image',
        mediaAlt: 'Our team waving',
        showButton: true,
        buttonLabel: 'Back to the website',
        buttonUrl: 'https://example.test/',
        showSocialShareIcons: true,
        socialShareLinks: { x: 'https://x.test/share/demo' },
        titleSize: 'large',
        textAlign: 'center',
        headingColor: '#134e4a',
        descriptionColor: '#334155',
        buttonBackgroundColor: '#0f766e',
        buttonTextColor: '#ffffff',
        buttonRadius: 24,
      },
      thankYouScreens: [],
    },
  },
  theme: { primaryColor: '#0f766e', background: { type: 'color', value: '#ccfbf1' }, fontFamily: 'Inter', borderRadius: 12 },
  workflow: { version: 1, enabled: true, rules: [], fallbacks: {} },
};

/** One step ending on a screen over a dimmed photo, left-aligned, with light text. */
const photoEnding: DraftSchema = {
  ...demo,
  steps: [{ id: 's_one', title: 'One question', fields: [{ id: 'q', type: 'text', label: 'Your favourite colour', required: false }] }],
  settings: {
    ...demo.settings,
    submissions: {
      thankYou: {
        id: DEFAULT_THANK_YOU_SCREEN_ID,
        title: 'You are in',
        description: 'See you at the meetup on Friday.',
        titleSize: 'medium',
        textAlign: 'left',
        backgroundImageUrl: 'https://img.test/backdrop.png',
        backgroundImageBrightness: 50,
        backgroundImageAttribution: {
          provider: 'unsplash',
          photographerName: 'Jane Doe',
          photographerUrl: 'https://photos.test/jane',
          sourceName: 'Photos',
          sourceUrl: 'https://photos.test/',
          photoUrl: 'https://photos.test/1',
        },
        headingColor: '#ffffff',
        descriptionColor: '#e2e8f0',
        showButton: true,
        buttonLabel: 'Add to calendar',
        buttonUrl: 'https://example.test/calendar',
        buttonOpenInNewTab: true,
        buttonBackgroundColor: '#fde047',
        buttonTextColor: '#1f2328',
        buttonRadius: 4,
        showSocialShareIcons: true,
      },
      thankYouScreens: [],
    },
  },
  theme: { primaryColor: '#7c3aed', background: { type: 'image', value: 'https://img.test/page.png' }, fontFamily: 'Lora', borderRadius: 4 },
};

/** A form written in Arabic: the page reads right to left. */
const arabic: DraftSchema = {
  ...demo,
  steps: [
    {
      id: 's_a',
      title: 'عنك',
      fields: [
        { id: 'name', type: 'text', label: 'اسمك', required: true },
        { id: 'nps', type: 'nps', label: 'ما مدى احتمال أن توصي بنا لصديق؟', required: true, minLabel: 'غير محتمل', maxLabel: 'محتمل جدا' },
      ],
    },
    { id: 's_b', title: 'ملاحظات', fields: [{ id: 'notes', type: 'long_text', label: 'تعليقاتك', required: false }] },
  ],
  settings: {
    ...demo.settings,
    submitButtonLabel: 'إرسال',
    submissions: { thankYou: { id: DEFAULT_THANK_YOU_SCREEN_ID, title: 'شكرا لك!', description: 'تم استلام إجاباتك.' }, thankYouScreens: [] },
  },
  theme: { primaryColor: '#b45309', background: { type: 'color', value: '#fef3c7' }, fontFamily: 'Noto Sans Arabic', borderRadius: 10 },
};

const TITLES: Record<string, string> = { pub_demo: 'Product feedback', pub_photo: 'Meetup sign-up', pub_rtl: 'استبيان رضا العملاء' };

const VIEWPORTS = { desktop: { width: 1280, height: 900 }, mobile: { width: 390, height: 844 } } as const;

/** The images forms link, by path; any other is a plain teal rectangle. */
const IMAGES: Record<string, Buffer> = {
  '/logo.png': solidPng(96, 96, [15, 118, 110]),
  '/backdrop.png': solidPng(640, 400, [234, 88, 12]),
  '/page.png': solidPng(64, 64, [196, 181, 253]),
};

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

async function pressTimes(page: Page, key: string, times: number): Promise<void> {
  for (let index = 0; index < times; index++) await page.keyboard.press(key);
}

describe('the demo form in Chromium, keyboard only', () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  const recorded: Recorded = { submissions: [], uploads: [] };

  beforeAll(async () => {
    ({ server, origin } = await startServer({ pub_demo: demo, pub_photo: photoEnding, pub_rtl: arabic }, recorded, (publicId) => TITLES[publicId]));
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** A page at a viewport, failing the test on any script or console error; images a form links are plain PNGs. */
  async function openPage(publicId: string, viewport: { width: number; height: number }, errors: string[]): Promise<Page> {
    const page = await browser.newPage({ viewport, reducedMotion: 'reduce' });
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.route('https://img.test/**', (route) => {
      const name = new URL(route.request().url()).pathname;
      const body = IMAGES[name] ?? solidPng(480, 240, [153, 246, 228]);
      return route.fulfill({ contentType: 'image/png', body });
    });
    await page.goto(`${origin}/f/${publicId}`);
    return page;
  }

  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    it(`ends on a screen over a dimmed photo, left-aligned, with its own colours (${width})`, async () => {
      const errors: string[] = [];
      const page = await openPage('pub_photo', viewport, errors);
      await page.getByLabel('Your favourite colour').fill('Purple');
      await page.keyboard.press('Enter');
      const ending = page.locator(`[id="ty.${DEFAULT_THANK_YOU_SCREEN_ID}"]`);
      await ending.waitFor({ state: 'visible' });
      await expect(ending.locator('.ty-backdrop').evaluate((element) => getComputedStyle(element).filter)).resolves.toBe('brightness(0.5)');
      await expect(ending.evaluate((element) => getComputedStyle(element).textAlign)).resolves.toBe('left');
      await expect(ending.getByRole('link', { name: 'Add to calendar' }).getAttribute('target')).resolves.toBe('_blank');
      await expect(ending.getByRole('link', { name: 'Jane Doe' }).getAttribute('href')).resolves.toBe('https://photos.test/jane');
      await page.evaluate(() => Promise.all(Array.from(document.images, (image) => image.decode())));
      // The photo is the backdrop's CSS background, which document.images does not hold: wait for it too.
      await page.evaluate(async () => {
        const backdrop = getComputedStyle(document.querySelector('.ty-backdrop')!).backgroundImage;
        const image = new Image();
        image.src = /url\("?(.*?)"?\)/.exec(backdrop)![1];
        await image.decode();
      });
      await expectScreenshot(page, `${width}-photo-ending`);
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);

    it(`mirrors a form written in Arabic: dir="rtl" (${width})`, async () => {
      const errors: string[] = [];
      const page = await openPage('pub_rtl', viewport, errors);
      await expect(page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).resolves.toEqual(['ar', 'rtl']);
      const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
      const [zero, ten, next, name] = await Promise.all(['label[for="f.nps.0"]', 'label[for="f.nps.10"]', '#form-next', '[id="f.name"]'].map(box));
      expect(zero.x).toBeGreaterThan(ten.x);
      expect(next.x + next.width).toBeLessThan(name.x + name.width / 2);
      const [track, bar] = await Promise.all(['#form-progress', '#form-progress .progress-bar'].map(box));
      expect(Math.round(bar.x + bar.width)).toBe(Math.round(track.x + track.width));
      await page.getByLabel('اسمك').fill('ليلى');
      await page.locator('label[for="f.nps.8"]').click();
      await expect(page.getByRole('radio', { name: '8' }).isChecked()).resolves.toBe(true);
      await expectScreenshot(page, `${width}-rtl-step-1`);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('progressbar', { name: 'Form progress' }).getAttribute('aria-valuetext')).resolves.toBe('Step 2 of 2');
      await page.getByRole('button', { name: 'إرسال' }).click();
      await page.locator(`[id="ty.${DEFAULT_THANK_YOU_SCREEN_ID}"]`).waitFor({ state: 'visible' });
      await expectScreenshot(page, `${width}-rtl-thank-you`);
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);

    it(`fills every step, shows the progress and the ending screen (${width}, ${viewport.width} px)`, async () => {
      const errors: string[] = [];
      const page = await openPage('pub_demo', viewport, errors);
      const progress = page.getByRole('progressbar', { name: 'Form progress' });
      await expect(progress.getAttribute('aria-valuetext')).resolves.toBe('Step 1 of 3');
      await expectScreenshot(page, `${width}-1-empty`);

      await page.keyboard.press('Tab');
      await expect(focusedId(page)).resolves.toBe('f.name');
      await page.keyboard.type('Ada Lovelace');
      await page.keyboard.press('Tab');
      await page.keyboard.type('ada@example.org');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('radio', { name: 'Engineering' }).isChecked()).resolves.toBe(true);
      await expectScreenshot(page, `${width}-1-filled`);
      await page.keyboard.press('Enter');

      await expect(progress.getAttribute('aria-valuetext')).resolves.toBe('Step 2 of 3');
      await expect(page.locator('#form-progress .progress-bar').evaluate((bar) => (bar as HTMLElement).style.width)).resolves.toBe('67%');
      await expect(focusedId(page)).resolves.toBe('f.nps.0');
      await page.keyboard.press('Space');
      await pressTimes(page, 'ArrowRight', 9);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      await pressTimes(page, 'ArrowRight', 3);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      await pressTimes(page, 'ArrowRight', 3);
      await expect(page.getByRole('radio', { name: '9' }).isChecked()).resolves.toBe(true);
      await expectScreenshot(page, `${width}-2-filled`);
      await page.keyboard.press('Enter');

      await expect(progress.getAttribute('aria-valuetext')).resolves.toBe('Step 3 of 3');
      await expect(focusedId(page)).resolves.toBe('f.liked.0');
      await page.keyboard.press('Space');
      await pressTimes(page, 'Tab', 3);
      await expect(focusedId(page)).resolves.toBe('f.comments');
      await page.keyboard.type('Lovely.');
      await pressTimes(page, 'Tab', 2);
      await expect(focusedId(page)).resolves.toBe('f.consent');
      await page.keyboard.press('Space');
      await expectScreenshot(page, `${width}-3-filled`);
      await page.keyboard.press('Enter');

      const ending = page.locator(`[id="ty.${DEFAULT_THANK_YOU_SCREEN_ID}"]`);
      await ending.waitFor({ state: 'visible' });
      await expect(focusedId(page)).resolves.toBe(`ty.${DEFAULT_THANK_YOU_SCREEN_ID}.title`);
      await expect(ending.getByRole('img', { name: 'Our team waving' }).isVisible()).resolves.toBe(true);
      await expect(ending.getByRole('link', { name: 'Back to the website' }).getAttribute('href')).resolves.toBe('https://example.test/');
      await expect(ending.getByRole('link', { name: 'Share on X' }).getAttribute('href')).resolves.toBe('https://x.test/share/demo');
      await page.evaluate(() => Promise.all(Array.from(document.images, (image) => image.decode())));
      await expectScreenshot(page, `${width}-4-thank-you`);

      expect(recorded.submissions[recorded.submissions.length - 1]).toMatchObject({
        values: {
          name: 'Ada Lovelace',
          email: 'ada@example.org',
          role: 'engineering',
          nps: 9,
          stars: 4,
          ease: 4,
          liked: ['speed'],
          comments: 'Lovely.',
          consent: true,
        },
        completedStepIds: ['s_you', 's_experience', 's_more'],
      });
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
