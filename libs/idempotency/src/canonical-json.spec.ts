import { MAX_INPUT_DEPTH } from '@shared/errors';
import { canonicalJson } from './idempotency.interceptor';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('canonicalJson', () => {
  it('sorts object keys at every level, so key order does not change the fingerprint', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });

  it('keeps array order and distinguishes types', () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson(['a"b'])).toBe('["a\\"b"]');
  });

  it('writes a missing body as null, and scalars as JSON', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(0)).toBe('0');
    expect(canonicalJson('')).toBe('""');
    expect(canonicalJson(false)).toBe('false');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });

  it('accepts the deepest nesting the validators accept and refuses one level more with input_too_deep', () => {
    expect(canonicalJson(nested(MAX_INPUT_DEPTH))).toBe(`${'['.repeat(MAX_INPUT_DEPTH)}1${']'.repeat(MAX_INPUT_DEPTH)}`);
    expect(() => canonicalJson(nested(MAX_INPUT_DEPTH + 1))).toThrow(expect.objectContaining({ status: 400, code: 'input_too_deep' }));
    expect(() => canonicalJson(nested(100_000))).toThrow(expect.objectContaining({ code: 'input_too_deep' }));
  });
});
