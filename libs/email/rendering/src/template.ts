import { escapeHtml } from '@shared/core';
import { FooterValues, footerHtml, footerText, openPixelHtml } from './footer';
/**
 * A compiled part (subject, HTML or text): literal chunks with slots between them, `chunks.length === slots.length + 1`.
 * A token slot takes a recipient value (or its fallback); a link slot takes the message's link `index`, passed
 * through the per-recipient link hook; the footer slot (HTML and text) takes the unsubscribe link and postal address,
 * and the open-pixel slot (HTML) the tracking image. Filling is string concatenation only.
 */
export type Slot = { kind: 'token'; key: string; fallback: string } | { kind: 'link'; index: number } | { kind: 'footer' } | { kind: 'openPixel' };

export interface CompiledPart {
  chunks: string[];
  slots: Slot[];
}

export interface CompiledTemplate {
  /** sha256 of the canonical source (document, subject, preheader): the cache key. */
  hash: string;
  subject: CompiledPart;
  html: CompiledPart;
  text: CompiledPart;
  /** The message's links, in the order their link slots number them. */
  links: string[];
}

/**
 * One recipient's values. `name` fills `[Subscriber_Name, …]`, `email` fills `[Subscriber_Email, …]`, and `fields`
 * fills custom-field tokens keyed by the token's name without `Subscriber_` (`Favorite_Color` for
 * `[Subscriber_Favorite_Color, fallback=""]`). An empty or missing value takes the token's fallback.
 */
export interface Recipient {
  name?: string | null;
  email?: string | null;
  fields?: Readonly<Record<string, string | null | undefined>>;
}

/** Rewrites link `index` (its original `url`) for this recipient, e.g. into a signed click-tracking URL. */
export type LinkHook = (url: string, index: number) => string;

/** Per-recipient extras of a fill; a part left out is left out of the message. */
export interface FillOptions {
  linkHook?: LinkHook;
  /** The marketing footer: every marketing email carries it. */
  footer?: FooterValues;
  /** The recipient's open-tracking pixel URL, when opens are tracked. */
  openPixelUrl?: string;
}

export interface FilledMessage {
  subject: string;
  html: string;
  text: string;
}

function tokenValue(recipient: Recipient, key: string): string | null | undefined {
  if (key === 'Name') return recipient.name;
  if (key === 'Email') return recipient.email;
  return recipient.fields?.[key];
}

/** How a part takes values: HTML-escaped, raw, or raw on one line (a header: no CR/LF from a recipient value). */
type Mode = 'html' | 'text' | 'header';

/** Markup a fill writes as is into its slot kind (already escaped where it is HTML). */
interface Blocks {
  footer: string;
  openPixel: string;
}

function fillPart(part: CompiledPart, recipient: Recipient, links: readonly string[], mode: Mode, blocks: Blocks): string {
  const { chunks, slots } = part;
  let out = chunks[0];
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i];
    let value: string;
    if (slot.kind === 'token') {
      const raw = tokenValue(recipient, slot.key);
      value = raw === undefined || raw === null || raw === '' ? slot.fallback : raw;
    } else if (slot.kind === 'link') value = links[slot.index];
    else {
      out += blocks[slot.kind] + chunks[i + 1];
      continue;
    }
    out += (mode === 'html' ? escapeHtml(value) : mode === 'header' ? value.replace(/[\r\n]+/g, ' ') : value) + chunks[i + 1];
  }
  return out;
}

const NO_BLOCKS: Blocks = { footer: '', openPixel: '' };

/**
 * Fills a compiled template for one recipient: token values HTML-escaped in the HTML part, raw in the text part, and
 * raw with line breaks turned into spaces in the subject; every link through the link hook (called once per link)
 * when given; the footer and the open pixel when given. A bare LinkHook stands for `{ linkHook }`.
 */
export function fillTemplate(template: CompiledTemplate, recipient: Recipient, options: FillOptions | LinkHook = {}): FilledMessage {
  const { linkHook, footer, openPixelUrl }: FillOptions = typeof options === 'function' ? { linkHook: options } : options;
  const links = linkHook ? template.links.map((url, index) => linkHook(url, index)) : template.links;
  const pixel = openPixelHtml(openPixelUrl);
  return {
    subject: fillPart(template.subject, recipient, links, 'header', NO_BLOCKS),
    html: fillPart(template.html, recipient, links, 'html', { footer: footerHtml(footer), openPixel: pixel }),
    text: fillPart(template.text, recipient, links, 'text', { footer: footerText(footer), openPixel: '' }),
  };
}
