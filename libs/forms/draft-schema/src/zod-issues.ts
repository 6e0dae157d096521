import type { DraftIssueCode } from '@forms/contracts';
import type { z } from 'zod';
import { type PathSegment, rawIssue, type RawIssue } from './issues';
import { FIELD_TYPES } from './model';
import { isRecord } from './object';

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

function valueAt(doc: unknown, path: readonly PathSegment[]): unknown {
  let node = doc;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
    else if (isRecord(node) && typeof segment === 'string') node = node[segment];
    else return undefined;
  }
  return node;
}

const listValues = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * Turns zod's issues into ours, with `prefix` (where `input` sits in the draft) put in front of each path.
 * `input` is consulted to tell a missing property (`required`) from a wrong one.
 */
export function fromZodIssues(issues: readonly z.core.$ZodIssue[], input: unknown, prefix: PathSegment[]): RawIssue[] {
  return issues.flatMap((issue): RawIssue[] => {
    const local = issue.path as PathSegment[];
    const path = [...prefix, ...local];
    const missing = valueAt(input, local) === undefined;
    if (missing && (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union')) {
      return [rawIssue(path, 'required', 'This property is required.')];
    }
    switch (issue.code) {
      case 'custom': {
        // Our refinements carry their code through `coded()`, which takes only listed codes.
        const code = typeof issue.params?.code === 'string' ? (issue.params.code as DraftIssueCode) : 'invalid_value';
        return [rawIssue(path, code, issue.message)];
      }
      case 'invalid_type':
        return [rawIssue(path, 'invalid_type', `Expected ${EXPECTED[issue.expected] ?? issue.expected}.`)];
      case 'unrecognized_keys': {
        const parent = valueAt(input, local);
        const owner = local.at(-2) === 'fields' && isRecord(parent) ? ` for a ${String(parent.type)} field` : '';
        return issue.keys.map((key) => rawIssue([...path, key], 'unknown_property', `Unknown property "${key}"${owner}.`));
      }
      case 'too_big':
        if (issue.origin === 'string') return [rawIssue(path, 'too_long', `Use at most ${issue.maximum} characters.`)];
        if (issue.origin === 'array') return [rawIssue(path, 'too_many', `Use at most ${issue.maximum} items.`)];
        return [rawIssue(path, 'too_large', `Must be at most ${issue.maximum}.`)];
      case 'too_small':
        if (issue.origin === 'string') return [rawIssue(path, 'required', 'This cannot be empty.')];
        if (issue.origin === 'array') return [rawIssue(path, 'too_few', `Use at least ${issue.minimum} items.`)];
        return [rawIssue(path, 'too_small', `Must be at least ${issue.minimum}.`)];
      case 'invalid_value':
        return [rawIssue(path, 'invalid_value', `Use one of: ${listValues(issue.values)}.`)];
      case 'invalid_union': {
        if (!issue.discriminator || !('options' in issue)) return [rawIssue(path, 'invalid_value', 'This value has the wrong shape.')];
        return local.at(-3) === 'fields'
          ? [rawIssue(path, 'unknown_field_type', `Unknown field type. Use one of: ${FIELD_TYPES.join(', ')}.`)]
          : [rawIssue(path, 'invalid_value', `Use one of: ${listValues(issue.options ?? [])}.`)];
      }
      case 'invalid_key':
        return [rawIssue(path, 'invalid_id', 'Use 1–100 letters, digits, "_" or "-".')];
      default:
        return [rawIssue(path, 'invalid_value', 'This value is not valid.')];
    }
  });
}
