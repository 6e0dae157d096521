import { EmailErrors } from '@email/contracts';

/**
 * The structured email document (`BroadcastEmailDocument`): a ProseMirror-like tree whose root is `doc`. The node,
 * mark and attribute rules are the contract's `BroadcastEmailNode` / `BroadcastEmailMark` schemas: closed objects,
 * enums as listed, `widthPercent` 1–100, `unsplash.photographerName` required.
 */
export const NODE_TYPES = [
  'doc',
  'paragraph',
  'heading',
  'text',
  'hardBreak',
  'bulletList',
  'orderedList',
  'listItem',
  'blockquote',
  'emailSection',
  'emailSectionColumn',
  'emailButton',
  'image',
  'horizontalRule',
] as const;
export const MARK_TYPES = ['bold', 'italic', 'strike', 'underline', 'link', 'textStyle', 'highlight'] as const;

export type EmailNodeType = (typeof NODE_TYPES)[number];
export type EmailMarkType = (typeof MARK_TYPES)[number];

export interface UnsplashAttrs {
  photoId?: string;
  photographerName: string;
  photographerUsername?: string;
  photographerUrl?: string;
  unsplashUrl?: string;
}

export interface EmailNodeAttrs {
  id?: string;
  level?: 1 | 2 | 3;
  textAlign?: 'left' | 'center' | 'right' | 'justify';
  columns?: 1 | 2 | 3;
  width?: 'default' | 'large' | 'full' | 'fit';
  backgroundColor?: string;
  blockquoteBorderColor?: string;
  linkColor?: string;
  layoutAlignment?: 'left' | 'center';
  backgroundImageUrl?: string;
  margin?: Spacing;
  padding?: Spacing;
  borderColor?: string;
  borderWidth?: Spacing;
  borderRadius?: 'none' | 'normal' | 'small' | 'large' | 'full';
  verticalAlign?: 'top' | 'middle' | 'bottom';
  href?: string;
  textColor?: string;
  size?: 'small' | 'medium' | 'large';
  align?: 'left' | 'center' | 'right';
  label?: string;
  src?: string;
  alt?: string;
  title?: string;
  caption?: string;
  source?: 'unsplash';
  unsplash?: UnsplashAttrs;
  widthPercent?: number;
  crop?: 'none' | 'square' | 'circle';
  fillColumn?: boolean;
}
export type Spacing = 'none' | 'normal' | 'large';

export interface EmailMark {
  type: EmailMarkType;
  attrs?: { href?: string; color?: string; fontSize?: string };
}

export interface EmailNode {
  type: EmailNodeType;
  attrs?: EmailNodeAttrs;
  content?: EmailNode[];
  text?: string;
  marks?: EmailMark[];
}

/** Deeper trees are refused so rendering cannot run out of stack (not a contract rule; ours). */
export const MAX_DOCUMENT_DEPTH = 40;

type Json = Record<string, unknown>;
export type AttrRule = 'string' | 'boolean' | readonly (string | number)[] | { min: number; max: number } | 'unsplash';

const SPACING = ['none', 'normal', 'large'] as const;
/** The contract's rule for each node attribute: a type, an enum, a number range, or the Unsplash object. */
export const NODE_ATTRS: Record<keyof EmailNodeAttrs, AttrRule> = {
  id: 'string',
  level: [1, 2, 3],
  textAlign: ['left', 'center', 'right', 'justify'],
  columns: [1, 2, 3],
  width: ['default', 'large', 'full', 'fit'],
  backgroundColor: 'string',
  blockquoteBorderColor: 'string',
  linkColor: 'string',
  layoutAlignment: ['left', 'center'],
  backgroundImageUrl: 'string',
  margin: SPACING,
  padding: SPACING,
  borderColor: 'string',
  borderWidth: SPACING,
  borderRadius: ['none', 'normal', 'small', 'large', 'full'],
  verticalAlign: ['top', 'middle', 'bottom'],
  href: 'string',
  textColor: 'string',
  size: ['small', 'medium', 'large'],
  align: ['left', 'center', 'right'],
  label: 'string',
  src: 'string',
  alt: 'string',
  title: 'string',
  caption: 'string',
  source: ['unsplash'],
  unsplash: 'unsplash',
  widthPercent: { min: 1, max: 100 },
  crop: ['none', 'square', 'circle'],
  fillColumn: 'boolean',
};
const UNSPLASH_KEYS = ['photoId', 'photographerName', 'photographerUsername', 'photographerUrl', 'unsplashUrl'];
const MARK_ATTRS = ['href', 'color', 'fontSize'];

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (path: string, why: string) => EmailErrors.invalid('validation_failed', `${path} ${why}.`, path);

function closed(value: unknown, path: string, keys: readonly string[], required: readonly string[]): Json {
  if (!isObject(value)) throw invalid(path, 'must be an object');
  const extra = Object.keys(value).find((key) => !keys.includes(key));
  if (extra !== undefined) throw invalid(`${path}.${extra}`, 'is not a property of this object');
  const missing = required.find((key) => value[key] === undefined);
  if (missing !== undefined) throw invalid(`${path}.${missing}`, 'is required');
  return value;
}

function string(value: unknown, path: string): void {
  if (typeof value !== 'string') throw invalid(path, 'must be a string');
}

function checkAttr(rule: AttrRule, value: unknown, path: string): void {
  if (rule === 'string') return string(value, path);
  if (rule === 'boolean') {
    if (typeof value !== 'boolean') throw invalid(path, 'must be a boolean');
    return;
  }
  if (rule === 'unsplash') {
    const unsplash = closed(value, path, UNSPLASH_KEYS, ['photographerName']);
    for (const [key, item] of Object.entries(unsplash)) string(item, `${path}.${key}`);
    return;
  }
  if (Array.isArray(rule)) {
    if (!rule.includes(value)) throw invalid(path, `must be one of: ${rule.join(', ')}`);
    return;
  }
  const { min, max } = rule as { min: number; max: number };
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw invalid(path, `must be a number from ${min} to ${max}`);
}

function parseMark(value: unknown, path: string): EmailMark {
  const mark = closed(value, path, ['type', 'attrs'], ['type']);
  if (!(MARK_TYPES as readonly unknown[]).includes(mark.type)) throw invalid(`${path}.type`, `must be one of: ${MARK_TYPES.join(', ')}`);
  if (mark.attrs !== undefined) {
    const attrs = closed(mark.attrs, `${path}.attrs`, MARK_ATTRS, []);
    for (const [key, item] of Object.entries(attrs)) string(item, `${path}.attrs.${key}`);
  }
  return mark as unknown as EmailMark;
}

function parseNode(value: unknown, path: string, depth: number): EmailNode {
  if (depth > MAX_DOCUMENT_DEPTH) throw invalid(path, `nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
  const node = closed(value, path, ['type', 'attrs', 'content', 'text', 'marks'], ['type']);
  if (!(NODE_TYPES as readonly unknown[]).includes(node.type)) throw invalid(`${path}.type`, `must be one of: ${NODE_TYPES.join(', ')}`);
  if (node.attrs !== undefined) {
    const attrs = closed(node.attrs, `${path}.attrs`, Object.keys(NODE_ATTRS), []);
    for (const [key, item] of Object.entries(attrs)) checkAttr(NODE_ATTRS[key as keyof EmailNodeAttrs], item, `${path}.attrs.${key}`);
  }
  if (node.text !== undefined) string(node.text, `${path}.text`);
  if (node.content !== undefined) {
    if (!Array.isArray(node.content)) throw invalid(`${path}.content`, 'must be an array');
    node.content.forEach((child, i) => parseNode(child, `${path}.content[${i}]`, depth + 1));
  }
  if (node.marks !== undefined) {
    if (!Array.isArray(node.marks)) throw invalid(`${path}.marks`, 'must be an array');
    node.marks.forEach((mark, i) => parseMark(mark, `${path}.marks[${i}]`));
  }
  return node as unknown as EmailNode;
}

/**
 * Checks a document against the contract and returns it typed; a violation is a 400 `validation_failed` whose
 * message and `details.field` name the path (`body_document.content[0].attrs.level`).
 */
export function parseEmailDocument(value: unknown, path = 'body_document'): EmailNode {
  const doc = parseNode(value, path, 0);
  if (doc.type !== 'doc') throw invalid(`${path}.type`, 'must be doc at the root');
  return doc;
}
