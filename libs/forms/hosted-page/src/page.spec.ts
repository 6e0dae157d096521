import { DEFAULT_THANK_YOU_SCREEN_ID, FIELD_TYPES, type DraftSchema, type Field, type ThankYouScreen } from '@forms/draft-schema';
import { hostedFormStylesheet } from './assets';
import { HOSTED_FORM_CSP, hostedFormCsp } from './csp';
import { escapeHtml, safeUrl } from './escape';
import { hostedFontFile } from './fonts';
import { renderHostedForm, renderUnavailablePage, type HostedFormView } from './page';

const options = [
  { id: 'o1', label: 'One', value: 'one', imageUrl: 'https://img.test/one.png' },
  { id: 'o2', label: 'Two', value: 'two' },
];
const attribution = {
  provider: 'unsplash' as const,
  photographerName: 'Jane Doe',
  photographerUrl: 'https://unsplash.com/@jane',
  sourceName: 'Unsplash',
  sourceUrl: 'https://unsplash.com',
  photoUrl: 'https://unsplash.com/photos/1',
};

/** One field of every type; `f_<type>` ids. */
const everyField: Field[] = [
  { id: 'f_text', type: 'text', label: 'Full name', required: true, description: 'As on your passport', maxLength: 80 },
  { id: 'f_long_text', type: 'long_text', label: 'About you', required: false },
  { id: 'f_email', type: 'email', label: 'Email', required: true },
  { id: 'f_number', type: 'number', label: 'Seats', required: false, min: 1, max: 9, allowDecimals: false },
  { id: 'f_phone', type: 'phone', label: 'Phone', required: false },
  { id: 'f_url', type: 'url', label: 'Website', required: false },
  { id: 'f_date', type: 'date', label: 'Start date', required: false, minDate: '2024-01-01' },
  { id: 'f_time', type: 'time', label: 'Start time', required: false },
  { id: 'f_single_choice', type: 'single_choice', label: 'Plan', required: true, options, allowOther: true },
  { id: 'f_multiple_choice', type: 'multiple_choice', label: 'Topics', required: true, options },
  { id: 'f_dropdown', type: 'dropdown', label: 'Country', required: false, options },
  { id: 'f_checkbox', type: 'checkbox', label: 'I accept the terms', required: true },
  { id: 'f_rating', type: 'rating', label: 'Rate us', required: false, max: 5, icon: 'heart' },
  { id: 'f_opinion_scale', type: 'opinion_scale', label: 'Agree?', required: false, min: 1, max: 5, minLabel: 'Not at all', maxLabel: 'Fully' },
  { id: 'f_nps', type: 'nps', label: 'Recommend us?', required: false, minLabel: 'Unlikely', maxLabel: 'Likely' },
  { id: 'f_ranking', type: 'ranking', label: 'Rank these', required: false, options },
  { id: 'f_file_upload', type: 'file_upload', label: 'Your CV', required: false, maxFiles: 2, maxSizeMb: 5, accept: ['.pdf', 'image/*'] },
  { id: 'f_signature', type: 'signature', label: 'Signature', required: true },
  { id: 'f_statement', type: 'statement', label: 'Almost done', required: false, description: 'Read this.' },
  { id: 'f_hidden', type: 'hidden', label: 'Campaign', required: false, name: 'utm_campaign', dataType: 'text' },
  { id: 'f_payment', type: 'payment', label: 'Deposit', required: false, currency: 'EUR', amount: { type: 'fixed', value: 1250 } },
];

const screen = (overrides: Partial<ThankYouScreen> & { id: string }): ThankYouScreen => ({ title: 'Done', ...overrides });

function schema(overrides: Partial<DraftSchema> = {}): DraftSchema {
  return {
    version: 1,
    steps: [
      { id: 's1', title: 'Everything', description: 'All the fields', fields: everyField },
      { id: 's2', title: 'Second', fields: [{ id: 'f2', type: 'text', label: 'More', required: false }] },
    ],
    settings: {
      submitButtonLabel: 'Send it',
      hidden: { variables: [] },
      submissions: {
        thankYou: screen({ id: DEFAULT_THANK_YOU_SCREEN_ID, title: 'Thank you!' }),
        thankYouScreens: [
          screen({
            id: 'ty_rich',
            title: 'Rich ending',
            description: 'Described',
            titleSize: 'large',
            textAlign: 'left',
            backgroundColor: '#112233',
            headingColor: '#ffffff',
            descriptionColor: 'rgb(200, 200, 200)',
            backgroundImageUrl: 'https://img.test/bg.jpg',
            backgroundImageBrightness: 60,
            backgroundImageAttribution: attribution,
            mediaUrl: 'https://img.test/media.jpg',
            mediaType: 'image',
            mediaAlt: 'A happy dog',
            mediaAttribution: attribution,
            logoUrl: 'https://img.test/logo.png',
            showButton: true,
            buttonLabel: 'Visit us',
            buttonUrl: 'https://example.test/next',
            buttonOpenInNewTab: true,
            buttonBackgroundColor: '#ff0000',
            buttonRadius: 99,
            showSocialShareIcons: true,
            socialShareLinks: { x: 'https://x.com/our-post' },
          }),
          screen({
            id: 'ty_video',
            title: 'Video ending',
            mediaUrl: 'https://video.test/v.mp4',
            mediaType: 'video',
            mediaAlt: 'Our story',
            titleSize: 'small',
          }),
        ],
      },
    },
    theme: { primaryColor: '#ff6600', background: { type: 'color', value: '#fafafa' }, fontFamily: 'Inter', textColor: '#222222', borderRadius: 12 },
    workflow: { version: 1, enabled: true, rules: [], fallbacks: {} },
    ...overrides,
  };
}

function render(form: DraftSchema = schema(), title = 'Sign up'): string {
  const view: HostedFormView = {
    formId: 'frm_1',
    publicId: 'pub_x',
    title,
    publishedVersion: 3,
    schema: form,
    submitUrl: '/api/public/forms/pub_x/submissions',
    uploadUrl: '/api/public/forms/pub_x/uploads',
    scriptUrl: '/f/assets/form.abcd1234.js',
    stylesheetUrl: '/f/assets/form.abcd1234.css',
    fontsUrl: '/f/fonts',
  };
  return renderHostedForm(view);
}

/** The opening tag of the element carrying `attribute="value"`. */
function openingTag(html: string, attribute: string, value: string): string {
  const match = new RegExp(`<[a-z0-9]+\\b[^>]*\\b${attribute}="${value}"[^>]*>`).exec(html);
  if (!match) throw new Error(`no element with ${attribute}="${value}"`);
  return match[0];
}

/** The markup of the field container `data-field="id"` through its matching closing tag. */
function fieldMarkup(html: string, fieldId: string): string {
  const start = html.indexOf(openingTag(html, 'data-field', fieldId));
  const name = /^<([a-z]+)/.exec(html.slice(start))![1];
  const tags = new RegExp(`<(/?)${name}\\b[^>]*>`, 'g');
  tags.lastIndex = start;
  for (let depth = 0, match = tags.exec(html); match; match = tags.exec(html)) {
    depth += match[1] ? -1 : 1;
    if (depth === 0) return html.slice(start, match.index + match[0].length);
  }
  throw new Error(`unclosed ${name} for ${fieldId}`);
}

/** Tags carrying an event handler attribute (attribute values, all double-quoted, are blanked first). */
function eventHandlerTags(html: string): string[] {
  const tags = html.replace(/"[^"]*"/g, '""').match(/<[^>]*>/g) ?? [];
  return tags.filter((tag) => /\son[a-z]+=/i.test(tag));
}

describe('renderHostedForm', () => {
  const html = render();

  it('writes a complete HTML5 document with an external script only', () => {
    expect(html.startsWith('<!doctype html><html lang="en"><head><meta charset="utf-8">')).toBe(true);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>Sign up</title>');
    expect(html).toContain('<script src="/f/assets/form.abcd1234.js" defer></script>');
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="/f/assets/form.abcd1234.js" defer>', '<script type="application/json" id="form-schema">']);
    expect(eventHandlerTags(html)).toEqual([]);
    expect(html).toContain('data-submit-url="/api/public/forms/pub_x/submissions"');
    expect(html).toContain('data-upload-url="/api/public/forms/pub_x/uploads"');
    expect(html.endsWith('</html>')).toBe(true);
  });

  it('renders every step, showing only the first', () => {
    expect(openingTag(html, 'id', 'step.s1')).not.toContain('hidden');
    expect(openingTag(html, 'id', 'step.s2')).toContain(' hidden');
    expect(openingTag(html, 'id', 'step.s1.title')).toContain('tabindex="-1"');
    expect(html).toContain('<p class="hint">All the fields</p>');
  });

  it('gives every element its own id, whatever ids the fields and steps have', () => {
    const choice = (id: string) => ({ id, type: 'single_choice' as const, label: id, required: true, options, allowOther: true });
    const text = (id: string) => ({ id, type: 'text' as const, label: id, required: false, description: 'Hint' });
    const fields: Field[] = [text('q-error'), text('q'), text('q-hint'), choice('c-0'), choice('c'), choice('c-other'), text('c-other-text')];
    const steps = [
      { id: 's', title: 'S', fields },
      { id: 's-title', title: 'T', fields: [text('t')] },
    ];
    const ids = [...render(schema({ steps })).matchAll(/\sid="([^"]*)"/g)].map((match) => match[1]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(ids).toEqual(expect.arrayContaining(['f.q-error', 'f.q.error', 'f.c-0.0', 'f.c.0', 'step.s.title', 'step.s-title']));
  });

  it('renders every field type except hidden fields', () => {
    for (const type of FIELD_TYPES) {
      if (type === 'hidden') expect(html).not.toContain(`data-field="f_hidden"`);
      else expect(fieldMarkup(html, `f_${type}`)).toBeTruthy();
    }
    expect(html.replace(/<script type="application\/json".*?<\/script>/s, '')).not.toContain('utm_campaign');
  });

  it.each([
    ['f_text', 'input', 'text'],
    ['f_email', 'input', 'email'],
    ['f_number', 'input', 'number'],
    ['f_phone', 'input', 'tel'],
    ['f_url', 'input', 'url'],
    ['f_date', 'input', 'date'],
    ['f_time', 'input', 'time'],
    ['f_file_upload', 'input', 'file'],
    ['f_checkbox', 'input', 'checkbox'],
    ['f_long_text', 'textarea', null],
    ['f_dropdown', 'select', null],
  ])('labels %s with <label for> on a native %s', (fieldId, element, type) => {
    const markup = fieldMarkup(html, fieldId);
    const control = openingTag(markup, 'id', `f.${fieldId}`);
    expect(control.startsWith(`<${element} `)).toBe(true);
    if (type) expect(control).toContain(`type="${type}"`);
    expect(markup).toMatch(new RegExp(`<label[^>]*for="f\\.${fieldId}"[^>]*>[^<]+`));
    expect(control).toMatch(new RegExp(`aria-describedby="[^"]*f.${fieldId}.error"`));
    expect(markup).toContain(`<p class="field-error" id="f.${fieldId}.error" role="alert"></p>`);
  });

  it.each(['f_single_choice', 'f_multiple_choice', 'f_rating', 'f_opinion_scale', 'f_nps', 'f_ranking', 'f_signature'])(
    'groups %s in a fieldset with a legend and an error slot',
    (fieldId) => {
      const markup = fieldMarkup(html, fieldId);
      expect(markup.startsWith('<fieldset')).toBe(true);
      expect(markup).toMatch(/<legend>[^<]+/);
      expect(openingTag(markup, 'data-field', fieldId)).toMatch(new RegExp(`aria-describedby="[^"]*f.${fieldId}.error"`));
      expect(markup).toContain(`id="f.${fieldId}.error" role="alert"`);
    },
  );

  it('uses radio groups for choices and scales, checkboxes for multiple choice', () => {
    expect(openingTag(html, 'data-field', 'f_single_choice')).toContain('role="radiogroup"');
    expect(fieldMarkup(html, 'f_single_choice').match(/type="radio"/g)).toHaveLength(3);
    expect(fieldMarkup(html, 'f_single_choice')).toContain('<label class="sr-only" for="f.f_single_choice.other-text">Other answer</label>');
    expect(fieldMarkup(html, 'f_multiple_choice').match(/type="checkbox"/g)).toHaveLength(2);
    expect(fieldMarkup(html, 'f_rating').match(/type="radio"/g)).toHaveLength(5);
    expect(fieldMarkup(html, 'f_rating')).toContain('<span class="rating-icon" aria-hidden="true">♥</span><span class="sr-only">5 hearts</span>');
    expect(fieldMarkup(html, 'f_rating')).toContain('<span class="sr-only">1 heart</span>');
    expect(fieldMarkup(html, 'f_opinion_scale').match(/type="radio"/g)).toHaveLength(5);
    expect(fieldMarkup(html, 'f_opinion_scale')).toContain('<div class="scale" style="--count:5;--narrow:5">');
    expect(fieldMarkup(html, 'f_opinion_scale')).toContain(
      '<span><span class="sr-only">1: </span>Not at all</span><span><span class="sr-only">5: </span>Fully</span>',
    );
    expect(fieldMarkup(html, 'f_nps')).toContain('<div class="scale" style="--count:11;--narrow:6">');
    expect(fieldMarkup(html, 'f_nps')).toContain('<span class="sr-only">0: </span>Unlikely</span><span><span class="sr-only">10: </span>Likely</span>');
    const defaultLabels = { ...schema(), steps: [{ id: 's', title: 'S', fields: [{ id: 'n', type: 'nps' as const, label: 'NPS', required: false }] }] };
    expect(fieldMarkup(render(defaultLabels), 'n')).toContain('</span>Not likely</span><span><span class="sr-only">10: </span>Very likely</span>');
    expect(openingTag(html, 'data-field', 'f_nps')).toContain('aria-describedby="f.f_nps.scale f.f_nps.error"');
    expect(fieldMarkup(html, 'f_nps').match(/type="radio"/g)).toHaveLength(11);
    expect(fieldMarkup(html, 'f_single_choice')).toContain('<img src="https://img.test/one.png" alt="" loading="lazy">');
  });

  it('marks required fields for assistive technology and visibly', () => {
    expect(openingTag(html, 'id', 'f.f_text')).toContain('aria-required="true"');
    expect(openingTag(html, 'id', 'f.f_long_text')).not.toContain('aria-required');
    expect(fieldMarkup(html, 'f_text')).toContain('<span class="required" aria-hidden="true"> *</span>');
    expect(openingTag(html, 'data-field', 'f_single_choice')).toContain('aria-required="true"');
    expect(fieldMarkup(html, 'f_multiple_choice')).toContain('<span class="sr-only"> (required)</span>');
  });

  it('ties descriptions with aria-describedby', () => {
    expect(openingTag(html, 'id', 'f.f_text')).toContain('aria-describedby="f.f_text.hint f.f_text.error"');
    expect(html).toContain('<p class="hint" id="f.f_text.hint">As on your passport</p>');
    expect(openingTag(html, 'id', 'f.f_file_upload')).toContain('aria-describedby="f.f_file_upload.limits f.f_file_upload.error"');
    expect(html).toContain('Up to 2 files, 5 MB each.');
    expect(fieldMarkup(html, 'f_file_upload')).toMatch(/<div class="dropzone"><input [^>]*type="file"[^>]*>.*<strong>Choose files<\/strong> or drag them here/);
  });

  it('passes native constraints through', () => {
    expect(openingTag(html, 'id', 'f.f_number')).toMatch(/min="1" max="9" step="1"/);
    // Lengths are checked by the page's script in characters (code points); native maxlength counts UTF-16 units.
    expect(openingTag(html, 'id', 'f.f_text')).not.toMatch(/maxlength|minlength/);
    expect(openingTag(html, 'id', 'f.f_date')).toContain('min="2024-01-01"');
    expect(openingTag(html, 'id', 'f.f_file_upload')).toMatch(/multiple accept="\.pdf,image\/\*"/);
  });

  it('renders ranking as a list moved with buttons and signature as a pad with a typed alternative', () => {
    const ranking = fieldMarkup(html, 'f_ranking');
    expect(ranking).toContain(
      '<li data-value="one"><span class="rank-label">One</span><button type="button" data-move="up" id="f.f_ranking" aria-label="Move One up">↑</button>',
    );
    expect(ranking).toContain('aria-label="Move Two down"');
    const signature = fieldMarkup(html, 'f_signature');
    expect(signature).toContain('<canvas class="signature-pad"');
    expect(signature).toContain('<label class="hint" for="f.f_signature">Or type your full name to sign</label>');
    expect(signature).toContain('<button type="button" class="signature-clear">Clear signature</button>');
  });

  it('renders statements as text and payments as an amount with a checkout button', () => {
    expect(fieldMarkup(html, 'f_statement')).toContain('<p class="statement-title">Almost done</p>');
    expect(fieldMarkup(html, 'f_statement')).not.toMatch(/<input|field-error/);
    const payment = fieldMarkup(html, 'f_payment');
    expect(payment).toContain('data-minor-digits="2"');
    expect(payment).toContain('>€12.50</p>');
    expect(payment).toContain('<button type="button" class="payment-pay" data-pay="f_payment">Pay now</button>');
    expect(payment).not.toContain('<input');
  });

  it('shows Next first and the submit label on the last step', () => {
    expect(openingTag(html, 'id', 'form-next')).not.toContain('hidden');
    expect(html).toContain('<button type="submit" id="form-submit" class="primary forward" hidden>Send it</button>');
    const single = render({ ...schema(), steps: [schema().steps[1]], settings: { ...schema().settings, submitButtonLabel: undefined } });
    expect(single).toContain('<button type="submit" id="form-submit" class="primary forward">Submit</button>');
    expect(openingTag(single, 'id', 'form-next')).toContain('hidden');
  });

  it('shows the progress of a multi-step form as text and an accessible bar, and none on a one-step form', () => {
    expect(html).toContain('<p class="progress-label" id="form-progress-label" aria-hidden="true">Step 1 of 2</p>');
    const bar = openingTag(html, 'id', 'form-progress');
    expect(bar).toContain('role="progressbar"');
    expect(bar).toContain('aria-valuenow="1" aria-valuetext="Step 1 of 2"');
    expect(html).toContain('<div class="progress-bar" style="width:50%">');
    expect(render({ ...schema(), steps: [schema().steps[1]] })).not.toContain('progressbar');
  });

  it('shows Submit on the first step when its routing already leads to the end', () => {
    const routed = render(schema({ workflow: { version: 1, enabled: true, rules: [], fallbacks: { s1: { type: 'thank_you', screenId: 'ty_rich' } } } }));
    expect(openingTag(routed, 'id', 'form-submit')).not.toContain('hidden');
  });

  it('embeds the schema as inert JSON that cannot close the script element', () => {
    const hostile = schema();
    hostile.steps[1].fields[0].label = '</script><script>alert(1)</script><!--';
    const page = render(hostile);
    const json = /<script type="application\/json" id="form-schema">(.*?)<\/script>/s.exec(page)![1];
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual(hostile);
  });
});

describe('page direction', () => {
  it('reads right to left when the form is written in a right-to-left script, else left to right', () => {
    const arabic = schema();
    arabic.steps[0].title = 'عنك';
    expect(render(arabic).startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(render(arabic, 'استبيان').startsWith('<!doctype html><html lang="ar" dir="rtl">')).toBe(true);
    expect(render(schema(), '2026 — שאלון')).toContain('<html lang="he" dir="rtl">');
    expect(render(arabic, '123')).toContain('<html lang="ar" dir="rtl">');
    expect(renderUnavailablePage('مغلق', 'النموذج غير متاح')).toContain('<html lang="ar" dir="rtl">');
  });
});

describe('escaping', () => {
  it('escapeHtml escapes markup and both quote kinds', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
  });

  it('safeUrl keeps only absolute http(s) URLs', () => {
    expect(safeUrl('https://a.test/x?y=1')).toBe('https://a.test/x?y=1');
    expect(safeUrl(' http://a.test ')).toBe('http://a.test/');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', '/relative', '//a.test/x', 'vbscript:x', '', undefined]) {
      expect(safeUrl(bad)).toBeNull();
    }
  });

  it('escapes hostile labels, descriptions, options and titles everywhere', () => {
    const evil = `"><img src=x onerror=alert(1)><script>alert('x')</script>`;
    const hostile = schema();
    hostile.steps[0].title = evil;
    hostile.steps[0].fields = [
      { id: 'a', type: 'text', label: evil, description: evil, placeholder: evil, required: true },
      { id: 'b', type: 'single_choice', label: evil, required: false, options: [{ id: 'o', label: evil, value: evil, imageUrl: 'javascript:alert(1)' }] },
      { id: 'c', type: 'ranking', label: evil, required: false, options: [{ id: 'o', label: evil, value: evil }] },
    ];
    hostile.settings.submitButtonLabel = evil;
    hostile.settings.submissions.thankYou = {
      ...hostile.settings.submissions.thankYou,
      title: evil,
      description: evil,
      showButton: true,
      buttonLabel: evil,
      buttonUrl: 'javascript:alert(1)',
      mediaUrl: 'javascript:alert(1)',
      logoUrl: 'data:image/svg+xml,<svg onload=alert(1)>',
      showSocialShareIcons: true,
      socialShareLinks: { facebook: 'javascript:alert(1)' },
    };
    const page = render(hostile, evil);
    const withoutSchema = page.replace(/<script type="application\/json".*?<\/script>/s, '');
    expect(withoutSchema).not.toContain('<img src=x');
    expect(withoutSchema).not.toContain("<script>alert('x')");
    expect(eventHandlerTags(withoutSchema)).toEqual([]);
    expect(withoutSchema).not.toMatch(/javascript:|data:image/i);
    expect(withoutSchema).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;');
    expect(withoutSchema).toContain('value="&quot;&gt;&lt;img src=x');
    expect(withoutSchema).toContain('aria-label="Move &quot;&gt;&lt;img src=x');
  });
});

describe('theme', () => {
  const style = (form: DraftSchema) => /<style>(.*?)<\/style>/s.exec(render(form))![1];

  it('sets the theme as custom properties', () => {
    const css = style(schema());
    expect(css).toContain(':root{--primary:#ff6600;--text:#222222;--button-text:#ffffff;--radius:12px;--font:"Inter Variable", system-ui');
    expect(css).toContain('--page-bg:#fafafa');
    expect(css).not.toContain('box-sizing');
    expect(hostedFormStylesheet().body).toContain('font-family:var(--font)');
    expect(hostedFormStylesheet().fileName).toMatch(/^form\.[0-9a-f]{8}\.css$/);
    expect(render()).toContain(`<link rel="stylesheet" href="/f/assets/form.abcd1234.css">`);
  });

  it("self-hosts a packaged font: one woff2 per Unicode subset that the page's text uses, under fontsUrl, and only that family", () => {
    const css = style(schema());
    const faces = css.match(/@font-face\{[^}]*\}/g) ?? [];
    expect(faces.map((face) => /inter-([a-z-]+)-wght/.exec(face)?.[1])).toEqual(['latin']);
    const cyrillic = schema();
    cyrillic.steps[0].title = 'Привет';
    expect(style(cyrillic).match(/inter-[a-z-]+-wght/g)).toEqual(['inter-cyrillic-wght', 'inter-latin-wght']);
    for (const face of faces) {
      expect(face).toMatch(
        /font-family:"Inter Variable";.*src:url\("\/f\/fonts\/inter-[a-z-]+-wght-normal\.[0-9a-f]{8}\.woff2"\) format\("woff2"\);unicode-range:U\+/,
      );
    }
    expect(css).toContain('/f/fonts/inter-latin-wght-normal.');
    const lora = style(schema({ theme: { ...schema().theme, fontFamily: 'lora' } }));
    expect(lora).toContain('--font:"Lora Variable", system-ui');
    expect(lora).not.toContain('/f/fonts/inter-');
    const system = style(schema({ theme: { ...schema().theme, fontFamily: 'Georgia' } }));
    expect(system).not.toContain('@font-face');
    expect(system).toContain('--font:"Georgia", system-ui');
  });

  it('serves only the files of packaged fonts, by their hashed names', () => {
    const name = /\/f\/fonts\/(inter-latin-wght-normal\.[0-9a-f]{8}\.woff2)/.exec(style(schema()))![1];
    const file = hostedFontFile(name)!;
    expect(file.body.subarray(0, 4).toString('latin1')).toBe('wOF2');
    expect(file.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(hostedFontFile(name.replace(/\.[0-9a-f]{8}\./, '.00000000.'))).toBeNull();
    expect(hostedFontFile('../package.json')).toBeNull();
  });

  it('loads a custom font with its format and uses background images and gradients', () => {
    const custom = schema({
      theme: {
        primaryColor: '#123',
        background: { type: 'image', value: 'https://img.test/bg.jpg' },
        fontFamily: 'custom',
        customFont: { family: 'Brand Sans', fileName: 'brand.woff2', assetId: 'ast_1', format: 'woff2', url: 'https://cdn.test/brand.woff2' },
      },
    });
    const css = style(custom);
    expect(css).toContain('@font-face{font-family:"Brand Sans";src:url("https://cdn.test/brand.woff2") format("woff2");font-display:swap}');
    expect(css).toContain('--font:"Brand Sans", system-ui');
    expect(css).toContain('--page-bg:linear-gradient(rgba(0,0,0,.25), rgba(0,0,0,.25)), #f6f8fa url("https://img.test/bg.jpg") center / cover fixed no-repeat');
    expect(hostedFormCsp(custom.theme)).toContain("font-src 'self' https://cdn.test;");
    expect(hostedFormCsp(schema().theme)).toBe(HOSTED_FORM_CSP);
    const gradient = style(
      schema({ theme: { ...schema().theme, background: { type: 'gradient', value: 'linear-gradient(90deg, #fff 0%, rgba(0,0,0,.5) 100%)' } } }),
    );
    expect(gradient).toContain('--page-bg:linear-gradient(90deg, #fff 0%, rgba(0,0,0,.5) 100%)');
  });

  it('drops values that could break out of the stylesheet', () => {
    const css = style(
      schema({
        theme: {
          primaryColor: 'red;}</style><script>alert(1)</script>',
          background: { type: 'gradient', value: 'linear-gradient(red, blue);} body{background:url(https://evil.test)' },
          fontFamily: 'x"}</style><script>',
          textColor: 'expression(alert(1))',
        },
      }),
    );
    expect(css).not.toMatch(/<|evil\.test|expression/);
    expect(css).toContain('--primary:#2563eb');
    expect(css).toContain('--font:"x\\22 }\\3c /style\\3e \\3c script\\3e ", system-ui');
  });
});

describe('thank-you screens', () => {
  const html = render();
  const section = (id: string) => {
    const start = html.indexOf(`<section class="card thank-you" id="ty.${id}"`);
    return html.slice(start, html.indexOf('</section>', start));
  };

  it('renders the default and every extra screen, hidden', () => {
    for (const id of [DEFAULT_THANK_YOU_SCREEN_ID, 'ty_rich', 'ty_video']) {
      expect(openingTag(html, 'id', `ty.${id}`)).toContain(' hidden');
      expect(openingTag(html, 'id', `ty.${id}`)).toContain(`aria-labelledby="ty.${id}.title"`);
    }
    expect(section(DEFAULT_THANK_YOU_SCREEN_ID)).toContain('>Thank you!</h2>');
  });

  it('honours title size, alignment, colours and the background image', () => {
    const rich = section('ty_rich');
    expect(openingTag(html, 'id', 'ty.ty_rich')).toContain(
      'style="--ty-bg:#112233;--ty-heading:#ffffff;--ty-description:rgb(200, 200, 200);--ty-button-bg:#ff0000;--ty-button-radius:48px;--ty-align:left;--ty-justify:left"',
    );
    expect(rich).toContain('<h2 id="ty.ty_rich.title" class="ty-large" tabindex="-1">Rich ending</h2>');
    expect(rich).toContain('<p class="ty-description">Described</p>');
    expect(rich).toContain(
      '<div class="ty-backdrop" aria-hidden="true" style="background-image:url(&quot;https://img.test/bg.jpg&quot;);filter:brightness(0.6)"></div>',
    );
    expect(section('ty_video')).toContain('class="ty-small"');
  });

  it('renders media with alt text, the logo and photo attributions', () => {
    const rich = section('ty_rich');
    expect(rich).toContain('<img src="https://img.test/media.jpg" alt="A happy dog">');
    expect(rich).toContain(
      '<figcaption>Photo by <a href="https://unsplash.com/@jane" target="_blank" rel="noopener noreferrer">Jane Doe</a> on <a href="https://unsplash.com/" target="_blank" rel="noopener noreferrer">Unsplash</a></figcaption>',
    );
    expect(rich).toContain('<img class="ty-logo" src="https://img.test/logo.png" alt="Logo">');
    expect(rich.match(/Photo by/g)).toHaveLength(2);
    expect(section('ty_video')).toContain('<video src="https://video.test/v.mp4" controls preload="metadata" aria-label="Our story">');
  });

  it('renders the button and share links', () => {
    const rich = section('ty_rich');
    expect(rich).toContain('<a class="button ty-button" href="https://example.test/next" target="_blank" rel="noopener noreferrer">Visit us</a>');
    expect(rich).toContain('href="https://x.com/our-post"');
    expect(rich).toContain('data-share="facebook"');
    expect(rich).toContain('data-share="linkedin"');
    expect(rich).not.toContain('data-share="x"');
    expect(rich).toContain('<span class="sr-only">Share on </span>LinkedIn');
    expect(rich).toContain('<p class="share-title" aria-hidden="true">Share</p><ul class="share" aria-label="Share">');
    expect(section(DEFAULT_THANK_YOU_SCREEN_ID)).not.toMatch(/class="share"|ty-button/);
  });
});

describe('HOSTED_FORM_CSP and the unavailable page', () => {
  it('allows only same-origin scripts', () => {
    expect(HOSTED_FORM_CSP).toContain("script-src 'self'");
    expect(HOSTED_FORM_CSP).toContain("default-src 'none'");
    expect(HOSTED_FORM_CSP).toContain("connect-src 'self'");
    expect(HOSTED_FORM_CSP).toContain("font-src 'self';");
    expect(HOSTED_FORM_CSP).toContain("style-src 'self' 'unsafe-inline';");
    expect(HOSTED_FORM_CSP).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('renders an escaped message without scripts', () => {
    const page = renderUnavailablePage('<b>Closed</b>');
    expect(page).toContain('&lt;b&gt;Closed&lt;/b&gt;');
    expect(page).not.toContain('<script');
    expect(page).toContain('<html lang="en">');
  });
});
