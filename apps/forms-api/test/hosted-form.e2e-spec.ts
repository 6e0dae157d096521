/**
 * The whole respondent journey in headless Chromium against the real API: a form is built and published through
 * /api/v1, filled in at its public_url (a branching rule, a hidden value, a variable and a quiz), and the submission
 * is then found through the API.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, listenOnLoopback } from '@shared/testing';
import { formsApi, FormsApiHarness } from './helpers';

const draft = {
  settings: {
    name: 'Coffee match',
    submitButtonLabel: 'Find my coffee',
    hidden: { variables: [{ id: 'var_strength', name: 'strength', type: 'number', initialValue: 1 }] },
    submissions: {
      thankYou: { title: 'Thanks for answering' },
      thankYouScreens: [
        { id: 'tys_espresso', title: 'Espresso is your match', description: 'Short and strong.' },
        { id: 'tys_latte', title: 'A latte is your match', description: 'Smooth and milky.' },
      ],
    },
  },
  steps: [
    {
      id: 'stp_you',
      title: 'About you',
      fields: [
        { id: 'fld_name', type: 'text', label: 'Your name', required: true },
        { id: 'fld_email', type: 'email', label: 'Email address', required: true },
        {
          id: 'fld_drinks',
          type: 'single_choice',
          label: 'Do you drink coffee daily?',
          required: true,
          options: [
            { label: 'Yes', value: 'yes' },
            { label: 'No', value: 'no' },
          ],
        },
        { id: 'fld_campaign', type: 'hidden', label: 'Campaign', name: 'campaign', dataType: 'text' },
      ],
    },
    { id: 'stp_habits', title: 'Your habits', fields: [{ id: 'fld_cups', type: 'number', label: 'Cups per day', required: true, min: 1, max: 20 }] },
    {
      id: 'stp_taste',
      title: 'Your taste',
      fields: [
        {
          id: 'fld_milk',
          type: 'single_choice',
          label: 'Milk or no milk?',
          required: true,
          options: [
            { label: 'Black', value: 'black' },
            { label: 'With milk', value: 'milk' },
          ],
        },
        { id: 'fld_rating', type: 'rating', label: 'How much do you like bitterness?', max: 5 },
      ],
    },
  ],
  workflow: {
    enabled: true,
    rules: [
      {
        id: 'rul_occasional',
        stepId: 'stp_you',
        match: 'all',
        conditions: [{ id: 'cnd_no', subject: { type: 'field', fieldId: 'fld_drinks' }, operator: 'equals', value: 'no' }],
        actions: [{ id: 'act_add', variableId: 'var_strength', operation: 'add', operand: { type: 'number', value: 2 } }],
        target: { type: 'step', stepId: 'stp_taste' },
      },
    ],
  },
  quiz: {
    enabled: true,
    type: 'match',
    mode: 'match',
    endings: [
      { id: 'end_espresso', screenId: 'tys_espresso' },
      { id: 'end_latte', screenId: 'tys_latte' },
    ],
    mappings: [
      { id: 'map_black', fieldId: 'fld_milk', optionValue: 'black', endingId: 'end_espresso', points: 1 },
      { id: 'map_milk', fieldId: 'fld_milk', optionValue: 'milk', endingId: 'end_latte', points: 1 },
    ],
  },
};

/** Screenshots to look at (not compared): what a person sees. */
const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), 'postline-hosted-form-screens');

describe('forms-api: the hosted form in Chromium', () => {
  let api: FormsApiHarness;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    browser = await launchChromium();
    api = await formsApi();
    origin = await listenOnLoopback(api.app);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('fills a branching multi-step quiz, shows the matching thank-you screen and stores the submission', async () => {
    const created = await api.as().post('/api/v1/forms').send({ draftSchema: draft }).expect(201);
    const formId = created.body.data.id;
    const published = await api.as().post(`/api/v1/forms/${formId}/publish`).send({ draft_revision: 0 }).expect(200);
    const publicPath = new URL(published.body.public_url).pathname;

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${origin}${publicPath}?campaign=spring`);
    await expect(page.title()).resolves.toContain('Coffee match');

    // Client-side validation on the first step.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByLabel('Your name').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Your name').fill('Grace');
    await page.getByLabel('Email address').fill('grace@example');
    await page.getByRole('radio', { name: 'No' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByLabel('Email address').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Email address').fill('grace@example.com');
    await page.getByRole('button', { name: 'Next' }).click();

    // "No" skips the habits step.
    await expect(page.getByRole('heading', { name: 'Your taste' }).isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Cups per day').isVisible()).resolves.toBe(false);
    await page.getByRole('radio', { name: 'With milk' }).check();
    await page.getByRole('button', { name: 'Find my coffee' }).click();

    // The quiz picks the latte ending.
    await page.getByRole('heading', { name: 'A latte is your match' }).waitFor({ state: 'visible', timeout: 10_000 });
    expect(errors).toEqual([]);

    const list = await api.as().get(`/api/v1/forms/${formId}/submissions`).expect(200);
    expect(list.body.data).toHaveLength(1);
    const record = list.body.data[0];
    expect(record.answersByFieldId).toEqual({ fld_name: 'Grace', fld_email: 'grace@example.com', fld_drinks: 'no', fld_campaign: 'spring', fld_milk: 'milk' });
    expect(record.submission).toMatchObject({
      completedStepIds: ['stp_you', 'stp_taste'],
      thankYouScreenId: 'tys_latte',
      variables: { var_strength: 3 },
      quiz: { endingId: 'end_latte' },
    });
    expect(record.meta).toMatchObject({ source: 'hosted_form', hiddenValues: { campaign: 'spring' }, analyticsSessionId: expect.any(String) });
    const form = await api.as().get(`/api/v1/forms/${formId}`).expect(200);
    expect(form.body.data.responses_count).toBe(1);
  });

  it('leaves out URL hidden values their fields cannot take (not a number, too long), so the person can submit', async () => {
    const referral = {
      settings: { name: 'Referral', submissions: { thankYou: { title: 'Thanks, noted' }, thankYouScreens: [] } },
      steps: [
        {
          id: 'stp_one',
          title: 'One',
          fields: [
            { id: 'fld_name', type: 'text', label: 'Your name', required: true },
            { id: 'fld_ref', type: 'hidden', label: 'Referrer', name: 'ref', dataType: 'number' },
            { id: 'fld_note', type: 'hidden', label: 'Note', name: 'note', dataType: 'text' },
          ],
        },
      ],
    };
    const created = await api.as().post('/api/v1/forms').send({ draftSchema: referral }).expect(201);
    const formId = created.body.data.id;
    const published = await api.as().post(`/api/v1/forms/${formId}/publish`).send({}).expect(200);
    const publicPath = new URL(published.body.public_url).pathname;

    const submitFrom = async (query: string, name: string) => {
      const page = await browser.newPage();
      await page.goto(`${origin}${publicPath}?${query}`);
      await page.getByLabel('Your name').fill(name);
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByRole('heading', { name: 'Thanks, noted' }).waitFor({ state: 'visible', timeout: 10_000 });
      await page.close();
    };
    await submitFrom('ref=abc', 'Ada');
    await submitFrom(`note=${'n'.repeat(501)}`, 'Bo');
    await submitFrom('ref=5&note=spring', 'Cy');

    const list = await api.as().get(`/api/v1/forms/${formId}/submissions`).expect(200);
    expect(
      list.body.data.map((record: { answersByFieldId: unknown; meta: { hiddenValues: unknown } }) => [record.answersByFieldId, record.meta.hiddenValues]),
    ).toEqual([
      [{ fld_name: 'Ada' }, {}],
      [{ fld_name: 'Bo' }, {}],
      [
        { fld_name: 'Cy', fld_ref: 5, fld_note: 'spring' },
        { ref: 5, note: 'spring' },
      ],
    ]);
  });

  it('tells a person whose form was republished without a question they answered to reload, not which value is wrong', async () => {
    const draft = (fields: object[]) => ({
      settings: { name: 'Changing', submissions: { thankYou: { title: 'Got it' }, thankYouScreens: [] } },
      steps: [{ id: 'stp_one', title: 'One', fields }],
    });
    const name = { id: 'fld_name', type: 'text', label: 'Your name', required: true };
    const city = { id: 'fld_city', type: 'text', label: 'Your city' };
    const formId = (
      await api
        .as()
        .post('/api/v1/forms')
        .send({ draftSchema: draft([name, city]) })
        .expect(201)
    ).body.data.id;
    const published = await api.as().post(`/api/v1/forms/${formId}/publish`).send({}).expect(200);
    const page = await browser.newPage();
    await page.goto(`${origin}${new URL(published.body.public_url).pathname}`);
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Your city').fill('Lyon');
    await api
      .as()
      .post(`/api/v1/forms/${formId}/publish`)
      .send({ draftSchema: draft([name]), force: true })
      .expect(200);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('This form was changed while you were filling it in. Reload the page').waitFor({ state: 'visible', timeout: 10_000 });
    await expect(page.getByText('is not a field of the published form').count()).resolves.toBe(0);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'form-changed-while-filling.png') });
    await page.reload();
    await page.getByLabel('Your name').fill('Ada');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Got it' }).waitFor({ state: 'visible', timeout: 10_000 });
    await page.close();
  });
});
