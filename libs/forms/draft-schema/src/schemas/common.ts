import type { DraftIssueCode } from '@forms/contracts';
import { z } from 'zod';
import { ID_PATTERN, isColor, isHttpUrl } from '../formats';
import { LIMITS } from '../limits';

/** Refinement options carrying our issue code (read back by `zod-issues.ts`). */
export const coded = (code: DraftIssueCode, message: string) => ({ params: { code }, message });

export const id = z.string().refine((v) => ID_PATTERN.test(v), coded('invalid_id', 'Use 1–100 letters, digits, "_" or "-".'));
export const label = z.string().max(LIMITS.label);
export const description = z.string().max(LIMITS.description);
export const nonEmptyLabel = label.min(1);
export const color = z.string().refine(isColor, coded('invalid_color', 'Use a #rgb or #rrggbb color.'));
export const httpUrl = z.string().max(LIMITS.url).refine(isHttpUrl, coded('invalid_url', 'Use an absolute http:// or https:// URL.'));
