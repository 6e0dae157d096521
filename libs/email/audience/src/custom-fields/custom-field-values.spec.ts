import { DomainError } from '@shared/errors';
import { FieldDefinition, normalizeCustomFields, normalizeFieldValue } from './custom-field-values';
import { personalizationToken } from './personalization-token';

const field = (type: FieldDefinition['type'], options: string[] = []): FieldDefinition => ({ id: 'cf_1', type, options });

describe('custom field values', () => {
  it('normalizes each type', () => {
    expect(normalizeFieldValue(field('Text'), 'hi', 'p')).toBe('hi');
    expect(normalizeFieldValue(field('Number'), '42.5', 'p')).toBe(42.5);
    expect(normalizeFieldValue(field('Number'), 7, 'p')).toBe(7);
    expect(normalizeFieldValue(field('Date'), '2024-02-29', 'p')).toBe('2024-02-29');
    expect(normalizeFieldValue(field('Single Select', ['a', 'b']), 'b', 'p')).toBe('b');
    expect(normalizeFieldValue(field('Select (Dropdown)', ['a']), 'a', 'p')).toBe('a');
    expect(normalizeFieldValue(field('Multi Select', ['a', 'b', 'c']), 'a, c', 'p')).toEqual(['a', 'c']);
    expect(normalizeFieldValue(field('Multi Select', ['a', 'b']), ['b', 'a', 'b'], 'p')).toEqual(['b', 'a']);
    expect(normalizeFieldValue(field('Checkbox'), true, 'p')).toBe(true);
    expect(normalizeFieldValue(field('Checkbox'), 'false', 'p')).toBe(false);
    expect(normalizeFieldValue(field('Text Area'), 'x'.repeat(5000), 'p')).toHaveLength(5000);
  });

  it('rejects invalid filled values, naming the key', () => {
    const cases: Array<[FieldDefinition, unknown]> = [
      [field('Text'), { a: 1 }],
      [field('Text'), 'x'.repeat(256)],
      [field('Number'), 'abc'],
      [field('Number'), '1e5'],
      [field('Date'), '2023-02-29'],
      [field('Date'), '2024/01/01'],
      [field('Single Select', ['a']), 'z'],
      [field('Multi Select', ['a']), 'a,z'],
      [field('Multi Select', ['a']), [1]],
      [field('Checkbox'), 'yes'],
    ];
    for (const [definition, value] of cases) {
      try {
        normalizeFieldValue(definition, value, 'custom_fields.cf_1');
        throw new Error(`accepted ${JSON.stringify(value)} for ${definition.type}`);
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).details).toEqual({ field: 'custom_fields.cf_1' });
      }
    }
  });

  it('drops blank values and rejects unknown ids', () => {
    const fields = new Map([['cf_1', field('Number')]]);
    expect(normalizeCustomFields({ cf_1: '' }, fields)).toEqual({});
    expect(normalizeCustomFields({ cf_1: null }, fields)).toEqual({});
    expect(() => normalizeCustomFields({ cf_9: 'x' }, fields)).toThrow(DomainError);
  });

  it('computes the personalization token from the label', () => {
    expect(personalizationToken('Favorite color')).toBe('[Subscriber_Favorite_Color, fallback=""]');
    expect(personalizationToken('  plan [tier], "beta" ')).toBe('[Subscriber_Plan_Tier_Beta, fallback=""]');
  });
});
