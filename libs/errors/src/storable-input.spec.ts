import { findUnstorableInput, MAX_INPUT_DEPTH } from './storable-input';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('findUnstorableInput', () => {
  it('accepts ordinary input, including paired surrogates (emoji)', () => {
    expect(findUnstorableInput({ title: 'Café 🎉', steps: [{ fields: [{ label: 'Ünïcode' }] }] }, '')).toBeUndefined();
    expect(findUnstorableInput(nested(MAX_INPUT_DEPTH - 1), '')).toBeUndefined();
  });

  it('names the string holding a NUL or an unpaired surrogate', () => {
    expect(findUnstorableInput({ steps: [{ title: 'a\u0000b' }] }, '')?.details).toEqual({ field: 'steps[0].title' });
    expect(findUnstorableInput({ title: 'x\ud800y' }, '')?.code).toBe('invalid_characters');
    expect(findUnstorableInput({ title: '\udc00' }, '')?.code).toBe('invalid_characters');
    expect(findUnstorableInput({ 'bad\u0000key': 1 }, '')?.code).toBe('invalid_characters');
    expect(findUnstorableInput('a\u0000', '')?.details).toEqual({ field: 'body' });
  });

  it('refuses nesting deeper than the limit without overflowing the stack', () => {
    const error = findUnstorableInput(nested(100_000), '');
    expect(error?.code).toBe('input_too_deep');
    expect(error?.status).toBe(400);
  });
});
