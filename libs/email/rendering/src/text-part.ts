import type { EmailNode } from './document';
import { safeImageUrl } from './safety';
import type { CompiledPart, Slot } from './template';
import { splitTokens } from './tokens';

/** Builds a plain-text part: literal chunks and slots; every newline written carries the current quote/list prefix. */
export class TextBuilder {
  private readonly chunks: string[] = [''];
  private readonly slots: Slot[] = [];
  private prefix = '';

  literal(text: string): void {
    this.chunks[this.chunks.length - 1] += text.replace(/\n/g, `\n${this.prefix}`);
  }

  slot(slot: Slot): void {
    this.slots.push(slot);
    this.chunks.push('');
  }

  /** Writes user text, turning tokens into slots. */
  text(text: string): void {
    for (const segment of splitTokens(text)) {
      if (segment.token) this.slot({ kind: 'token', key: segment.key, fallback: segment.fallback });
      else this.literal(segment.text);
    }
  }

  /** Writes `write`'s output with `prefix` after every newline (and first, unless `hanging`). */
  withPrefix(prefix: string, write: () => void, hanging = false): void {
    const outer = this.prefix;
    this.prefix = outer + prefix;
    if (!hanging) this.literal(prefix);
    write();
    this.prefix = outer;
  }

  /** The part with runs of blank lines collapsed and the ends trimmed. */
  build(): CompiledPart {
    const chunks = this.chunks.map((chunk) => chunk.replace(/\n(?:[ \t>]*\n)+/g, (run) => '\n' + lastLine(run) + '\n'));
    chunks[0] = chunks[0].replace(/^\s+/, '');
    chunks[chunks.length - 1] = chunks[chunks.length - 1].replace(/\s+$/, '') + '\n';
    return { chunks, slots: this.slots };
  }
}

/** A collapsed blank-line run keeps one (possibly quoted) empty line. */
function lastLine(run: string): string {
  const lines = run.split('\n');
  return lines[lines.length - 2].trimEnd();
}

const HR = '-'.repeat(40);

/** Renders a validated document into the plain-text part; `link` registers a URL and returns its index. */
export function renderText(doc: EmailNode, out: TextBuilder, link: (url: string) => number | null): void {
  const inline = (nodes: readonly EmailNode[] | undefined): void => {
    for (const node of nodes ?? []) {
      if (node.type === 'hardBreak') out.literal('\n');
      else if (node.type === 'text') {
        out.text(node.text ?? '');
        const href = node.marks?.find((mark) => mark.type === 'link')?.attrs?.href;
        const index = href === undefined ? null : link(href);
        if (index !== null && (node.text ?? '').trim() !== href?.trim()) {
          out.literal(' (');
          out.slot({ kind: 'link', index });
          out.literal(')');
        }
      } else block(node);
    }
  };
  const blocks = (nodes: readonly EmailNode[] | undefined): void => {
    for (const node of nodes ?? []) block(node);
  };
  const list = (node: EmailNode, ordered: boolean): void => {
    (node.content ?? []).forEach((item, i) => {
      out.literal(ordered ? `${i + 1}. `.padEnd(4) : '  - ');
      out.withPrefix(
        '    ',
        () => {
          const children = item.type === 'listItem' ? item.content : [item];
          (children ?? []).forEach((child, j) => {
            if (j > 0) out.literal('\n');
            if (child.type === 'paragraph' || child.type === 'heading') inline(child.content);
            else block(child);
          });
        },
        true,
      );
      out.literal('\n');
    });
    out.literal('\n');
  };
  function block(node: EmailNode): void {
    const attrs = node.attrs ?? {};
    switch (node.type) {
      case 'paragraph':
        inline(node.content);
        return out.literal('\n\n');
      case 'heading':
        out.literal(`${'#'.repeat(attrs.level ?? 1)} `);
        inline(node.content);
        return out.literal('\n\n');
      case 'text':
      case 'hardBreak':
        inline([node]);
        return;
      case 'bulletList':
      case 'orderedList':
        return list(node, node.type === 'orderedList');
      case 'blockquote':
        out.withPrefix('> ', () => blocks(node.content));
        return out.literal('\n\n');
      case 'emailButton': {
        out.text(attrs.label ?? plain(node));
        const index = attrs.href === undefined ? null : link(attrs.href);
        if (index !== null) {
          out.literal(': ');
          out.slot({ kind: 'link', index });
        }
        return out.literal('\n\n');
      }
      case 'image': {
        if (!safeImageUrl(attrs.src)) return;
        if (attrs.alt) out.literal(`[${attrs.alt}]`);
        const index = attrs.href === undefined ? null : link(attrs.href);
        if (index !== null) {
          out.literal(' (');
          out.slot({ kind: 'link', index });
          out.literal(')');
        }
        if (attrs.caption) out.literal(`\n${attrs.caption}`);
        if (attrs.unsplash) out.literal(`\nPhoto by ${attrs.unsplash.photographerName} on Unsplash`);
        return out.literal('\n\n');
      }
      case 'horizontalRule':
        return out.literal(`${HR}\n\n`);
      default:
        return blocks(node.content);
    }
  }
  block(doc);
}

/** The text of a subtree without marks or tokens resolved (for button labels given as content). */
export function plain(node: EmailNode): string {
  if (node.type === 'text') return node.text ?? '';
  return (node.content ?? []).map(plain).join('');
}
