import { DEFAULT_THANK_YOU_SCREEN_ID, type Theme, type ThankYouScreen } from './model';

/** What a missing `theme` (or a theme key reset with null) becomes. */
export const DEFAULT_THEME: Readonly<Theme> = Object.freeze({
  primaryColor: '#4f46e5',
  background: Object.freeze({ type: 'color' as const, value: '#ffffff' }),
  fontFamily: 'Inter',
});

/** `settings.submissions.thankYou` when the draft has none. */
export const DEFAULT_THANK_YOU_SCREEN: Readonly<ThankYouScreen> = Object.freeze({
  id: DEFAULT_THANK_YOU_SCREEN_ID,
  title: 'Thank you!',
  description: 'Your response was recorded.',
});

/** Type-specific properties that are always stored, with the value a draft gets when it omits them. */
export const FIELD_DEFAULTS = Object.freeze({
  rating: Object.freeze({ max: 5, icon: 'star' as const }),
  /** A 1–5 agreement (Likert) scale; 0–10 is what `nps` is for. */
  opinion_scale: Object.freeze({ min: 1, max: 5 }),
  file_upload: Object.freeze({ maxFiles: 1, maxSizeMb: 10, accept: Object.freeze([] as string[]) }),
  hidden: Object.freeze({ dataType: 'text' as const }),
});

/** Answer length caps when a text field sets no `maxLength`. */
export const DEFAULT_MAX_LENGTH = Object.freeze({ text: 500, long_text: 10_000 });
