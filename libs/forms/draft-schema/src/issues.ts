import type { DraftIssueCode } from '@forms/contracts';
import { isRecord } from './object';

/** One problem found in a draft. `path` is relative to the draft schema root (`steps[1].fields[0].options`). */
export interface DraftIssue {
  path: string;
  /** Stable snake_case code (`required`, `duplicate_id`, `unknown_reference`, …), listed in the forms error registry. */
  code: DraftIssueCode;
  /** Short, human, safe to show to the form's author. */
  message: string;
}

export type DraftResult<T> = { ok: true; value: T } | { ok: false; issues: DraftIssue[] };

/** Mints a new id for the given kind prefix (`stp`, `fld`, `opt`, …). */
export type IdSource = (prefix: string) => string;

export type PathSegment = string | number;

/** An issue whose path is still a list of segments; formatted once, after sorting. */
export interface RawIssue {
  path: PathSegment[];
  code: DraftIssueCode;
  message: string;
}

export const rawIssue = (path: PathSegment[], code: DraftIssueCode, message: string): RawIssue => ({ path, code, message });

const PLAIN_SEGMENT = /^[A-Za-z0-9_$-]+$/;

/** `['steps', 1, 'fields', 0, 'label']` → `steps[1].fields[0].label`; odd keys are written `["a b"]`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_SEGMENT.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Where each path segment sits in `doc`: array index, or the key's position in its object (missing keys last). */
function documentRank(doc: unknown, path: readonly PathSegment[]): number[] {
  const ranks: number[] = [];
  let node: unknown = doc;
  for (const segment of path) {
    if (typeof segment === 'number') {
      ranks.push(segment);
      node = Array.isArray(node) ? node[segment] : undefined;
      continue;
    }
    const index = isRecord(node) ? Object.keys(node).indexOf(segment) : -1;
    ranks.push(index === -1 ? Number.MAX_SAFE_INTEGER : index);
    node = index === -1 ? undefined : (node as Record<string, unknown>)[segment];
  }
  return ranks;
}

/** Sorts issues by where their paths occur in `doc` (a parent before its children; stable otherwise). */
export function sortByDocument(issues: readonly RawIssue[], doc: unknown): RawIssue[] {
  const ranked = issues.map((issue) => ({ issue, rank: documentRank(doc, issue.path) }));
  ranked.sort((a, b) => {
    for (let i = 0; i < Math.min(a.rank.length, b.rank.length); i++) {
      if (a.rank[i] !== b.rank[i]) return a.rank[i] - b.rank[i];
    }
    return a.rank.length - b.rank.length;
  });
  return ranked.map((r) => r.issue);
}

export const toDraftIssue = (issue: RawIssue): DraftIssue => ({ path: formatPath(issue.path), code: issue.code, message: issue.message });
