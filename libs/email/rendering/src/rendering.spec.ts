import { HtmlValidate } from 'html-validate';
import { EVERY_NODE } from './__fixtures__/every-node';
import { compileEmail } from './compile';
import { type EmailNode, NODE_ATTRS, NODE_TYPES } from './document';
import { formatPostalAddress } from './footer';
import { fillTemplate } from './template';
import { tokenKey } from './tokens';

const doc = (...content: EmailNode[]): EmailNode => ({ type: 'doc', content });
const paragraph = (value: string): EmailNode => ({ type: 'paragraph', content: [{ type: 'text', text: value }] });
/** The part of the HTML between <body> and </body>, MJML's indentation squeezed. */
const body = (html: string) => html.slice(html.indexOf('<body'), html.indexOf('</body>')).replace(/\s+/g, ' ');

const ANN = { name: 'Ann', email: 'ann@example.com', fields: { Favorite_Color: 'green' } };
const FOOTER = { unsubscribeUrl: 'https://mail.example.com/u/u1.abc.def', postalAddress: 'Acme, 1 Main St, Springfield, IL 62701, US' };

describe('rendering the structured email document', () => {
  it('renders every node type and mark, the footer and the open pixel (snapshot of the text part and the HTML body)', async () => {
    const template = await compileEmail({ document: EVERY_NODE, subject: 'Hi [Subscriber_Name, fallback="friend"]', preheader: 'This week' });
    const message = fillTemplate(template, ANN, {
      linkHook: (url, index) => `https://t.example/${index}?u=${encodeURIComponent(url)}`,
      footer: FOOTER,
      openPixelUrl: 'https://t.example/o/t1.abc.def',
    });
    expect(message.subject).toBe('Hi Ann');
    expect(message.text).toMatchSnapshot('text');
    expect(body(message.html)).toMatchSnapshot('html body');
  });

  it('produces valid HTML (html-validate; rules that email tables break by design are off)', async () => {
    const template = await compileEmail({ document: EVERY_NODE, subject: 'Hi', preheader: 'This week' });
    const { html } = fillTemplate(template, { name: '"><img src=x onerror=alert(1)>' }, { footer: FOOTER, openPixelUrl: 'https://t.example/o/t1.a.b' });
    const validator = new HtmlValidate({
      extends: ['html-validate:recommended'],
      rules: {
        // MJML's table layout: presentational attributes, inline styles, MSO conditional comments, its own ids/classes.
        'no-deprecated-attr': 'off',
        'no-inline-style': 'off',
        'no-conditional-comment': 'off',
        'attribute-boolean-style': 'off',
        'attribute-empty-style': 'off',
        'prefer-native-element': 'off',
        'no-implicit-close': 'off',
        'element-required-attributes': 'off',
        'class-pattern': 'off',
        'id-pattern': 'off',
        'long-title': 'off',
        'no-trailing-whitespace': 'off',
        'attr-case': 'off',
        'void-style': 'off',
        'no-redundant-role': 'off',
        'wcag/h63': 'off',
        'valid-id': 'off',
        'no-unknown-elements': 'off',
        'doctype-style': 'off',
        'presentation-role-style': 'off',
        // MJML writes height="auto" on images.
        'attribute-allowed-values': 'off',
      },
    });
    const report = await validator.validateString(html);
    const messages = report.results.flatMap((result) => result.messages.map((m) => `${m.ruleId}: ${m.message}`));
    expect(messages).toEqual([]);
  });

  it('escapes user text and recipient values: markup in either stays text', async () => {
    const template = await compileEmail({
      document: doc(paragraph('<b>not bold</b> & "quoted" [Subscriber_Name, fallback="<fallback>"]'), {
        type: 'image',
        attrs: { src: 'https://x.example/a.png', alt: '"><script>alert(1)</script>' },
      }),
    });
    const hostile = fillTemplate(template, { name: '"><img src=x onerror=alert(1)><script>alert(2)</script>' });
    expect(hostile.html).not.toMatch(/<script|<img src=x|<b>not/);
    expect(hostile.html).toContain(
      '&lt;b&gt;not bold&lt;/b&gt; &amp; &quot;quoted&quot; &quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;',
    );
    expect(hostile.html).toContain('alt="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(hostile.text).toContain('<b>not bold</b> & "quoted" "><img src=x onerror=alert(1)><script>alert(2)</script>');
    expect(fillTemplate(template, {}).html).toContain('&lt;fallback&gt;');
  });

  it('resolves name, email and custom-field tokens per recipient, with fallbacks for missing or empty values', async () => {
    const template = await compileEmail({
      subject: '[Subscriber_Name, fallback="friend"], news',
      document: doc(paragraph('Hi [Subscriber_Name, fallback="friend"] <[Subscriber_Email, fallback=""]> likes [Subscriber_Favorite_Color, fallback="blue"].')),
    });
    expect(fillTemplate(template, ANN).text).toBe('Hi Ann <ann@example.com> likes green.\n');
    expect(fillTemplate(template, { name: '', email: null }).text).toBe('Hi friend <> likes blue.\n');
    expect(fillTemplate(template, ANN).subject).toBe('Ann, news');
    expect(fillTemplate(template, {}).subject).toBe('friend, news');
    // A recipient value cannot break the subject header onto a new line.
    expect(fillTemplate(template, { name: 'Ann\r\nBcc: x@example.com' }).subject).toBe('Ann Bcc: x@example.com, news');
    const html = fillTemplate(template, ANN).html;
    expect(html).toContain('Hi Ann &lt;ann@example.com&gt; likes green.');
    expect(html).not.toContain('Subscriber_');
  });

  it('keeps Handlebars-looking text literal', async () => {
    const template = await compileEmail({ document: doc(paragraph('Hello {{ name }} {{{raw}}} {{#if x}}y{{/if}}')) });
    const message = fillTemplate(template, ANN);
    expect(message.text).toBe('Hello {{ name }} {{{raw}}} {{#if x}}y{{/if}}\n');
    expect(message.html).toContain('Hello {{ name }} {{{raw}}} {{#if x}}y{{/if}}');
  });

  it('passes every link (marks, buttons, linked images) through the hook, once each, and nothing else', async () => {
    const template = await compileEmail({ document: EVERY_NODE });
    const seen: string[] = [];
    const message = fillTemplate(template, ANN, (url, index) => {
      seen.push(url);
      return `https://t.example/c/${index}`;
    });
    expect(seen).toEqual(['https://example.com/read?a=1&b=2', 'https://example.com/cat', 'https://example.com/shop']);
    const hrefs = [...message.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(['https://t.example/c/0', 'https://t.example/c/1', 'https://t.example/c/2']);
    expect(message.html).toContain('src="https://images.example.com/cat.jpg"');
    expect(message.text).toContain('a link (https://t.example/c/0)');
    expect(message.text).toContain('Shop now: https://t.example/c/2');
    // Without a hook the original URLs stand, escaped in the HTML.
    expect(fillTemplate(template, ANN).html).toContain('href="https://example.com/read?a=1&amp;b=2"');
  });

  it('drops link and image URLs that are not http(s), mailto or tel, keeping their text', async () => {
    const template = await compileEmail({
      document: doc(
        { type: 'paragraph', content: [{ type: 'text', text: 'click', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] }] },
        { type: 'image', attrs: { src: 'data:image/png;base64,AAAA', alt: 'x' } },
      ),
    });
    expect(template.links).toEqual([]);
    const { html, text } = fillTemplate(template, ANN);
    expect(html).not.toMatch(/javascript:|data:image/);
    expect(text).toBe('click\n');
  });

  it('writes a plain-text part that reads well', async () => {
    const template = await compileEmail({ document: EVERY_NODE });
    const { text } = fillTemplate(template, ANN);
    expect(text).toContain('# Hello Ann\n\n## News for {{ subscriber.name }}\n\n### Small print\n\n');
    expect(text).toContain('  - First\n  - Second\n');
    expect(text).toContain('1.  Step one\n2.  Step two\n');
    expect(text).toContain('> A quote\n>\n> on two paragraphs');
    expect(text).not.toMatch(/<[a-z]|\n{3,}|&amp;/);
  });
});

describe('the marketing footer and the open pixel', () => {
  const hostileFooter = {
    unsubscribeUrl: 'https://mail.example.com/u/u1.a"b<c>.d?x=1&y=2',
    postalAddress: 'Acme <script>alert(1)</script> & "Co", 1 Main St',
  };

  it("shows the recipient's unsubscribe link and the postal address in the HTML and the text part, escaped in the HTML", async () => {
    const template = await compileEmail({ document: doc(paragraph('Hello')) });
    const { html, text } = fillTemplate(template, ANN, { footer: hostileFooter });
    expect(html).toContain(
      `Don&#39;t want these emails? <a href="https://mail.example.com/u/u1.a&quot;b&lt;c&gt;.d?x=1&amp;y=2" target="_blank" style="color:#57606a;text-decoration:underline">Unsubscribe</a>`,
    );
    expect(html).toContain('<p style="margin:0 0 16px 0">Acme &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;, 1 Main St</p>');
    expect(html).not.toContain('<script>alert');
    expect(text).toBe(
      'Hello\n\n---\nDon\'t want these emails? Unsubscribe: https://mail.example.com/u/u1.a"b<c>.d?x=1&y=2\nAcme <script>alert(1)</script> & "Co", 1 Main St\n',
    );
  });

  it('puts the open pixel, escaped, after the footer in the HTML only, and leaves out what a fill does not give', async () => {
    const template = await compileEmail({ document: doc(paragraph('Hello')) });
    const tracked = fillTemplate(template, ANN, { footer: FOOTER, openPixelUrl: 'https://t.example/o/t1.a"b.c' });
    const pixel =
      '<img src="https://t.example/o/t1.a&quot;b.c" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0">';
    expect(tracked.html).toContain(pixel);
    expect(tracked.html.indexOf(pixel)).toBeGreaterThan(tracked.html.indexOf('Springfield'));
    expect(tracked.text).not.toContain('t.example');
    const bare = fillTemplate(template, ANN);
    expect(bare.html).not.toMatch(/Unsubscribe|<img/);
    expect(bare.text).toBe('Hello\n');
    // An empty address leaves out its line, not the unsubscribe link.
    const noAddress = fillTemplate(template, ANN, { footer: { ...FOOTER, postalAddress: '' } });
    expect(noAddress.text).toBe(`Hello\n\n---\nDon't want these emails? Unsubscribe: ${FOOTER.unsubscribeUrl}\n`);
    expect(noAddress.html).not.toContain('margin:0 0 16px 0');
  });

  it("formats a workspace's postal address from the parts it has", () => {
    expect(formatPostalAddress({ name: 'Acme', address: '1 Main St\nSuite 5', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' })).toBe(
      'Acme, 1 Main St, Suite 5, Springfield, IL 62701, US',
    );
    expect(formatPostalAddress({ name: 'Acme', address: null, city: ' ', state: null, postal_code: '10115', country: 'DE' })).toBe('Acme, 10115, DE');
    expect(formatPostalAddress({})).toBe('');
  });
});

describe('attributes', () => {
  it('credits an Unsplash photo with links to the photographer and Unsplash (tracked like any link)', async () => {
    const template = await compileEmail({
      document: doc({
        type: 'image',
        attrs: {
          src: 'https://images.unsplash.com/p.jpg',
          alt: 'Hills',
          source: 'unsplash',
          unsplash: { photographerName: 'Jo <Q>', photographerUrl: 'https://unsplash.com/@jo', unsplashUrl: 'https://unsplash.com' },
        },
      }),
    });
    expect(template.links).toEqual(['https://unsplash.com/@jo', 'https://unsplash.com']);
    const { html, text } = fillTemplate(template, ANN, (_, index) => `https://t.example/${index}`);
    expect(html).toMatch(/Photo by <a href="https:\/\/t\.example\/0"[^>]*>Jo &lt;Q&gt;<\/a> on <a href="https:\/\/t\.example\/1"[^>]*>Unsplash<\/a>/);
    expect(text).toContain('Photo by Jo <Q> on Unsplash');
  });

  it('drops colours and sizes that are not plain CSS values', async () => {
    const template = await compileEmail({
      document: doc(
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'x', marks: [{ type: 'textStyle', attrs: { color: 'red;background:url(https://evil.example/)', fontSize: '12px;x:y' } }] },
          ],
        },
        { type: 'emailButton', attrs: { label: 'Go', href: 'https://example.com', backgroundColor: '#fff" onclick="x', textColor: 'rgb(1, 2, 3)' } },
      ),
    });
    const { html } = fillTemplate(template, ANN);
    expect(html).not.toMatch(/evil|onclick|x:y/);
    expect(html).toContain('color:rgb(1, 2, 3)');
  });
});

describe('MJML strict validation', () => {
  // Each enum value of each attribute, set on every node type at once (at the top level and inside a column), compiles.
  const TYPES = NODE_TYPES.filter((type) => !['doc', 'text', 'hardBreak'].includes(type));
  const cases = Object.entries(NODE_ATTRS).flatMap(([attr, rule]) => {
    if (Array.isArray(rule)) return rule.map((value) => [attr, value] as const);
    if (rule === 'boolean') return [[attr, true] as const, [attr, false] as const];
    if (typeof rule === 'object' && 'min' in rule) return [[attr, rule.min] as const, [attr, (rule.min + rule.max) / 3] as const, [attr, rule.max] as const];
    return [];
  });

  it.each(cases)('%s = %j', async (attr, value) => {
    const nodes = (): EmailNode[] =>
      TYPES.map((type) => ({
        type,
        attrs: { [attr]: value, src: 'https://x.example/a.png', href: 'https://x.example/', label: 'Go', borderColor: '#000000', backgroundColor: '#eeeeee' },
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }],
      }));
    const template = await compileEmail({ document: doc(...nodes(), { type: 'emailSection', content: [{ type: 'emailSectionColumn', content: nodes() }] }) });
    expect(template.html.chunks.join('')).toContain('</html>');
  });
});

describe('tokenKey', () => {
  it('gives the fields key of a ready-to-paste token, and null for anything else', () => {
    expect(tokenKey('[Subscriber_Favorite_Color, fallback=""]')).toBe('Favorite_Color');
    expect(tokenKey('[Subscriber_Name, fallback="friend"]')).toBe('Name');
    expect(tokenKey('Favorite color')).toBeNull();
    expect(tokenKey('[Subscriber_A, fallback=""] [Subscriber_B, fallback=""]')).toBeNull();
  });
});
