import { DEFAULT_THANK_YOU_SCREEN_ID } from './model';
import { counterIds, draft } from './test-support.fixture';
import { parseDraftSchema } from './validate';

const base = () => ({
  steps: [
    {
      id: 'stp_a',
      fields: [
        { id: 'fld_text', type: 'text', label: 'T' },
        { id: 'fld_num', type: 'number', label: 'N' },
        { id: 'fld_choice', type: 'single_choice', label: 'C', options: [{ label: 'A' }, { label: 'B' }] },
        { id: 'fld_multi', type: 'multiple_choice', label: 'M', options: [{ label: 'X' }, { label: 'Y' }] },
        { id: 'fld_box', type: 'checkbox', label: 'B' },
        { id: 'fld_date', type: 'date', label: 'D' },
        { id: 'fld_note', type: 'statement', label: 'S' },
        { id: 'fld_hid', type: 'hidden', name: 'h', dataType: 'number' },
      ],
    },
    { id: 'stp_b', fields: [] as unknown[] },
  ],
  settings: {
    hidden: {
      variables: [
        { id: 'var_n', name: 'n', type: 'number' },
        { id: 'var_t', name: 't', type: 'text' },
      ],
    },
    submissions: { thankYouScreens: [{ id: 'tys_x', title: 'X' }] },
  },
});

/** `[path, code]` of every issue. */
function problems(input: unknown): [string, string][] {
  const result = parseDraftSchema(input, counterIds());
  return result.ok ? [] : result.issues.map((i) => [i.path, i.code]);
}
const withRule = (rule: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...base(),
  workflow: { rules: [{ stepId: 'stp_a', ...rule }] },
  ...extra,
});
const field = (fieldId: string) => ({ type: 'field', fieldId });
const when = (subject: unknown, operator: string, value?: unknown) => withRule({ conditions: [{ subject, operator, ...(value !== undefined && { value }) }] });
const doing = (variableId: string, operation: string, operand?: unknown, extra?: Record<string, unknown>) =>
  withRule({ actions: [{ variableId, operation, ...(operand !== undefined && { operand }) }] }, extra);
const C = 'workflow.rules[0].conditions[0]';
const A = 'workflow.rules[0].actions[0]';

it('the base form is valid', () => {
  expect(problems(base())).toEqual([]);
});

describe('ids and names', () => {
  it('step ids are unique (every occurrence is named) and "end" is reserved', () => {
    expect(problems({ steps: [{ id: 'end' }, { id: 'stp_x' }, { id: 'stp_x' }] })).toEqual([
      ['steps[0].id', 'reserved_id'],
      ['steps[1].id', 'duplicate_id'],
      ['steps[2].id', 'duplicate_id'],
    ]);
  });

  it('field ids are unique across steps', () => {
    const input = base();
    input.steps[1].fields = [{ id: 'fld_text', type: 'email' }];
    expect(problems(input)).toEqual([
      ['steps[0].fields[0].id', 'duplicate_id'],
      ['steps[1].fields[0].id', 'duplicate_id'],
    ]);
  });

  it('option ids and values are unique within a field (but may repeat across fields)', () => {
    const options = [
      { id: 'opt_1', label: 'A' },
      { id: 'opt_1', label: 'B', value: 'A' },
    ];
    expect(problems({ steps: [{ fields: [{ type: 'dropdown', options }] }] })).toEqual([
      ['steps[0].fields[0].options[0].id', 'duplicate_id'],
      ['steps[0].fields[0].options[0].value', 'duplicate_value'],
      ['steps[0].fields[0].options[1].id', 'duplicate_id'],
      ['steps[0].fields[0].options[1].value', 'duplicate_value'],
    ]);
    const shared = [{ id: 'opt_1', label: 'A' }];
    expect(
      problems({
        steps: [
          {
            fields: [
              { type: 'dropdown', options: shared },
              { type: 'dropdown', options: shared },
            ],
          },
        ],
      }),
    ).toEqual([]);
  });

  it('hidden field names are unique and number hidden defaults are numeric', () => {
    const fields = [
      { type: 'hidden', name: 'ref' },
      { type: 'hidden', name: 'ref' },
      { type: 'hidden', name: 'qty', dataType: 'number', defaultValue: 'many' },
      { type: 'hidden', name: 'qty2', dataType: 'number', defaultValue: '2.5' },
    ];
    expect(problems({ steps: [{ fields }] })).toEqual([
      ['steps[0].fields[0].name', 'duplicate_name'],
      ['steps[0].fields[1].name', 'duplicate_name'],
      ['steps[0].fields[2].defaultValue', 'invalid_value'],
    ]);
  });

  it('variables: unique ids, names unique ignoring case, initial values of their type', () => {
    const variables = [
      { id: 'var_a', name: 'Total', type: 'number', initialValue: 'zero' },
      { id: 'var_a', name: 'total', type: 'text', initialValue: 'x' },
      { id: 'var_c', name: 'Label', type: 'text', initialValue: 3 },
    ];
    expect(problems({ steps: [{}], settings: { hidden: { variables } } })).toEqual([
      ['settings.hidden.variables[0].id', 'duplicate_id'],
      ['settings.hidden.variables[0].name', 'duplicate_name'],
      ['settings.hidden.variables[0].initialValue', 'invalid_type'],
      ['settings.hidden.variables[1].id', 'duplicate_id'],
      ['settings.hidden.variables[1].name', 'duplicate_name'],
      ['settings.hidden.variables[2].initialValue', 'invalid_type'],
    ]);
  });

  it('thank-you screen ids are unique and the default id is reserved', () => {
    const thankYouScreens = [{ id: 'tys_a' }, { id: 'tys_a' }, { id: DEFAULT_THANK_YOU_SCREEN_ID }];
    expect(problems({ steps: [{}], settings: { submissions: { thankYouScreens } } })).toEqual([
      ['settings.submissions.thankYouScreens[0].id', 'duplicate_id'],
      ['settings.submissions.thankYouScreens[1].id', 'duplicate_id'],
      ['settings.submissions.thankYouScreens[2].id', 'reserved_id'],
    ]);
  });

  it('rule, condition and action ids are unique across the workflow', () => {
    const condition = { id: 'cnd_1', subject: field('fld_text'), operator: 'is_empty' };
    const action = { id: 'act_1', variableId: 'var_n', operation: 'clear' };
    const rule = { id: 'rul_1', stepId: 'stp_a', conditions: [condition], actions: [action] };
    expect(problems({ ...base(), workflow: { rules: [rule, rule] } })).toEqual([
      ['workflow.rules[0].id', 'duplicate_id'],
      ['workflow.rules[0].conditions[0].id', 'duplicate_id'],
      ['workflow.rules[0].actions[0].id', 'duplicate_id'],
      ['workflow.rules[1].id', 'duplicate_id'],
      ['workflow.rules[1].conditions[0].id', 'duplicate_id'],
      ['workflow.rules[1].actions[0].id', 'duplicate_id'],
    ]);
  });
});

describe('payment amounts', () => {
  const pay = (amount: unknown) => {
    const input = base();
    input.steps[1].fields = [{ id: 'fld_pay', type: 'payment', currency: 'USD', amount }];
    return problems(input);
  };
  const at = 'steps[1].fields[0].amount';
  it('accept a fixed amount, a numeric field and a number variable', () => {
    expect(pay({ type: 'fixed', value: 500 })).toEqual([]);
    expect(pay({ type: 'field', fieldId: 'fld_num' })).toEqual([]);
    expect(pay({ type: 'field', fieldId: 'fld_hid' })).toEqual([]);
    expect(pay({ type: 'variable', variableId: 'var_n' })).toEqual([]);
  });
  it('reject missing and non-numeric sources', () => {
    expect(pay({ type: 'field', fieldId: 'fld_nope' })).toEqual([[`${at}.fieldId`, 'unknown_reference']]);
    expect(pay({ type: 'field', fieldId: 'fld_choice' })).toEqual([[`${at}.fieldId`, 'non_numeric_operand']]);
    expect(pay({ type: 'variable', variableId: 'var_nope' })).toEqual([[`${at}.variableId`, 'unknown_reference']]);
    expect(pay({ type: 'variable', variableId: 'var_t' })).toEqual([[`${at}.variableId`, 'non_numeric_operand']]);
    expect(pay({ type: 'percent', value: 5 })).toEqual([[`${at}.type`, 'invalid_value']]);
  });
});

describe('rules, targets and fallbacks', () => {
  it('rule.stepId must exist', () => {
    expect(problems({ ...base(), workflow: { rules: [{ stepId: 'stp_nope' }] } })).toEqual([['workflow.rules[0].stepId', 'unknown_reference']]);
  });

  it('targets must point at existing steps and screens', () => {
    expect(problems(withRule({ target: 'stp_nope' }))).toEqual([['workflow.rules[0].target', 'unknown_reference']]);
    expect(problems(withRule({ target: 'thank_you:tys_nope' }))).toEqual([['workflow.rules[0].target', 'unknown_reference']]);
    expect(problems(withRule({ target: 'thank_you:tys_x' }))).toEqual([]);
  });

  it('fallbacks are keyed by existing steps and point at existing targets', () => {
    const fallbacks = { stp_nope: 'end', stp_a: 'stp_gone', stp_b: { type: 'thank_you', screenId: 'tys_none' } };
    expect(problems({ ...base(), workflow: { fallbacks } })).toEqual([
      ['workflow.fallbacks.stp_nope', 'unknown_reference'],
      ['workflow.fallbacks.stp_a', 'unknown_reference'],
      ['workflow.fallbacks.stp_b', 'unknown_reference'],
    ]);
  });
});

describe('conditions', () => {
  it('subjects must exist and have an answer', () => {
    expect(problems(when(field('fld_nope'), 'is_empty'))).toEqual([[`${C}.subject.fieldId`, 'unknown_reference']]);
    expect(problems(when({ type: 'variable', variableId: 'var_nope' }, 'is_empty'))).toEqual([[`${C}.subject.variableId`, 'unknown_reference']]);
    expect(problems(when({ type: 'score' }, 'greater_than', 3))).toEqual([[`${C}.subject`, 'unknown_reference']]);
    expect(problems(when(field('fld_note'), 'is_empty'))).toEqual([[`${C}.subject.fieldId`, 'not_answerable']]);
  });

  it.each([
    ['fld_text', 'greater_than', 3],
    ['fld_num', 'contains', 'x'],
    ['fld_choice', 'includes_any', ['A']],
    ['fld_multi', 'equals', 'X'],
    ['fld_box', 'is_empty', undefined],
    ['fld_date', 'starts_with', '2024'],
  ])('%s does not take %s', (fieldId, operator, value) => {
    expect(problems(when(field(fieldId), operator, value))).toEqual([[`${C}.operator`, 'incompatible_operator']]);
  });

  it.each([
    ['fld_text', 'contains', 'abc'],
    ['fld_num', 'less_or_equal', 10],
    ['fld_hid', 'equals', 2],
    ['fld_choice', 'not_equals', 'B'],
    ['fld_multi', 'includes_all', ['X', 'Y']],
    ['fld_box', 'equals', true],
    ['fld_date', 'greater_than', '2024-01-31'],
    ['fld_text', 'is_not_empty', undefined],
  ])('%s takes %s %j', (fieldId, operator, value) => {
    expect(problems(when(field(fieldId), operator, value))).toEqual([]);
  });

  it('variable and score subjects compare by their type', () => {
    expect(problems(when({ type: 'variable', variableId: 'var_n' }, 'greater_than', 1))).toEqual([]);
    expect(problems(when({ type: 'variable', variableId: 'var_t' }, 'greater_than', 1))).toEqual([[`${C}.operator`, 'incompatible_operator']]);
    const scoreQuiz = { quiz: { type: 'score', endings: [{ screenId: DEFAULT_THANK_YOU_SCREEN_ID }] } };
    expect(problems({ ...when({ type: 'score' }, 'greater_or_equal', 5), ...scoreQuiz })).toEqual([]);
  });

  it('values have the subject’s type and name existing options', () => {
    expect(problems(when(field('fld_num'), 'equals', '3'))).toEqual([[`${C}.value`, 'invalid_value']]);
    expect(problems(when(field('fld_box'), 'equals', 'yes'))).toEqual([[`${C}.value`, 'invalid_value']]);
    expect(problems(when(field('fld_date'), 'less_than', '31/01/2024'))).toEqual([[`${C}.value`, 'invalid_value']]);
    expect(problems(when(field('fld_text'), 'equals', 5))).toEqual([[`${C}.value`, 'invalid_value']]);
    expect(problems(when(field('fld_choice'), 'equals', 'Z'))).toEqual([[`${C}.value`, 'unknown_reference']]);
    expect(problems(when(field('fld_multi'), 'includes_none', ['X', 'Q']))).toEqual([[`${C}.value[1]`, 'unknown_reference']]);
    expect(problems(when(field('fld_multi'), 'includes_any', []))).toEqual([[`${C}.value`, 'invalid_value']]);
    expect(problems(when(field('fld_text'), 'equals'))).toEqual([[`${C}.value`, 'required']]);
    expect(problems(when(field('fld_text'), 'is_empty', 'x'))).toEqual([[`${C}.value`, 'invalid_value']]);
  });

  it('an allowOther choice compares with any text', () => {
    const input = when(field('fld_choice'), 'equals', 'Something else');
    (input.steps[0].fields[2] as Record<string, unknown>).allowOther = true;
    expect(problems(input)).toEqual([]);
  });
});

describe('actions', () => {
  it('need an existing variable and an operation of its type', () => {
    expect(problems(doing('var_nope', 'clear'))).toEqual([[`${A}.variableId`, 'unknown_reference']]);
    expect(problems(doing('var_t', 'add', { type: 'number', value: 1 }))).toEqual([[`${A}.operation`, 'incompatible_operation']]);
    expect(problems(doing('var_n', 'append', { type: 'text', value: 'x' }))).toEqual([[`${A}.operation`, 'incompatible_operation']]);
  });

  it('number variables only take numeric operands', () => {
    expect(problems(doing('var_n', 'add', field('fld_num')))).toEqual([]);
    expect(problems(doing('var_n', 'subtract', field('fld_hid')))).toEqual([]);
    expect(problems(doing('var_n', 'multiply', { type: 'variable', variableId: 'var_n' }))).toEqual([]);
    expect(problems(doing('var_n', 'set', field('fld_choice')))).toEqual([[`${A}.operand`, 'non_numeric_operand']]);
    expect(problems(doing('var_n', 'set', { type: 'text', value: '5' }))).toEqual([[`${A}.operand`, 'non_numeric_operand']]);
    expect(problems(doing('var_n', 'add', { type: 'variable', variableId: 'var_t' }))).toEqual([[`${A}.operand`, 'non_numeric_operand']]);
    expect(problems(doing('var_n', 'divide', { type: 'number', value: 0 }))).toEqual([[`${A}.operand.value`, 'invalid_value']]);
    const scoreQuiz = { quiz: { type: 'score', endings: [{ screenId: 'tys_x' }] } };
    expect(problems(doing('var_n', 'set', { type: 'score' }, scoreQuiz))).toEqual([]);
    expect(problems(doing('var_n', 'set', { type: 'score' }))).toEqual([[`${A}.operand`, 'unknown_reference']]);
  });

  it('text variables take any answer, but the reference must exist', () => {
    expect(problems(doing('var_t', 'prepend', field('fld_multi')))).toEqual([]);
    expect(problems(doing('var_t', 'set', field('fld_gone')))).toEqual([[`${A}.operand.fieldId`, 'unknown_reference']]);
    expect(problems(doing('var_t', 'set', field('fld_note')))).toEqual([[`${A}.operand.fieldId`, 'not_answerable']]);
  });

  it('clear takes no operand; every other operation needs one', () => {
    expect(problems(doing('var_n', 'clear', { type: 'number', value: 1 }))).toEqual([[`${A}.operand`, 'invalid_value']]);
    expect(problems(doing('var_n', 'set'))).toEqual([[`${A}.operand`, 'required']]);
  });
});

describe('quiz', () => {
  const quiz = (q: Record<string, unknown>) => problems({ ...base(), quiz: { endings: [{ id: 'end_a', screenId: 'tys_x' }], ...q } });

  it('endings point at a thank-you screen or the default one', () => {
    expect(quiz({ endings: [{ screenId: DEFAULT_THANK_YOU_SCREEN_ID }, { screenId: 'tys_nope' }] })).toEqual([
      ['quiz.endings[1].screenId', 'unknown_reference'],
    ]);
  });

  it('mappings reference a choice field, one of its option values and (match) an ending', () => {
    const mapping = { fieldId: 'fld_choice', optionValue: 'A', endingId: 'end_a' };
    expect(quiz({ mappings: [mapping] })).toEqual([]);
    expect(
      quiz({
        mappings: [
          { ...mapping, fieldId: 'fld_nope' },
          { ...mapping, fieldId: 'fld_text' },
          { ...mapping, optionValue: 'Z' },
          { ...mapping, endingId: 'end_nope' },
          { fieldId: 'fld_choice', optionValue: 'A' },
        ],
      }),
    ).toEqual([
      ['quiz.mappings[0].fieldId', 'unknown_reference'],
      ['quiz.mappings[1].fieldId', 'not_a_choice_field'],
      ['quiz.mappings[2].optionValue', 'unknown_reference'],
      ['quiz.mappings[3].endingId', 'unknown_reference'],
      ['quiz.mappings[4].endingId', 'required'],
    ]);
  });

  it('score quiz mappings need no ending', () => {
    expect(quiz({ type: 'score', mappings: [{ fieldId: 'fld_choice', optionValue: 'B', points: 3 }] })).toEqual([]);
  });

  it('ending and mapping ids are unique', () => {
    const mapping = { id: 'map_1', fieldId: 'fld_choice', optionValue: 'A', endingId: 'end_a' };
    expect(
      quiz({
        endings: [
          { id: 'end_a', screenId: 'tys_x' },
          { id: 'end_a', screenId: 'tys_x' },
        ],
        mappings: [mapping, mapping],
      }),
    ).toEqual([
      ['quiz.endings[0].id', 'duplicate_id'],
      ['quiz.endings[1].id', 'duplicate_id'],
      ['quiz.mappings[0].id', 'duplicate_id'],
      ['quiz.mappings[1].id', 'duplicate_id'],
    ]);
  });
});

it('keeps a draft that passes every check intact', () => {
  const schema = draft(when(field('fld_num'), 'greater_than', 2));
  expect(schema.workflow.rules[0].conditions[0]).toEqual({ id: 'cnd_1', subject: field('fld_num'), operator: 'greater_than', value: 2 });
});
