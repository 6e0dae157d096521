import type { DraftSchema } from '@forms/draft-schema';

/** Right-to-left scripts, with the language a page in each is most likely written in (the form has no language setting). */
const RTL_SCRIPTS: [RegExp, string][] = [
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Syriac}/u, 'syr'],
  [/\p{Script=Thaana}/u, 'dv'],
  [/\p{Script=Nko}/u, 'nqo'],
];

export interface PageLanguage {
  lang: string;
  dir: 'ltr' | 'rtl';
}

/**
 * The page's direction from the form's own words, as `dir="auto"` decides for one element: the first letter of the
 * title (or of the first step title or label that has one) says whether the page reads right to left.
 */
export function pageLanguage(title: string, schema?: DraftSchema): PageLanguage {
  const texts = [title, ...(schema?.steps.flatMap((step) => [step.title, ...step.fields.map((field) => field.label)]) ?? [])];
  const letter = texts.map((text) => /\p{L}/u.exec(text ?? '')?.[0]).find(Boolean);
  const rtl = letter ? RTL_SCRIPTS.find(([script]) => script.test(letter)) : undefined;
  return rtl ? { lang: rtl[1], dir: 'rtl' } : { lang: 'en', dir: 'ltr' };
}
