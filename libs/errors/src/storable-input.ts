import type { DomainError } from './domain-error';
import { SharedErrors } from './error-codes';

/** Deeper than any document our APIs accept; deeper input would only exhaust the stack of the validators. */
export const MAX_INPUT_DEPTH = 64;

// PostgreSQL text and jsonb cannot hold U+0000, and an unpaired surrogate is not valid Unicode.
// eslint-disable-next-line no-control-regex -- matching U+0000 is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether PostgreSQL can store `text` as it is (no NUL, no unpaired surrogate). */
export const isStorableText = (text: string) => !UNSTORABLE.test(text);

const child = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/**
 * The first problem that would make a request value unstorable: a string with a NUL character or an unpaired
 * surrogate, or nesting deeper than MAX_INPUT_DEPTH. Iterative, so hostile depth cannot overflow the stack.
 */
export function findUnstorableInput(value: unknown, root: string): DomainError | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (pending.length) {
    const { value: current, path, depth } = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return unstorable(path || 'body');
      continue;
    }
    if (typeof current !== 'object' || current === null || Buffer.isBuffer(current)) continue;
    if (depth >= MAX_INPUT_DEPTH) return inputTooDeep(path || 'body');
    const entries: [string | number, unknown][] = Array.isArray(current) ? current.map((item, index) => [index, item]) : Object.entries(current);
    for (const [key, item] of entries) {
      if (typeof key === 'string' && !isStorableText(key)) return unstorable(child(path, key.replace(UNSTORABLE, '?')));
      pending.push({ value: item, path: child(path, key), depth: depth + 1 });
    }
  }
  return undefined;
}

export function inputTooDeep(field: string): DomainError {
  return SharedErrors.fail('input_too_deep', `The input is nested more than ${MAX_INPUT_DEPTH} levels deep.`, { details: { field } });
}

function unstorable(field: string): DomainError {
  return SharedErrors.fail('invalid_characters', `${field} contains a NUL character or an unpaired surrogate.`, { details: { field } });
}
