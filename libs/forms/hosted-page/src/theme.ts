import type { Theme } from '@forms/draft-schema';
import { cssColor, cssString, safeUrl } from './escape';

const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const GRADIENT = /^(repeating-)?(linear|radial|conic)-gradient\([#(),.%\w\s-]+\)$/i;
const DEFAULT_BACKGROUND = '#f6f8fa';

/** The theme as CSS custom properties on :root (plus the custom font's @font-face); every author value is checked. */
export function themeCss(theme: Theme): string {
  const font = theme.fontFamily === 'custom' ? theme.customFont : null;
  const fontUrl = safeUrl(font?.url);
  const family = font ? font.family : theme.fontFamily;
  const fontFace =
    font && fontUrl
      ? `@font-face{font-family:${cssString(font.family)};src:url(${cssString(fontUrl)}) format(${cssString(font.format)});font-display:swap}`
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
    return url ? `${DEFAULT_BACKGROUND} url(${cssString(url)}) center / cover fixed no-repeat` : DEFAULT_BACKGROUND;
  }
  if (background.type === 'gradient') return GRADIENT.test(value) ? value : DEFAULT_BACKGROUND;
  return cssColor(value) ?? DEFAULT_BACKGROUND;
}
