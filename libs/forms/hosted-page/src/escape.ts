const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and for double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

/** The URL when it is an absolute http(s) URL, else null (no `javascript:`, `data:` or relative links from form authors). */
export function safeUrl(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** JSON for a `<script type="application/json">` block: no `<` can end the element or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** A double-quoted CSS string; quotes, backslashes, line breaks and angle brackets become escapes. */
export function cssString(text: string): string {
  return `"${text.replace(/["\\\n\r\f<>]/g, (char) => `\\${char.charCodeAt(0).toString(16)} `)}"`;
}

const CSS_COLOR = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([\d\s.,%/+-]+\)|[a-z]{3,20})$/i;

/** A CSS color from a form author, or null when it is anything else. */
export function cssColor(value: string | undefined | null): string | null {
  return value && CSS_COLOR.test(value.trim()) ? value.trim() : null;
}
