import { escapeHtml } from './escape';

export type AttributeValue = string | number | boolean | null | undefined;

/** ` name="value"` pairs, escaped; `true` writes a bare attribute, false/null/undefined omit it. */
function attrs(attributes: Record<string, AttributeValue>): string {
  return Object.entries(attributes)
    .filter(([, value]) => value !== false && value !== null && value !== undefined)
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`))
    .join('');
}

export function tag(name: string, attributes: Record<string, AttributeValue>, content = ''): string {
  return `<${name}${attrs(attributes)}>${content}</${name}>`;
}

/** An element without content or end tag (`input`, `img`). */
export function voidTag(name: string, attributes: Record<string, AttributeValue>): string {
  return `<${name}${attrs(attributes)}>`;
}
