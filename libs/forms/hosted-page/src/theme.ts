import type { Theme } from '@forms/draft-schema';
import { cssColor, cssString, safeUrl } from './escape';
import { fontFaceCss, hostedFont } from './fonts';

const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const GRADIENT = /^(repeating-)?(linear|radial|conic)-gradient\([#(),.%\w\s-]+\)$/i;
const DEFAULT_BACKGROUND = '#f6f8fa';
/** Dims a background image (to 75% brightness) so the white card stands out on a busy or light photo. */
const IMAGE_SCRIM = 'linear-gradient(rgba(0,0,0,.25), rgba(0,0,0,.25))';

/** A custom font's origin, which the page's CSP must allow as a font source besides 'self'. */
export function customFontOrigin(theme: Theme): string | null {
  const url = theme.fontFamily === 'custom' ? safeUrl(theme.customFont?.url) : null;
  return url ? new URL(url).origin : null;
}

/**
 * The theme as CSS custom properties on :root, plus the @font-face rules of its font: a self-hosted family's files
 * under `fontsUrl` (see fonts.ts; null: none, the family only if the device has it), for the scripts of `text`, or
 * the custom font's own URL.
 * Every author value is checked.
 */
export function themeCss(theme: Theme, fontsUrl: string | null, text = ''): string {
  const custom = theme.fontFamily === 'custom' ? theme.customFont : null;
  const customUrl = safeUrl(custom?.url);
  const hosted = custom || fontsUrl === null ? null : hostedFont(theme.fontFamily);
  const family = custom ? custom.family : (hosted?.family ?? theme.fontFamily);
  const fontFace = hosted
    ? fontFaceCss(hosted, fontsUrl ?? '', text)
    : custom && customUrl
      ? `@font-face{font-family:${cssString(custom.family)};src:url(${cssString(customUrl)}) format(${cssString(custom.format)});font-display:swap}`
      : '';
  const radius = Math.min(Math.max(theme.borderRadius ?? 8, 0), 32);
  const properties = [
    `--primary:${cssColor(theme.primaryColor) ?? '#2563eb'}`,
    `--text:${cssColor(theme.textColor) ?? '#1f2328'}`,
    `--button-text:${cssColor(theme.buttonTextColor) ?? '#ffffff'}`,
    `--radius:${radius}px`,
    `--font:${family && family !== 'custom' ? `${cssString(family)}, ` : ''}${SYSTEM_FONTS}`,
    `--page-bg:${pageBackground(theme.background)}`,
  ];
  return `${fontFace}:root{${properties.join(';')}}`;
}

function pageBackground(background: Theme['background']): string {
  const value = background.value.trim();
  if (background.type === 'image') {
    const url = safeUrl(value);
    return url ? `${IMAGE_SCRIM}, ${DEFAULT_BACKGROUND} url(${cssString(url)}) center / cover fixed no-repeat` : DEFAULT_BACKGROUND;
  }
  if (background.type === 'gradient') return GRADIENT.test(value) ? value : DEFAULT_BACKGROUND;
  return cssColor(value) ?? DEFAULT_BACKGROUND;
}
