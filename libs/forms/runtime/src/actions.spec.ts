import { DEFAULT_THANK_YOU_SCREEN_ID, type DraftSchema, type Operand, type VariableAction } from '@forms/draft-schema';
import { applyAction } from './actions';
import { createRunState, type Answers, type VariableValue } from './run-state';

const schema: DraftSchema = {
  version: 1,
  steps: [
    {
      id: 's1',
      title: 'One',
      fields: [
        { id: 'qty', type: 'number', label: 'Quantity', required: false },
        { id: 'name', type: 'text', label: 'Name', required: false },
        { id: 'size', type: 'single_choice', label: 'Size', required: false, options: [{ id: 'o', label: 'Large', value: 'L' }] },
        { id: 'coupon', type: 'hidden', label: 'Coupon', required: false, name: 'coupon', dataType: 'number' },
      ],
    },
  ],
  settings: {
    hidden: {
      variables: [
        { id: 'n', name: 'n', type: 'number', initialValue: 10 },
        { id: 'empty', name: 'empty', type: 'number' },
        { id: 't', name: 't', type: 'text', initialValue: 'mid' },
      ],
    },
    submissions: { thankYou: { id: DEFAULT_THANK_YOU_SCREEN_ID, title: 'Thanks' }, thankYouScreens: [] },
  },
  theme: { primaryColor: '#000000', background: { type: 'color', value: '#ffffff' }, fontFamily: 'Inter' },
  workflow: { version: 1, enabled: true, rules: [], fallbacks: {} },
};
const answers: Answers = { qty: 3, name: 'Ada', size: 'L' };

function run(variableId: string, operation: VariableAction['operation'], operand?: Operand, given: Answers = answers): VariableValue {
  const state = createRunState(schema, { coupon: '5' });
  return applyAction({ schema, state, answers: given }, { id: 'a', variableId, operation, operand }).variables[variableId];
}
const num = (value: number): Operand => ({ type: 'number', value });
const text = (value: string): Operand => ({ type: 'text', value });

describe('variable actions', () => {
  it('does number math', () => {
    expect(run('n', 'set', num(4))).toBe(4);
    expect(run('n', 'add', num(4))).toBe(14);
    expect(run('n', 'subtract', num(4))).toBe(6);
    expect(run('n', 'multiply', num(4))).toBe(40);
    expect(run('n', 'divide', num(4))).toBe(2.5);
    expect(run('n', 'clear')).toBeNull();
  });

  it('leaves the value unchanged when dividing by zero', () => {
    expect(run('n', 'divide', num(0))).toBe(10);
  });

  it('treats a number variable without a value as 0', () => {
    expect(run('empty', 'add', num(2))).toBe(2);
    expect(run('n', 'add', { type: 'variable', variableId: 'empty' })).toBe(10);
  });

  it('takes numeric answers, hidden numbers, variables and the score as operands', () => {
    expect(run('n', 'multiply', { type: 'field', fieldId: 'qty' })).toBe(30);
    expect(run('n', 'subtract', { type: 'field', fieldId: 'coupon' })).toBe(5);
    expect(run('empty', 'set', { type: 'variable', variableId: 'n' })).toBe(10);
    expect(run('n', 'add', { type: 'score' })).toBe(10);
  });

  it('skips number math on a non-numeric or missing operand', () => {
    expect(run('n', 'add', { type: 'field', fieldId: 'name' })).toBe(10);
    expect(run('n', 'add', { type: 'field', fieldId: 'qty' }, {})).toBe(10);
    expect(run('n', 'add', text('5'))).toBe(10);
    expect(run('n', 'append', num(5))).toBe(10);
  });

  it('does text operations', () => {
    expect(run('t', 'set', text('new'))).toBe('new');
    expect(run('t', 'append', text('-end'))).toBe('mid-end');
    expect(run('t', 'prepend', text('start-'))).toBe('start-mid');
    expect(run('t', 'clear')).toBeNull();
    expect(run('t', 'add', text('x'))).toBe('mid');
  });

  it('writes answers, numbers and variables as text', () => {
    expect(run('t', 'append', { type: 'field', fieldId: 'name' })).toBe('midAda');
    expect(run('t', 'set', { type: 'field', fieldId: 'qty' })).toBe('3');
    expect(run('t', 'set', { type: 'field', fieldId: 'coupon' })).toBe('5');
    expect(run('t', 'prepend', { type: 'variable', variableId: 'n' })).toBe('10mid');
    expect(run('t', 'set', num(1.5))).toBe('1.5');
    expect(run('t', 'append', { type: 'field', fieldId: 'name' }, {})).toBe('mid');
  });

  it('ignores actions on unknown variables', () => {
    const state = createRunState(schema, {});
    expect(applyAction({ schema, state, answers }, { id: 'a', variableId: 'nope', operation: 'set', operand: num(1) })).toBe(state);
  });
});
