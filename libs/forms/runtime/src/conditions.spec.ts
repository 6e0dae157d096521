import {
  CONDITION_OPERATORS,
  DEFAULT_THANK_YOU_SCREEN_ID,
  type Condition,
  type ConditionOperator,
  type DraftSchema,
  type Field,
  type WorkflowVariable,
} from '@forms/draft-schema';
import { conditionHolds, ruleHolds } from './conditions';
import { createRunState, type Answers } from './run-state';

const fields: Field[] = [
  { id: 'name', type: 'text', label: 'Name', required: false },
  { id: 'age', type: 'number', label: 'Age', required: false },
  { id: 'colors', type: 'multiple_choice', label: 'Colors', required: false, options: ['Red', 'Green', 'Blue'].map((c) => ({ id: c, label: c, value: c })) },
  { id: 'plan', type: 'single_choice', label: 'Plan', required: false, options: [{ id: 'p', label: 'Pro', value: 'pro' }] },
  { id: 'agree', type: 'checkbox', label: 'Agree', required: false },
  { id: 'day', type: 'date', label: 'Day', required: false },
  { id: 'files', type: 'file_upload', label: 'Files', required: false, maxFiles: 2, maxSizeMb: 5, accept: [] },
  { id: 'ref', type: 'hidden', label: 'Ref', required: false, name: 'ref', dataType: 'number' },
];
const variables: WorkflowVariable[] = [
  { id: 'count', name: 'count', type: 'number' },
  { id: 'label', name: 'label', type: 'text' },
  { id: 'total', name: 'total', type: 'number', initialValue: 7 },
];

const schema: DraftSchema = {
  version: 1,
  steps: [{ id: 's1', title: 'One', fields }],
  settings: { hidden: { variables }, submissions: { thankYou: { id: DEFAULT_THANK_YOU_SCREEN_ID, title: 'Thanks' }, thankYouScreens: [] } },
  theme: { primaryColor: '#000000', background: { type: 'color', value: '#ffffff' }, fontFamily: 'Inter' },
  workflow: { version: 1, enabled: true, rules: [], fallbacks: {} },
  quiz: {
    enabled: true,
    type: 'score',
    endings: [],
    mappings: [{ id: 'm', fieldId: 'plan', optionValue: 'pro', points: 4 }],
  },
};

const answers: Answers = {
  name: '  Ada Lovelace ',
  age: 36,
  colors: ['Red', 'Blue'],
  plan: 'pro',
  agree: true,
  day: '2024-05-17',
  files: [{ id: 'u1', fileName: 'CV.pdf', mimeType: 'application/pdf', size: 10, url: 'https://files.test/u1' }],
};

function holds(subject: Condition['subject'], operator: ConditionOperator, value?: Condition['value'], given: Answers = answers): boolean {
  const state = createRunState(schema, { ref: '12' });
  return conditionHolds({ schema, state, answers: given }, { id: 'c', subject, operator, value });
}
const field = (fieldId: string) => ({ type: 'field' as const, fieldId });
const variable = (variableId: string) => ({ type: 'variable' as const, variableId });

describe('conditions', () => {
  it('covers every operator in CONDITION_OPERATORS', () => {
    const tested: ConditionOperator[] = [
      'equals',
      'not_equals',
      'contains',
      'not_contains',
      'starts_with',
      'ends_with',
      'greater_than',
      'greater_or_equal',
      'less_than',
      'less_or_equal',
      'is_empty',
      'is_not_empty',
      'includes_any',
      'includes_all',
      'includes_none',
    ];
    expect([...tested].sort()).toEqual([...CONDITION_OPERATORS].sort());
  });

  it('compares text case-insensitively, ignoring surrounding spaces', () => {
    expect(holds(field('name'), 'equals', 'ada lovelace')).toBe(true);
    expect(holds(field('name'), 'not_equals', 'ADA LOVELACE')).toBe(false);
    expect(holds(field('name'), 'not_equals', 'Grace')).toBe(true);
    expect(holds(field('name'), 'contains', 'LOVE')).toBe(true);
    expect(holds(field('name'), 'not_contains', 'grace')).toBe(true);
    expect(holds(field('name'), 'starts_with', 'ada')).toBe(true);
    expect(holds(field('name'), 'starts_with', 'love')).toBe(false);
    expect(holds(field('name'), 'ends_with', 'LACE')).toBe(true);
    expect(holds(field('name'), 'ends_with', 'ada')).toBe(false);
  });

  it('compares numbers numerically, accepting numeric strings on the right', () => {
    expect(holds(field('age'), 'equals', 36)).toBe(true);
    expect(holds(field('age'), 'equals', '36')).toBe(true);
    expect(holds(field('age'), 'equals', 'thirty-six')).toBe(false);
    expect(holds(field('age'), 'greater_than', 35)).toBe(true);
    expect(holds(field('age'), 'greater_than', 36)).toBe(false);
    expect(holds(field('age'), 'greater_or_equal', 36)).toBe(true);
    expect(holds(field('age'), 'less_than', '100')).toBe(true);
    expect(holds(field('age'), 'less_than', 36)).toBe(false);
    expect(holds(field('age'), 'less_or_equal', 36)).toBe(true);
    expect(holds(field('age'), 'greater_than', 'abc')).toBe(false);
    expect(holds(field('age'), 'less_than', 'abc')).toBe(false);
  });

  it('orders dates in calendar order', () => {
    expect(holds(field('day'), 'greater_than', '2024-01-01')).toBe(true);
    expect(holds(field('day'), 'less_or_equal', '2024-05-17')).toBe(true);
    expect(holds(field('day'), 'less_than', '2024-05-17')).toBe(false);
    expect(holds(field('name'), 'greater_than', 'a')).toBe(false);
  });

  it('treats list answers as sets and tests membership', () => {
    expect(holds(field('colors'), 'equals', ['blue', 'red'])).toBe(true);
    expect(holds(field('colors'), 'equals', 'red')).toBe(false);
    expect(holds(field('colors'), 'contains', 'blu')).toBe(true);
    expect(holds(field('colors'), 'includes_any', ['green', 'red'])).toBe(true);
    expect(holds(field('colors'), 'includes_any', ['green'])).toBe(false);
    expect(holds(field('colors'), 'includes_all', ['Red', 'Blue'])).toBe(true);
    expect(holds(field('colors'), 'includes_all', ['Red', 'Green'])).toBe(false);
    expect(holds(field('colors'), 'includes_none', ['Green'])).toBe(true);
    expect(holds(field('colors'), 'includes_none', ['Green', 'Red'])).toBe(false);
    expect(holds(field('plan'), 'includes_any', ['basic', 'pro'])).toBe(true);
  });

  it('compares checkboxes as booleans and files by name', () => {
    expect(holds(field('agree'), 'equals', true)).toBe(true);
    expect(holds(field('agree'), 'equals', 'false')).toBe(false);
    expect(holds(field('files'), 'ends_with', '.pdf')).toBe(true);
  });

  it('lets an unanswered field hold only is_empty and the negative operators', () => {
    const none: Answers = {};
    for (const operator of CONDITION_OPERATORS) {
      const expected = ['is_empty', 'not_equals', 'not_contains', 'includes_none'].includes(operator);
      expect({ operator, holds: holds(field('name'), operator, 'x', none) }).toEqual({ operator, holds: expected });
    }
    expect(holds(field('agree'), 'is_empty', undefined, { agree: false })).toBe(true);
    expect(holds(field('colors'), 'is_empty', undefined, { colors: [] })).toBe(true);
    expect(holds(field('name'), 'is_empty', undefined, { name: '   ' })).toBe(true);
    expect(holds(field('name'), 'is_not_empty')).toBe(true);
  });

  it('reads hidden fields from the run state', () => {
    expect(holds(field('ref'), 'equals', 12)).toBe(true);
    expect(holds(field('ref'), 'greater_than', 10)).toBe(true);
  });

  it('reads variables: a number without a value as 0, a text one as empty', () => {
    expect(holds(variable('count'), 'is_empty')).toBe(true);
    expect(holds(variable('count'), 'equals', 0)).toBe(true);
    expect(holds(variable('count'), 'less_than', 1)).toBe(true);
    expect(holds(variable('total'), 'greater_or_equal', 7)).toBe(true);
    expect(holds(variable('total'), 'is_not_empty')).toBe(true);
    expect(holds(variable('label'), 'is_empty')).toBe(true);
    expect(holds(variable('label'), 'equals', '')).toBe(true);
    expect(holds(variable('label'), 'contains', 'x')).toBe(false);
  });

  it('reads the running quiz score', () => {
    expect(holds({ type: 'score' }, 'equals', 4)).toBe(true);
    expect(holds({ type: 'score' }, 'greater_than', 4, {})).toBe(false);
    expect(holds({ type: 'score' }, 'equals', 0, {})).toBe(true);
  });

  it('combines conditions with all / any; a rule without conditions always holds', () => {
    const context = { schema, state: createRunState(schema, {}), answers };
    const yes: Condition = { id: 'a', subject: field('age'), operator: 'greater_than', value: 18 };
    const no: Condition = { id: 'b', subject: field('plan'), operator: 'equals', value: 'basic' };
    const rule = { id: 'r', stepId: 's1', actions: [] };
    expect(ruleHolds(context, { ...rule, match: 'all', conditions: [yes, no] })).toBe(false);
    expect(ruleHolds(context, { ...rule, match: 'any', conditions: [yes, no] })).toBe(true);
    expect(ruleHolds(context, { ...rule, match: 'all', conditions: [] })).toBe(true);
  });
});
