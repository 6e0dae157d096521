/**
 * Personalization tokens in user text: `[Subscriber_Name, fallback="friend"]`, `[Subscriber_Email, fallback=""]` and
 * custom-field tokens as the audience lib writes them (`[Subscriber_Favorite_Color, fallback=""]`). Anything else,
 * Handlebars-looking `{{ … }}` included, is literal text.
 */
export type TextSegment = { token: false; text: string } | { token: true; key: string; fallback: string };

// Letters and digits of any script: custom-field tokens are made from labels (see the audience lib's personalizationKey).
const TOKEN = /\[Subscriber_([\p{L}\p{M}\p{N}_]+), *fallback *= *"([^"]*)"\]/gu;

export function splitTokens(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > last) segments.push({ token: false, text: text.slice(last, match.index) });
    segments.push({ token: true, key: match[1], fallback: match[2] });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ token: false, text: text.slice(last) });
  return segments;
}

/**
 * The key a recipient's `fields` use for a custom-field token: `Favorite_Color` for `[Subscriber_Favorite_Color,
 * fallback=""]` (what the audience lib's `personalizationToken(label)` writes). Null for anything that is not one token.
 */
export function tokenKey(token: string): string | null {
  const segments = splitTokens(token.trim());
  return segments.length === 1 && segments[0].token ? segments[0].key : null;
}
