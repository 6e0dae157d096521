import { createHash, randomBytes } from 'node:crypto';
import mjml2html from 'mjml';
import { EmailErrors } from '@email/contracts';
import { parseEmailDocument } from './document';
import { MjmlWriter, renderMjmlBody } from './mjml-part';
import { safeLinkUrl } from './safety';
import type { CompiledPart, CompiledTemplate, Slot } from './template';
import { renderText, TextBuilder } from './text-part';

export interface EmailSource {
  /** A `BroadcastEmailDocument`; validated here. */
  document: unknown;
  subject?: string;
  preheader?: string;
}

const HEAD =
  '<mj-attributes><mj-all font-family="Helvetica, Arial, sans-serif" /><mj-text font-size="16px" line-height="1.5" color="#1f2328" padding="8px 24px" /></mj-attributes>';

/** JSON with object keys sorted, so equal content hashes equally whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export function contentHash(source: EmailSource): string {
  return createHash('sha256')
    .update(canonical({ document: source.document, subject: source.subject ?? '', preheader: source.preheader ?? '' }))
    .digest('hex');
}

/** The marketing footer and, last, the open pixel: slots filled per recipient (empty when a fill gives neither). */
const footerSection = (w: MjmlWriter) =>
  `<mj-section padding="0px"><mj-column><mj-text align="center" padding="0px 24px" font-size="12px" color="#57606a">${w.marker({ kind: 'footer' })}${w.marker({ kind: 'openPixel' })}</mj-text></mj-column></mj-section>`;

/** Cuts MJML's output at the slot markers. */
function cut(html: string, nonce: string, slots: readonly Slot[]): CompiledPart {
  const pieces = html.split(new RegExp(`x${nonce}s(\\d+)x`));
  const part: CompiledPart = { chunks: [pieces[0]], slots: [] };
  for (let i = 1; i < pieces.length; i += 2) {
    part.slots.push(slots[Number(pieces[i])]);
    part.chunks.push(pieces[i + 1]);
  }
  return part;
}

/**
 * Compiles a document (with subject and preheader) once: validates it, runs MJML, and cuts the HTML into literal
 * chunks and slots; the text part and subject are built from the document directly. Unsafe link URLs (anything but
 * http(s), mailto and tel) are dropped, leaving their text.
 */
export async function compileEmail(source: EmailSource, hash = contentHash(source)): Promise<CompiledTemplate> {
  const doc = parseEmailDocument(source.document);
  const links: string[] = [];
  const indexes = new Map<string, number>();
  const link = (url: string): number | null => {
    const safe = safeLinkUrl(url);
    if (safe === null) return null;
    let index = indexes.get(safe);
    if (index === undefined) indexes.set(safe, (index = links.push(safe) - 1));
    return index;
  };

  const nonce = randomBytes(8).toString('hex');
  const w = new MjmlWriter(nonce, link);
  const body = renderMjmlBody(doc, w) + footerSection(w);
  const title = source.subject ? `<mj-title>${w.text(source.subject)}</mj-title>` : '';
  const preview = source.preheader ? `<mj-preview>${w.text(source.preheader)}</mj-preview>` : '';
  // Strict: MJML refusing what we wrote is our bug, reported as one rather than sent as broken HTML.
  const result = await mjml2html(`<mjml><mj-head>${title}${preview}${HEAD}</mj-head><mj-body width="600px">${body}</mj-body></mjml>`, {
    validationLevel: 'strict',
    keepComments: false,
  }).catch((error: unknown) => {
    throw EmailErrors.fail('internal_error', `The email document did not compile: ${error instanceof Error ? error.message.trim() : String(error)}`);
  });
  if (result.errors.length) throw EmailErrors.fail('internal_error', `The email document did not compile: ${result.errors[0].formattedMessage}`);

  const text = new TextBuilder();
  renderText(doc, text, link);
  const textPart = text.build();
  // After the trimmed body: the footer's text starts with its own blank line.
  textPart.slots.push({ kind: 'footer' });
  textPart.chunks.push('');
  const subject = new TextBuilder();
  subject.text((source.subject ?? '').replace(/[\r\n]+/g, ' '));
  const subjectPart = subject.build();
  subjectPart.chunks[subjectPart.chunks.length - 1] = subjectPart.chunks[subjectPart.chunks.length - 1].replace(/\n$/, '');

  return { hash, subject: subjectPart, html: cut(result.html, nonce, w.slots), text: textPart, links };
}

/** A small LRU of compiled templates keyed by content hash; concurrent compiles of one content share a promise. */
export class TemplateCache {
  private readonly entries = new Map<string, Promise<CompiledTemplate>>();
  constructor(private readonly capacity = 64) {}

  get size(): number {
    return this.entries.size;
  }

  compile(source: EmailSource): Promise<CompiledTemplate> {
    const hash = contentHash(source);
    let entry = this.entries.get(hash);
    if (entry) this.entries.delete(hash);
    else {
      entry = compileEmail(source, hash);
      entry.catch(() => this.entries.get(hash) === entry && this.entries.delete(hash));
    }
    this.entries.set(hash, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}
