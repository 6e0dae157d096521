import type { DraftSchema, Theme } from '../model';
import { isRecord, mergePatch } from '../object';
import { commit, under } from './commit';
import { badRequest } from './errors';

/**
 * Merges `patch` into the theme: keys replace, `background` merges key by key, and null removes a key
 * (an optional one such as `customFont` is cleared; a required one returns to its default).
 * Issue paths name the request body's `theme` object (`theme.background.type`).
 */
export function mergeTheme(schema: DraftSchema, patch: unknown): { schema: DraftSchema; theme: Theme } {
  if (!isRecord(patch)) throw badRequest(patch === undefined ? 'required' : 'invalid_type', 'theme', 'Send theme as an object.');
  const theme = mergePatch({ ...schema.theme }, patch);
  if (isRecord(patch.background)) theme.background = mergePatch({ ...schema.theme.background }, patch.background);
  const next = commit({ ...schema, theme }, under(['theme'], ['theme']));
  return { schema: next, theme: next.theme };
}
