import type { EmailMark, EmailNode, EmailNodeAttrs, Spacing } from './document';
import { safeColor, safeImageUrl, safeSize } from './safety';
import { escapeHtml } from '@shared/core';
import type { Slot } from './template';
import { plain } from './text-part';
import { splitTokens } from './tokens';

/**
 * Writes the MJML source of a document. Slots are written as markers (`x<nonce>s<n>x`, letters and digits only, so
 * MJML leaves them alone) that the compiler later cuts the HTML at; all user text is escaped here, and colours, sizes
 * and URLs that are not plainly safe are dropped.
 */
export class MjmlWriter {
  readonly slots: Slot[] = [];
  constructor(
    private readonly nonce: string,
    private readonly link: (url: string) => number | null,
  ) {}

  marker(slot: Slot): string {
    this.slots.push(slot);
    return `x${this.nonce}s${this.slots.length - 1}x`;
  }

  /** User text with tokens as slots, escaped. */
  text(text: string): string {
    return splitTokens(text)
      .map((s) => (s.token ? this.marker({ kind: 'token', key: s.key, fallback: s.fallback }) : escapeHtml(s.text)))
      .join('');
  }

  href(url: string | undefined): string | null {
    const index = url === undefined ? null : this.link(url);
    return index === null ? null : this.marker({ kind: 'link', index });
  }
}

const SECTION_PADDING: Record<Spacing, string> = { none: '0px', normal: '20px 0px', large: '40px 0px' };
const BOX_PADDING: Record<Spacing, string> = { none: '0px', normal: '12px', large: '24px' };
const BORDER_WIDTH: Record<Spacing, string> = { none: '0px', normal: '1px', large: '3px' };
const RADIUS = { none: '0px', small: '4px', normal: '8px', large: '16px', full: '9999px' } as const;
const BUTTON_SIZE = {
  small: { font: '13px', padding: '8px 16px' },
  medium: { font: '15px', padding: '12px 24px' },
  large: { font: '18px', padding: '16px 32px' },
} as const;
const HEADING_SIZE = { 1: '28px', 2: '22px', 3: '18px' } as const;
const CONTENT_WIDTH = 600;

/** ` name="value"` pairs for the defined values, escaped. */
function attributes(pairs: Record<string, string | null | undefined>): string {
  return Object.entries(pairs)
    .filter((pair): pair is [string, string] => typeof pair[1] === 'string')
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
}

function style(pairs: Record<string, string | null | undefined>): string {
  const css = Object.entries(pairs)
    .filter((pair): pair is [string, string] => typeof pair[1] === 'string')
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  return css ? ` style="${escapeHtml(css)}"` : '';
}

function border(attrs: EmailNodeAttrs): string | null {
  const color = safeColor(attrs.borderColor);
  const width = attrs.borderWidth ? BORDER_WIDTH[attrs.borderWidth] : color ? '1px' : null;
  return width && width !== '0px' ? `${width} solid ${color ?? '#dddddd'}` : null;
}

const TEXTISH = new Set(['paragraph', 'heading', 'text', 'hardBreak', 'bulletList', 'orderedList', 'listItem', 'blockquote']);

/** Renders a validated document as MJML body content; `linkColor` is the document's link colour if any. */
export function renderMjmlBody(doc: EmailNode, w: MjmlWriter): string {
  const linkColor = safeColor(doc.attrs?.linkColor) ?? '#1a5fb4';

  const marked = (inner: string, mark: EmailMark): string => {
    const attrs = mark.attrs ?? {};
    switch (mark.type) {
      case 'bold':
        return `<strong>${inner}</strong>`;
      case 'italic':
        return `<em>${inner}</em>`;
      case 'strike':
        return `<s>${inner}</s>`;
      case 'underline':
        return `<u>${inner}</u>`;
      case 'link': {
        const href = w.href(attrs.href);
        return href ? `<a href="${href}" target="_blank"${style({ color: linkColor, 'text-decoration': 'underline' })}>${inner}</a>` : inner;
      }
      case 'textStyle': {
        const css = style({ color: safeColor(attrs.color), 'font-size': safeSize(attrs.fontSize) });
        return css ? `<span${css}>${inner}</span>` : inner;
      }
      case 'highlight':
        return `<mark${style({ 'background-color': safeColor(attrs.color) ?? '#fff3a3', color: 'inherit' })}>${inner}</mark>`;
    }
  };

  const inline = (nodes: readonly EmailNode[] | undefined): string =>
    (nodes ?? [])
      .map((node) => {
        if (node.type === 'hardBreak') return '<br>';
        if (node.type !== 'text') return html(node);
        // Link outermost so the whole marked run is the link; the others in the order given.
        const marks = [...(node.marks ?? [])].sort((a, b) => Number(a.type === 'link') - Number(b.type === 'link'));
        return marks.reduce(marked, w.text(node.text ?? ''));
      })
      .join('');

  const align = (attrs: EmailNodeAttrs) => (attrs.textAlign ? { 'text-align': attrs.textAlign } : {});

  /** HTML for a node inside an `mj-text` (or nested in a list or quote). */
  function html(node: EmailNode): string {
    const attrs = node.attrs ?? {};
    switch (node.type) {
      case 'paragraph':
        return `<p${style({ margin: '0 0 12px 0', ...align(attrs) })}>${inline(node.content) || '&nbsp;'}</p>`;
      case 'heading': {
        const level = attrs.level ?? 1;
        return `<h${level}${style({ margin: '0 0 12px 0', 'font-size': HEADING_SIZE[level], 'line-height': '1.3', ...align(attrs) })}>${inline(node.content)}</h${level}>`;
      }
      case 'text':
      case 'hardBreak':
        return `<p${style({ margin: '0 0 12px 0' })}>${inline([node])}</p>`;
      case 'bulletList':
      case 'orderedList': {
        const tag = node.type === 'bulletList' ? 'ul' : 'ol';
        return `<${tag}${style({ margin: '0 0 12px 0', 'padding-left': '24px' })}>${(node.content ?? []).map(html).join('')}</${tag}>`;
      }
      case 'listItem':
        return `<li${style({ margin: '0 0 4px 0' })}>${(node.content ?? []).map((child) => (child.type === 'paragraph' ? inline(child.content) : html(child))).join('<br>')}</li>`;
      case 'blockquote': {
        const color = safeColor(attrs.blockquoteBorderColor) ?? '#d0d7de';
        return `<blockquote${style({ margin: '0 0 12px 0', padding: '4px 0 4px 16px', 'border-left': `4px solid ${color}`, color: '#57606a' })}>${(node.content ?? []).map(html).join('')}</blockquote>`;
      }
      case 'emailButton': {
        const href = w.href(attrs.href);
        const label = w.text(attrs.label ?? plain(node));
        return `<p${style({ margin: '0 0 12px 0', 'text-align': attrs.align ?? 'left' })}>${href ? `<a href="${href}" target="_blank"${style(buttonCss(attrs))}>${label}</a>` : label}</p>`;
      }
      case 'image': {
        const src = safeImageUrl(attrs.src);
        if (!src) return '';
        const img = `<img src="${escapeHtml(src)}"${attributes({ alt: attrs.alt ?? '', title: attrs.title })}${style({ 'max-width': '100%', height: 'auto', border: '0' })}>`;
        const href = w.href(attrs.href);
        return `<p${style({ margin: '0 0 12px 0', 'text-align': attrs.align ?? 'center' })}>${href ? `<a href="${href}" target="_blank">${img}</a>` : img}</p>`;
      }
      case 'horizontalRule':
        return `<hr${style({ border: '0', 'border-top': '1px solid #d0d7de', margin: '16px 0' })}>`;
      default:
        return (node.content ?? []).map(html).join('');
    }
  }

  function buttonCss(attrs: EmailNodeAttrs): Record<string, string | null> {
    const size = BUTTON_SIZE[attrs.size ?? 'medium'];
    return {
      display: 'inline-block',
      padding: size.padding,
      'font-size': size.font,
      'background-color': safeColor(attrs.backgroundColor) ?? '#1a5fb4',
      color: safeColor(attrs.textColor) ?? '#ffffff',
      'border-radius': RADIUS[attrs.borderRadius ?? 'small'],
      'text-decoration': 'none',
    };
  }

  /** The `mj-column` children for a run of nodes: text-like runs share one `mj-text`. */
  function components(nodes: readonly EmailNode[]): string {
    let out = '';
    let text = '';
    const flush = () => {
      if (text) out += `<mj-text>${text}</mj-text>`;
      text = '';
    };
    for (const node of nodes) {
      if (TEXTISH.has(node.type)) {
        text += html(node);
        continue;
      }
      flush();
      out += component(node);
    }
    flush();
    return out;
  }

  function component(node: EmailNode): string {
    const attrs = node.attrs ?? {};
    switch (node.type) {
      case 'emailButton': {
        const size = BUTTON_SIZE[attrs.size ?? 'medium'];
        const bordered = border(attrs);
        return `<mj-button${attributes({
          href: w.href(attrs.href) ?? undefined,
          'background-color': safeColor(attrs.backgroundColor) ?? '#1a5fb4',
          color: safeColor(attrs.textColor) ?? '#ffffff',
          'font-size': size.font,
          'inner-padding': size.padding,
          'border-radius': RADIUS[attrs.borderRadius ?? 'small'],
          border: bordered,
          align: attrs.align ?? 'center',
          width: attrs.fillColumn || attrs.width === 'full' ? '100%' : undefined,
        })}>${w.text(attrs.label ?? plain(node))}</mj-button>`;
      }
      case 'image': {
        const src = safeImageUrl(attrs.src);
        if (!src) return '';
        const width = attrs.fillColumn || attrs.widthPercent === undefined ? undefined : `${Math.round((CONTENT_WIDTH * attrs.widthPercent) / 100)}px`;
        let out = `<mj-image${attributes({
          src,
          alt: attrs.alt ?? '',
          title: attrs.title,
          width,
          align: attrs.align ?? 'center',
          href: w.href(attrs.href) ?? undefined,
          'border-radius': attrs.crop === 'circle' ? '50%' : attrs.borderRadius ? RADIUS[attrs.borderRadius] : undefined,
        })} />`;
        const credit = attrs.unsplash ? photoCredit(attrs.unsplash) : '';
        const caption = [attrs.caption ? w.text(attrs.caption) : '', credit].filter(Boolean).join('<br>');
        if (caption) out += `<mj-text align="${attrs.align ?? 'center'}" font-size="13px" color="#57606a">${caption}</mj-text>`;
        return out;
      }
      case 'horizontalRule':
        return '<mj-divider border-width="1px" border-color="#d0d7de" />';
      default:
        // Sections and columns nested inside a column cannot nest in MJML: their content is laid out in place.
        return components(node.content ?? []);
    }
  }

  /** Unsplash's attribution: the photographer and Unsplash, each linked when the document gives the page. */
  function photoCredit(unsplash: NonNullable<EmailNodeAttrs['unsplash']>): string {
    const linked = (label: string, url: string | undefined) => {
      const href = w.href(url);
      return href ? `<a href="${href}" target="_blank"${style({ color: 'inherit' })}>${label}</a>` : label;
    };
    return `Photo by ${linked(escapeHtml(unsplash.photographerName), unsplash.photographerUrl)} on ${linked('Unsplash', unsplash.unsplashUrl)}`;
  }

  function column(node: EmailNode): string {
    const attrs = node.attrs ?? {};
    return `<mj-column${attributes({
      'vertical-align': attrs.verticalAlign,
      'background-color': safeColor(attrs.backgroundColor),
      padding: attrs.padding ? BOX_PADDING[attrs.padding] : undefined,
      border: border(attrs),
      'border-radius': attrs.borderRadius ? RADIUS[attrs.borderRadius] : undefined,
    })}>${components(node.content ?? [])}</mj-column>`;
  }

  function section(node: EmailNode): string {
    const attrs = node.attrs ?? {};
    const columns = grouped(node.content ?? [], 'emailSectionColumn', column);
    const padding = attrs.padding ? SECTION_PADDING[attrs.padding] : undefined;
    const margin = attrs.margin && attrs.margin !== 'none' ? SECTION_PADDING[attrs.margin] : undefined;
    const inner = `<mj-section${attributes({
      'background-color': safeColor(attrs.backgroundColor),
      'background-url': safeImageUrl(attrs.backgroundImageUrl),
      'background-size': attrs.backgroundImageUrl ? 'cover' : undefined,
      padding,
      border: border(attrs),
      'border-radius': attrs.borderRadius ? RADIUS[attrs.borderRadius] : undefined,
      // mj-section aligns its columns left, center or right only; justify is for text.
      'text-align': attrs.layoutAlignment ?? (attrs.textAlign === 'justify' ? 'left' : attrs.textAlign),
      'full-width': attrs.width === 'full' ? 'full-width' : undefined,
    })}>${columns.join('')}</mj-section>`;
    // The contract's margin is space around the section: an empty spacer section above and below.
    const spacer = margin ? `<mj-section padding="${margin}"><mj-column></mj-column></mj-section>` : '';
    return spacer + inner + spacer;
  }

  // The document's top level: sections as they are, other blocks grouped into plain one-column sections.
  return grouped(doc.content ?? [], 'emailSection', section).join('');
}

/** Renders nodes of `type` one by one, and each run of other nodes as one node of `type` holding the run. */
function grouped(nodes: readonly EmailNode[], type: 'emailSection' | 'emailSectionColumn', render: (node: EmailNode) => string): string[] {
  const out: string[] = [];
  let run: EmailNode[] = [];
  const flush = () => {
    if (run.length) out.push(render({ type, content: run }));
    run = [];
  };
  for (const node of nodes) {
    if (node.type === type) {
      flush();
      out.push(render(node));
    } else run.push(node);
  }
  flush();
  return out;
}
