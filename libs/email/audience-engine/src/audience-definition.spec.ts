import { DomainError } from '@shared/errors';
import { parseAudienceDefinition } from './audience-definition';

const condition = { id: 'c1', field: 'subscriber_status', operator: 'is', value: ['Active'] };
const definitionWith = (override: object) => ({ match: 'all', groups: [{ id: 'g1', match: 'any', conditions: [{ ...condition, ...override }] }] });

function refusal(input: unknown): { code: string; field?: string } {
  try {
    parseAudienceDefinition(input);
  } catch (error) {
    const body = (error as DomainError).toBody();
    return { code: body.code, field: body.details?.field };
  }
  throw new Error('accepted');
}

describe('parseAudienceDefinition', () => {
  it('accepts the contract example unchanged', () => {
    const example = {
      match: 'all',
      groups: [
        { id: 'active-subscribers', match: 'all', conditions: [{ id: 'active-status', field: 'subscriber_status', operator: 'is', value: ['Active'] }] },
      ],
    };
    expect(parseAudienceDefinition(example)).toEqual(example);
  });

  it('keeps every value shape the contract allows, and customFieldId including null', () => {
    for (const value of ['x', 3.5, false, ['a', 'b'], null]) {
      expect(parseAudienceDefinition(definitionWith({ value, customFieldId: null })).groups[0].conditions[0]).toEqual({
        ...condition,
        value,
        customFieldId: null,
      });
    }
  });

  it('stores the ids and codes the compiler trims trimmed (so delete guards find them), other values as sent', () => {
    const parsed = (field: string, value: unknown) => parseAudienceDefinition(definitionWith({ field, operator: 'is', value })).groups[0].conditions[0].value;
    expect(parsed('tag', [' tag_1', 'tag_2 '])).toEqual(['tag_1', 'tag_2']);
    expect(parsed('segment', ' seg_1 ')).toBe('seg_1');
    for (const field of ['subscriber_status', 'country', 'sequence', 'form']) expect(parsed(field, [' x '])).toEqual(['x']);
    expect(parsed('tag', ['  '])).toEqual(['']); // still refused when compiled
    expect(parsed('custom_field', ' spaced text ')).toBe(' spaced text ');
    expect(parsed('email_opened', true)).toBe(true);
  });

  it('accepts a definition at every bound', () => {
    const conditions = Array.from({ length: 20 }, (_, i) => ({ ...condition, id: `c${i}`, value: Array.from({ length: 1000 }, () => 'y'.repeat(1000)) }));
    const groups = Array.from({ length: 20 }, (_, i) => ({ id: `g${i}`, match: 'all', conditions }));
    expect(parseAudienceDefinition({ match: 'all', groups }).groups).toHaveLength(20);
  });

  it('accepts a definition without groups', () => {
    expect(parseAudienceDefinition({ match: 'any', groups: [] })).toEqual({ match: 'any', groups: [] });
  });

  it.each([
    ['a non-object', 'nope', 'definition'],
    ['an unknown property', { match: 'all', groups: [], extra: 1 }, 'definition.extra'],
    ['a missing match', { groups: [] }, 'definition.match'],
    ['an unknown match', { match: 'some', groups: [] }, 'definition.match'],
    ['groups that are not an array', { match: 'all', groups: {} }, 'definition.groups'],
    ['a group without conditions', { match: 'all', groups: [{ id: 'g', match: 'all', conditions: [] }] }, 'definition.groups[0].conditions'],
    ['a group without id', { match: 'all', groups: [{ match: 'all', conditions: [condition] }] }, 'definition.groups[0].id'],
    ['an unknown field', definitionWith({ field: 'city' }), 'definition.groups[0].conditions[0].field'],
    ['an unknown operator', definitionWith({ operator: 'matches' }), 'definition.groups[0].conditions[0].operator'],
    ['an empty condition id', definitionWith({ id: '' }), 'definition.groups[0].conditions[0].id'],
    ['an object value', definitionWith({ value: { a: 1 } }), 'definition.groups[0].conditions[0].value'],
    ['a mixed array value', definitionWith({ value: ['a', 1] }), 'definition.groups[0].conditions[0].value'],
    ['a numeric customFieldId', definitionWith({ customFieldId: 7 }), 'definition.groups[0].conditions[0].customFieldId'],
    ['an unknown condition property', definitionWith({ negate: true }), 'definition.groups[0].conditions[0].negate'],
    [
      '21 groups',
      { match: 'any', groups: Array.from({ length: 21 }, (_, i) => ({ id: `g${i}`, match: 'all', conditions: [condition] })) },
      'definition.groups',
    ],
    [
      '21 conditions in a group',
      { match: 'all', groups: [{ id: 'g', match: 'all', conditions: Array.from({ length: 21 }, (_, i) => ({ ...condition, id: `c${i}` })) }] },
      'definition.groups[0].conditions',
    ],
    ['1,001 values', definitionWith({ value: Array.from({ length: 1001 }, (_, i) => `tag_${i}`) }), 'definition.groups[0].conditions[0].value'],
    ['a 1,001-character value', definitionWith({ value: 'x'.repeat(1001) }), 'definition.groups[0].conditions[0].value'],
    ['a 1,001-character value in a list', definitionWith({ value: ['x'.repeat(1001)] }), 'definition.groups[0].conditions[0].value'],
  ])('refuses %s as validation_failed naming the path', (_, input, field) => {
    expect(refusal(input)).toEqual({ code: 'validation_failed', field });
  });
});
