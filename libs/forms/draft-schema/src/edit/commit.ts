import { toDraftIssue, type IdSource, type PathSegment } from '../issues';
import type { DraftSchema } from '../model';
import { parseDraft } from '../validate';
import { DraftEditConflict, DraftEditError } from './errors';

/** Maps a draft path onto the request body, or undefined when the path lies outside what the request sent. */
export type BodyPath = (path: PathSegment[]) => PathSegment[] | undefined;

/** Paths under `prefix` (where the request's object landed in the draft) become paths under `bodyPrefix`. */
export const under =
  (prefix: PathSegment[], bodyPrefix: PathSegment[] = []): BodyPath =>
  (path) =>
    path.length >= prefix.length && prefix.every((segment, i) => path[i] === segment) ? [...bodyPrefix, ...path.slice(prefix.length)] : undefined;

/** For operations that take no body. */
export const nothing: BodyPath = () => undefined;

/** Operations on a stored (normalized) draft mint no ids except in what the request adds. */
const noNewIds: IdSource = () => {
  throw new Error('The draft is missing ids: pass it through parseDraftSchema before editing it.');
};

/**
 * Validates and normalizes the edited draft. Issues inside the request body are a 400 naming body paths;
 * otherwise the edit would break the rest of the draft: a 409 naming draft paths.
 */
export function commit(next: unknown, toBody: BodyPath, ids: IdSource = noNewIds): DraftSchema {
  const result = parseDraft(next, ids);
  if (result.ok) return result.value;
  const inBody = result.issues.flatMap((issue) => {
    const path = toBody(issue.path);
    return path ? [toDraftIssue({ ...issue, path })] : [];
  });
  if (inBody.length > 0) throw new DraftEditError(400, inBody[0].code, inBody[0].path, inBody[0].message, inBody);
  const issues = result.issues.map(toDraftIssue);
  throw new DraftEditConflict(issues, `The form would become invalid: ${issues[0].message}`);
}

/** Checks a 0-based insert (`max` = length) or move (`max` = length - 1) position. */
export function checkPosition(position: unknown, max: number): number {
  if (typeof position === 'number' && Number.isInteger(position) && position >= 0 && position <= max) return position;
  throw new DraftEditError(400, 'invalid_position', 'position', `Use a whole number from 0 to ${max}.`);
}

/** True when `ids` names every id of `current` exactly once. */
export function isPermutation(ids: unknown, current: readonly string[]): ids is string[] {
  return (
    Array.isArray(ids) && ids.length === current.length && new Set(ids).size === ids.length && ids.every((id) => typeof id === 'string' && current.includes(id))
  );
}

export const moveItem = <T>(items: readonly T[], from: number, to: number): T[] => {
  const out = [...items];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
};

export const insertAt = <T>(items: readonly T[], position: number, item: T): T[] => [...items.slice(0, position), item, ...items.slice(position)];
