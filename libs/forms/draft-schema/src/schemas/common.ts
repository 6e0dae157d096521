import type { DraftIssueCode } from '@forms/contracts';
import { z } from 'zod';
import { COLOR_PATTERN, ID_PATTERN, isHttpUrl } from '../formats';
import { LIMITS } from '../limits';

/** Refinement options carrying our issue code (read back by `zod-issues.ts`). */
export const coded = (code: DraftIssueCode, message: string) => ({ params: { code }, message });

/** A string matching `pattern`, refused with our issue code; the pattern is also stated for JSON Schema. */
export const matching = (pattern: RegExp, code: DraftIssueCode, message: string) =>
  z
    .string()
    .refine((v) => pattern.test(v), coded(code, message))
    .meta({ pattern: pattern.source });

export const id = matching(ID_PATTERN, 'invalid_id', 'Use 1–100 letters, digits, "_" or "-".');
export const label = z.string().max(LIMITS.label);
export const description = z.string().max(LIMITS.description);
export const nonEmptyLabel = label.min(1);
export const color = matching(COLOR_PATTERN, 'invalid_color', 'Use a #rgb or #rrggbb color.');
export const httpUrl = z.string().max(LIMITS.url).refine(isHttpUrl, coded('invalid_url', 'Use an absolute http:// or https:// URL.')).meta({ format: 'uri' });
