/**
 * Theme fonts served by forms-api itself from npm font packages (Fontsource, variable weight axis), never from a CDN:
 * a theme naming one of these families gets @font-face rules for that family's woff2 files, one per Unicode subset
 * (the browser fetches only the subsets the page's text uses), at content-hashed URLs cached as immutable.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cssString } from './escape';

/** The families a theme may name, by the npm package that ships them. */
const FONT_PACKAGES: Record<string, string> = {
  inter: '@fontsource-variable/inter',
  lora: '@fontsource-variable/lora',
  'noto sans arabic': '@fontsource-variable/noto-sans-arabic',
  roboto: '@fontsource-variable/roboto',
};

export interface FontFile {
  /** `<file>.<hash>.woff2`, the name in the page's URLs. */
  name: string;
  body: Buffer;
  /** A strong, quoted ETag. */
  etag: string;
}

interface FontFace {
  file: FontFile;
  unicodeRange: string;
  /** The same ranges as code point pairs. */
  ranges: [number, number][];
}

interface HostedFont {
  /** The family as the page's CSS names it (the package's own, e.g. `Inter Variable`). */
  family: string;
  faces: FontFace[];
}

const loaded = new Map<string, HostedFont>();
const filesByName = new Map<string, FontFile>();

/** The self-hosted font for a theme's `fontFamily` (any case; with or without " Variable"), or null for other names. */
export function hostedFont(fontFamily: string): HostedFont | null {
  const key = fontFamily
    .trim()
    .toLowerCase()
    .replace(/\s+variable$/, '');
  const packageName = FONT_PACKAGES[key];
  if (!packageName) return null;
  let font = loaded.get(key);
  if (!font) {
    font = readFontPackage(packageName);
    loaded.set(key, font);
    for (const face of font.faces) filesByName.set(face.file.name, face.file);
  }
  return font;
}

/** A font file a page links to (by its hashed name), or null: only files of the families above are served. */
export function hostedFontFile(name: string): FontFile | null {
  if (!filesByName.has(name)) for (const key of Object.keys(FONT_PACKAGES)) hostedFont(key);
  return filesByName.get(name) ?? null;
}

/**
 * The @font-face rules for a hosted font, its files under `baseUrl`: only the subsets that hold a character of `text`
 * (the page's words; the Latin subset always, for the page's own labels), which keeps the page small. A character
 * typed in another script falls back to the system font.
 */
export function fontFaceCss(font: HostedFont, baseUrl: string, text: string): string {
  const codePoints = new Set(Array.from(`Aa${text}`, (char) => char.codePointAt(0) ?? 0));
  return font.faces
    .filter(({ ranges }) => [...codePoints].some((point) => ranges.some(([from, to]) => point >= from && point <= to)))
    .map(
      ({ file, unicodeRange }) =>
        `@font-face{font-family:${cssString(font.family)};font-style:normal;font-weight:100 900;font-display:swap;` +
        `src:url(${cssString(`${baseUrl}/${file.name}`)}) format("woff2");unicode-range:${unicodeRange}}`,
    )
    .join('');
}

/** The package's weight-axis stylesheet says which file covers which Unicode range; the rules are rebuilt from it. */
function readFontPackage(packageName: string): HostedFont {
  const stylesheet = require.resolve(`${packageName}/wght.css`);
  const dir = path.dirname(stylesheet);
  const css = readFileSync(stylesheet, 'utf8');
  const family = /font-family:\s*'([^']+)'/.exec(css)?.[1];
  if (!family) throw new Error(`${packageName}/wght.css names no font-family`);
  const faces: FontFace[] = [];
  for (const block of css.split('@font-face').slice(1)) {
    const file = /url\(\.\/files\/([\w.-]+-wght-normal\.woff2)\)/.exec(block)?.[1];
    const unicodeRange = /unicode-range:\s*([U+\dA-Fa-f?,-]+);/.exec(block)?.[1];
    if (file && unicodeRange) faces.push({ file: fontFile(path.join(dir, 'files', file)), unicodeRange, ranges: parseUnicodeRange(unicodeRange) });
  }
  if (faces.length === 0) throw new Error(`${packageName}/wght.css has no normal woff2 faces`);
  return { family, faces };
}

function fontFile(file: string): FontFile {
  const body = readFileSync(file);
  const hash = createHash('sha256').update(body).digest('hex');
  return { name: `${path.basename(file, '.woff2')}.${hash.slice(0, 8)}.woff2`, body, etag: `"${hash.slice(0, 32)}"` };
}

/** `U+0460-052F,U+20B4` as code point pairs. */
function parseUnicodeRange(value: string): [number, number][] {
  return value.split(',').map((part) => {
    const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(from, 16), parseInt(to, 16)];
  });
}
