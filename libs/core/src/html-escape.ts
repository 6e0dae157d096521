const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPABLE = /[&<>"']/g;

/** Escapes text for HTML text and double- or single-quoted attribute values (text without those characters is returned as is). */
export function escapeHtml(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPABLE, (char) => ESCAPES[char]) : value;
}
