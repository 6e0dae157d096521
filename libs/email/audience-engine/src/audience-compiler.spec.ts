import { CustomFieldType } from '@email/data-access';
import { trustedWorkspaceId } from '@shared/core';
import { DomainError } from '@shared/errors';
import { AudienceCondition, AudienceDefinition } from './audience-definition';
import { compileAudience, CompileContext, customFieldIdsOf, MAX_EXPANDED_CONDITIONS } from './audience-compiler';
import { SEQUENCE_OPERATORS } from './membership';

const FIELD_TYPES: Record<string, CustomFieldType> = {
  cf_text: 'Text',
  cf_area: 'Text_Area',
  cf_number: 'Number',
  cf_date: 'Date',
  cf_dropdown: 'Select_Dropdown',
  cf_single: 'Single_Select',
  cf_multi: 'Multi_Select',
  cf_check: 'Checkbox',
};
const EVERYONE: AudienceDefinition = { match: 'all', groups: [] };
const context: CompileContext = {
  workspaceId: trustedWorkspaceId('wsp_a'),
  customFieldTypes: new Map(Object.entries(FIELD_TYPES)),
  segments: new Map([['seg_1', EVERYONE]]),
  today: '2026-11-23',
};
const ENGAGEMENT_FIELDS = ['email_opened', 'email_unsubscribed', 'magic_link_clicked'] as const;
const one = (condition: Omit<AudienceCondition, 'id'>): AudienceDefinition => ({
  match: 'all',
  groups: [{ id: 'g', match: 'all', conditions: [{ id: 'c-7', ...condition }] }],
});
const compile = (condition: Omit<AudienceCondition, 'id'>) => compileAudience(one(condition), context);

function refusal(condition: Omit<AudienceCondition, 'id'>) {
  try {
    compile(condition);
  } catch (error) {
    return (error as DomainError).toBody();
  }
  throw new Error('compiled');
}

describe('compileAudience: what each field accepts', () => {
  it.each<Omit<AudienceCondition, 'id'>>([
    { field: 'subscriber_status', operator: 'is', value: ['Active', 'Unconfirmed'] },
    { field: 'subscriber_status', operator: 'is_not', value: 'Bounced' },
    { field: 'country', operator: 'is', value: ['de', 'FR'] },
    { field: 'country', operator: 'is_not', value: 'US' },
    { field: 'country', operator: 'in_region', value: ['EU', 'north america'] },
    { field: 'country', operator: 'not_in_region', value: 'DACH' },
    { field: 'country', operator: 'is_empty' },
    { field: 'country', operator: 'is_not_empty', value: null },
    { field: 'tag', operator: 'has_any_of', value: ['tag_1'] },
    { field: 'tag', operator: 'has_none_of', value: 'tag_1' },
    ...SEQUENCE_OPERATORS.map((operator) => ({ field: 'sequence' as const, operator, value: ['seq_1'] })),
    ...(['is', 'is_not', 'contains', 'does_not_contain'] as const).flatMap((operator) =>
      ['cf_text', 'cf_area'].map((customFieldId) => ({ field: 'custom_field' as const, operator, value: 'x', customFieldId })),
    ),
    ...(['is', 'is_not', 'greater_than', 'less_than'] as const).map((operator) => ({
      field: 'custom_field' as const,
      operator,
      value: 4.5,
      customFieldId: 'cf_number',
    })),
    ...(['on', 'before', 'after'] as const).map((operator) => ({ field: 'custom_field' as const, operator, value: '2024-02-29', customFieldId: 'cf_date' })),
    { field: 'custom_field', operator: 'in_last_days', value: 30, customFieldId: 'cf_date' },
    ...(['is', 'is_not', 'has_any_of', 'has_none_of'] as const).flatMap((operator) =>
      ['cf_dropdown', 'cf_single'].map((customFieldId) => ({ field: 'custom_field' as const, operator, value: ['Red'], customFieldId })),
    ),
    { field: 'custom_field', operator: 'has_any_of', value: ['Red'], customFieldId: 'cf_multi' },
    { field: 'custom_field', operator: 'has_none_of', value: 'Red', customFieldId: 'cf_multi' },
    { field: 'custom_field', operator: 'is', value: false, customFieldId: 'cf_check' },
    ...(['is', 'is_not', 'has_any_of', 'has_none_of'] as const).flatMap((operator) => [
      { field: 'form' as const, operator, value: ['frm_1'] },
      { field: 'segment' as const, operator, value: ['seg_1'] },
    ]),
    ...ENGAGEMENT_FIELDS.flatMap((field) => [
      { field, operator: 'is' as const, value: true },
      { field, operator: 'is' as const, value: false },
      { field, operator: 'in_last_days' as const, value: 30 },
      { field, operator: 'before' as const, value: '2026-01-31' },
      { field, operator: 'after' as const, value: '2026-01-31' },
    ]),
    ...['cf_text', 'cf_area', 'cf_number', 'cf_date', 'cf_dropdown', 'cf_single', 'cf_multi'].flatMap((customFieldId) =>
      (['is_empty', 'is_not_empty'] as const).map((operator) => ({ field: 'custom_field' as const, operator, customFieldId })),
    ),
  ])('compiles %j with every user value bound, never in the SQL text', (condition) => {
    const sql = compile(condition);
    expect(sql.values).toContain('wsp_a');
    const userValues = [condition.value, condition.customFieldId].flat().filter((v): v is string => typeof v === 'string');
    for (const value of userValues) expect(sql.strings.join('')).not.toContain(value);
  });

  it('binds the workspace in every subquery', () => {
    const sql = compileAudience(
      {
        match: 'any',
        groups: [
          { id: 'g1', match: 'all', conditions: [{ id: 'c1', field: 'tag', operator: 'has_any_of', value: ['t'] }] },
          { id: 'g2', match: 'all', conditions: [{ id: 'c2', field: 'sequence', operator: 'has_ever_been_in_any_of', value: ['q'] }] },
        ],
      },
      context,
    );
    expect(sql.values.filter((value) => value === 'wsp_a')).toHaveLength(3);
    expect(sql.text).toMatch(/st\.workspace_id = \$\d+/);
    expect(sql.text).toMatch(/e\.workspace_id = \$\d+/);
  });

  it('matches everyone in the workspace when there are no groups', () => {
    expect(compileAudience({ match: 'any', groups: [] }, context).text).toBe('s.workspace_id = $1 AND TRUE');
  });

  it('lists the custom field ids a definition names, once each', () => {
    const definition: AudienceDefinition = {
      match: 'all',
      groups: [
        {
          id: 'g',
          match: 'any',
          conditions: [
            { id: 'a', field: 'custom_field', operator: 'is_empty', customFieldId: 'cf_1' },
            { id: 'b', field: 'custom_field', operator: 'is_empty', customFieldId: 'cf_1' },
            { id: 'c', field: 'tag', operator: 'has_any_of', value: ['t'], customFieldId: 'cf_2' },
          ],
        },
      ],
    };
    expect(customFieldIdsOf(definition)).toEqual(['cf_1']);
  });
});

describe('compileAudience: refusals name the condition id', () => {
  it.each<[string, Omit<AudienceCondition, 'id'>]>([
    ['an operator of another field', { field: 'subscriber_status', operator: 'contains', value: 'Act' }],
    ['an unknown status', { field: 'subscriber_status', operator: 'is', value: ['Happy'] }],
    ['an empty list', { field: 'tag', operator: 'has_any_of', value: [] }],
    ['a blank id in a list', { field: 'tag', operator: 'has_any_of', value: ['t', ' '] }],
    ['a tag operator of sequences', { field: 'tag', operator: 'is_active_in_any_of', value: ['t'] }],
    ['a number for tags', { field: 'tag', operator: 'has_any_of', value: 3 }],
    ['a country that is not a code', { field: 'country', operator: 'is', value: 'Germany' }],
    ['an unknown region', { field: 'country', operator: 'in_region', value: ['Atlantis'] }],
    ['a region operator on tags', { field: 'tag', operator: 'in_region', value: 'EU' }],
    ['a custom field without customFieldId', { field: 'custom_field', operator: 'is_empty' }],
    ['a custom field of no type known here (another workspace)', { field: 'custom_field', operator: 'is_empty', customFieldId: 'cf_foreign' }],
    ['contains on a number field', { field: 'custom_field', operator: 'contains', value: '4', customFieldId: 'cf_number' }],
    ['a text value for a number field', { field: 'custom_field', operator: 'greater_than', value: '4', customFieldId: 'cf_number' }],
    ['greater_than on a date field', { field: 'custom_field', operator: 'greater_than', value: 3, customFieldId: 'cf_date' }],
    ['an impossible date', { field: 'custom_field', operator: 'on', value: '2025-02-29', customFieldId: 'cf_date' }],
    ['a date-time instead of a date', { field: 'custom_field', operator: 'before', value: '2025-02-01T00:00:00Z', customFieldId: 'cf_date' }],
    ['zero days', { field: 'custom_field', operator: 'in_last_days', value: 0, customFieldId: 'cf_date' }],
    ['fractional days', { field: 'custom_field', operator: 'in_last_days', value: 1.5, customFieldId: 'cf_date' }],
    ['is on a multi-select', { field: 'custom_field', operator: 'is', value: 'Red', customFieldId: 'cf_multi' }],
    ['a string for a checkbox', { field: 'custom_field', operator: 'is', value: 'true', customFieldId: 'cf_check' }],
    ['is_empty on a checkbox', { field: 'custom_field', operator: 'is_empty', customFieldId: 'cf_check' }],
    ['a text is with a list', { field: 'custom_field', operator: 'is', value: ['a'], customFieldId: 'cf_text' }],
  ])('refuses %s as invalid_audience_condition', (_, condition) => {
    expect(refusal(condition)).toMatchObject({ code: 'invalid_audience_condition', condition_id: 'c-7', message: expect.stringContaining('"c-7"') });
  });

  it.each<[string, Omit<AudienceCondition, 'id'>]>([
    ['a segment the workspace does not have', { field: 'segment', operator: 'has_any_of', value: ['seg_foreign'] }],
    ['contains on segments', { field: 'segment', operator: 'contains', value: 'seg_1' }],
    ['a region operator on forms', { field: 'form', operator: 'in_region', value: 'EU' }],
    ['an empty form list', { field: 'form', operator: 'has_any_of', value: [] }],
    ...ENGAGEMENT_FIELDS.flatMap((field): Array<[string, Omit<AudienceCondition, 'id'>]> => [
      [`${field} has_any_of`, { field, operator: 'has_any_of', value: ['x'] }],
      [`${field} in_last_days 0`, { field, operator: 'in_last_days', value: 0 }],
      [`${field} is with a string`, { field, operator: 'is', value: 'yes' }],
      [`${field} before a date-time`, { field, operator: 'before', value: '2026-01-31T10:00:00Z' }],
    ]),
  ])('refuses %s as invalid_audience_condition', (_, condition) => {
    expect(refusal(condition)).toMatchObject({ code: 'invalid_audience_condition', condition_id: 'c-7' });
  });

  it(`counts each expansion of a nested segment towards ${MAX_EXPANDED_CONDITIONS} conditions, naming the outer condition`, () => {
    const naming = (id: string, times: number): AudienceDefinition => ({
      match: 'all',
      groups: [{ id: 'g', match: 'any', conditions: Array.from({ length: times }, (_, i) => ({ id: `r${i}`, field: 'segment', operator: 'is', value: id })) }],
    });
    // seg_0 has 1 condition, seg_1 names it 9 times (18 expanded), seg_2 names seg_1 9 times (171).
    const segments = new Map([
      ['seg_0', one({ field: 'tag', operator: 'has_any_of', value: ['t'] })],
      ['seg_1', naming('seg_0', 9)],
      ['seg_2', naming('seg_1', 9)],
    ]);
    expect(() => compileAudience(naming('seg_2', 5), { ...context, segments })).not.toThrow(); // 5 × 172 = 860
    let refused: DomainError | undefined;
    try {
      compileAudience(naming('seg_2', 6), { ...context, segments }); // 6 × 172 = 1,032
    } catch (error) {
      refused = error as DomainError;
    }
    expect(refused?.toBody()).toMatchObject({
      code: 'audience_definition_too_large',
      condition_id: 'r5',
      message: expect.stringContaining('through segment "seg_2"'),
    });
  });

  it('binds the workspace inside form, engagement and nested segment subqueries', () => {
    const segments = new Map([['seg_tagged', one({ field: 'tag', operator: 'has_any_of', value: ['t'] })]]);
    const sql = compileAudience(
      {
        match: 'all',
        groups: [
          {
            id: 'g',
            match: 'all',
            conditions: [
              { id: 'f', field: 'form', operator: 'has_any_of', value: ['frm_1'] },
              { id: 'o', field: 'email_opened', operator: 'in_last_days', value: 7 },
              { id: 's', field: 'segment', operator: 'is', value: 'seg_tagged' },
            ],
          },
        ],
      },
      { ...context, segments },
    );
    expect(sql.values.filter((value) => value === 'wsp_a')).toHaveLength(4);
    for (const alias of ['fs', 'g', 'st']) expect(sql.text).toMatch(new RegExp(`${alias}\\.workspace_id = \\$\\d+`));
  });
});
