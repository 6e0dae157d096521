import { DEFAULT_THEME, type DraftSchema, type Step } from '@forms/draft-schema';
import { advance, createRunState } from '@forms/runtime';
import { pageLanguage, type PageLanguage } from './direction';
import { escapeHtml, scriptJson } from './escape';
import { renderField } from './fields';
import { tag, voidTag } from './html';
import { PAGE_IDS, stepHeadingId, stepSectionId } from './ids';
import { stepProgressPercent, stepProgressText } from './progress';
import { BASE_CSS } from './styles';
import { renderThankYouScreen } from './thank-you';
import { themeCss } from './theme';

export interface HostedFormView {
  formId: string;
  publicId: string;
  title: string;
  publishedVersion: number;
  /** The published snapshot. */
  schema: DraftSchema;
  submitUrl: string;
  uploadUrl: string;
  /** The bundle from `hostedFormScript()`, served from the page's origin (the CSP allows no other script). */
  scriptUrl: string;
  /** `hostedFormStylesheet()` from the page's origin: the fixed styles, cached by browsers; the theme stays inline. */
  stylesheetUrl: string;
  /** Where `hostedFontFile()` files are served from the page's origin, without a trailing slash (`/f/fonts`). */
  fontsUrl: string;
}

/** The whole hosted page: every step server-rendered (the first one shown), every ending screen hidden, no inline script. */
export function renderHostedForm(view: HostedFormView): string {
  const { schema } = view;
  const steps = schema.steps.map((step, index) => renderStep(step, index, schema)).join('');
  const screens = [schema.settings.submissions.thankYou, ...schema.settings.submissions.thankYouScreens].map(renderThankYouScreen).join('');
  const form = tag(
    'form',
    {
      id: PAGE_IDS.form,
      class: 'card',
      method: 'post',
      novalidate: true,
      'aria-labelledby': 'form-title',
      'data-submit-url': view.submitUrl,
      'data-upload-url': view.uploadUrl,
    },
    `<h1 id="form-title">${escapeHtml(view.title)}</h1>` +
      progress(schema) +
      '<noscript><p>This form needs JavaScript to work.</p></noscript>' +
      steps +
      tag('p', { class: 'form-error', id: PAGE_IDS.formError, role: 'alert' }) +
      navigation(schema),
  );
  return (
    `<!doctype html>${htmlStart(pageLanguage(view.title, schema))}<head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(view.title)}</title>` +
    voidTag('link', { rel: 'stylesheet', href: view.stylesheetUrl }) +
    `<style>${themeCss(schema.theme, view.fontsUrl, view.title + JSON.stringify(schema))}</style>` +
    tag('script', { src: view.scriptUrl, defer: true }) +
    '</head><body><main>' +
    form +
    screens +
    tag('div', { id: PAGE_IDS.announcer, class: 'sr-only', 'aria-live': 'polite' }) +
    `<script type="application/json" id="${PAGE_IDS.schema}">${scriptJson(schema)}</script>` +
    '</main></body></html>'
  );
}

/** A plain page with one message (unknown, unpublished or closed form); no script, default theme (its font from `fontsUrl`). */
export function renderUnavailablePage(message: string, heading = 'Form unavailable', fontsUrl: string | null = null): string {
  return (
    `<!doctype html>${htmlStart(pageLanguage(heading))}<head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(heading)}</title><style>${BASE_CSS}${themeCss(DEFAULT_THEME, fontsUrl, heading + message)}</style></head>` +
    `<body><main><div class="card"><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(message)}</p></div></main></body></html>`
  );
}

/** `<html lang>`, with `dir="rtl"` for a form written in a right-to-left script (the stylesheet uses logical sides). */
function htmlStart({ lang, dir }: PageLanguage): string {
  return dir === 'rtl' ? `<html lang="${lang}" dir="rtl">` : `<html lang="${lang}">`;
}

function renderStep(step: Step, index: number, schema: DraftSchema): string {
  const heading = tag('h2', { id: stepHeadingId(step.id), tabindex: -1 }, escapeHtml(step.title || `Step ${index + 1}`));
  const description = step.description ? tag('p', { class: 'hint' }, escapeHtml(step.description)) : '';
  const fields = step.fields.map((field) => renderField(field, schema)).join('');
  return tag(
    'section',
    { class: 'step', id: stepSectionId(step.id), 'data-step': step.id, 'aria-labelledby': stepHeadingId(step.id), hidden: index > 0 },
    heading + description + fields,
  );
}

/** "Step 1 of N" and a bar, on forms with more than one step; the script moves both (routing may skip steps). */
function progress(schema: DraftSchema): string {
  const total = schema.steps.length;
  if (total < 2) return '';
  const text = stepProgressText(1, total);
  return tag(
    'div',
    { class: 'progress' },
    tag('p', { class: 'progress-label', id: PAGE_IDS.progressLabel, 'aria-hidden': 'true' }, text) +
      tag(
        'div',
        {
          class: 'progress-track',
          id: PAGE_IDS.progress,
          role: 'progressbar',
          'aria-label': 'Form progress',
          'aria-valuemin': 1,
          'aria-valuemax': total,
          'aria-valuenow': 1,
          'aria-valuetext': text,
        },
        tag('div', { class: 'progress-bar', style: `width:${stepProgressPercent(1, total)}%` }),
      ),
  );
}

/** Back, Next and Submit; the script toggles them. Submit shows first when the first step already leads to the end. */
function navigation(schema: DraftSchema): string {
  const first = schema.steps[0];
  const endsHere = !first || advance(schema, createRunState(schema, {}), {}, [first.id]).next.type !== 'step';
  return tag(
    'div',
    { class: 'nav' },
    tag('button', { type: 'button', id: PAGE_IDS.back, hidden: true }, 'Back') +
      tag('button', { type: 'button', id: PAGE_IDS.next, class: 'primary forward', hidden: endsHere }, 'Next') +
      tag(
        'button',
        { type: 'submit', id: PAGE_IDS.submit, class: 'primary forward', hidden: !endsHere },
        escapeHtml(schema.settings.submitButtonLabel || 'Submit'),
      ),
  );
}
