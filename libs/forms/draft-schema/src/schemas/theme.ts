import { z } from 'zod';
import { DEFAULT_THEME } from '../defaults';
import { FONT_FAMILY_PATTERN, GRADIENT_PATTERN, isColor, isHttpUrl } from '../formats';
import { LIMITS } from '../limits';
import { coded, color, httpUrl, id, label, matching } from './common';

const fontFamily = matching(FONT_FAMILY_PATTERN, 'invalid_font_family', 'Use 1–100 letters, digits, spaces, "_" or "-".');

const BACKGROUND_VALUE = {
  color: { test: isColor, code: 'invalid_color', message: 'Use a #rgb or #rrggbb color.' },
  image: { test: isHttpUrl, code: 'invalid_url', message: 'Use an absolute http:// or https:// URL.' },
  gradient: { test: (v: string) => GRADIENT_PATTERN.test(v), code: 'invalid_gradient', message: 'Use a CSS gradient, e.g. linear-gradient(#fff, #eee).' },
} as const;

const background = z.strictObject({ type: z.enum(['color', 'image', 'gradient']), value: z.string().max(LIMITS.url) }).superRefine(({ type, value }, ctx) => {
  const rule = BACKGROUND_VALUE[type];
  if (!rule.test(value)) ctx.addIssue({ code: 'custom', path: ['value'], ...coded(rule.code, rule.message) });
});

const customFont = z.strictObject({
  family: fontFamily,
  fileName: label.min(1).max(255),
  assetId: id,
  format: z.enum(['woff2', 'woff', 'truetype', 'opentype']),
  url: httpUrl,
});

export const themeSchema = z
  .strictObject({
    primaryColor: color.default(DEFAULT_THEME.primaryColor),
    background: background.default(() => ({ ...DEFAULT_THEME.background })),
    fontFamily: fontFamily.default(DEFAULT_THEME.fontFamily),
    customFont: customFont.nullable().optional(),
    textColor: color.optional(),
    buttonTextColor: color.optional(),
    borderRadius: z.int().min(0).max(32).optional(),
  })
  .superRefine((theme, ctx) => {
    if (theme.fontFamily === 'custom' && !theme.customFont) {
      ctx.addIssue({
        code: 'custom',
        path: ['customFont'],
        ...coded('required', 'A custom font family needs customFont (family, fileName, assetId, format, url).'),
      });
    }
  })
  .prefault({});
