import { draftValidationReport, validateForPublish } from './publish';
import { draft, realisticInput } from './test-support.fixture';

const pro = { plan: 'pro' } as const;
const problems = (input: unknown, plan: 'free' | 'pro' | 'business' = 'pro') => validateForPublish(draft(input), { plan }).map((i) => [i.path, i.code]);
const oneStep = (fields: unknown[], extra: Record<string, unknown> = {}) => ({ steps: [{ id: 'stp_a', fields }], ...extra });

it('accepts the realistic form on a paid plan and names the payment gate on free', () => {
  expect(validateForPublish(draft(realisticInput), pro)).toEqual([]);
  expect(validateForPublish(draft(realisticInput), { plan: 'business' })).toEqual([]);
  expect(validateForPublish(draft(realisticInput), { plan: 'free' })).toEqual([
    { path: 'steps[3].fields[1].type', code: 'payment_requires_pro', message: 'Payment fields need the Pro or Business plan.' },
  ]);
});

it('needs labels on every field except hidden and statement fields', () => {
  expect(problems(oneStep([{ type: 'text' }, { type: 'email', label: '  ' }, { type: 'hidden', name: 'h' }, { type: 'statement' }]))).toEqual([
    ['steps[0].fields[0].label', 'required'],
    ['steps[0].fields[1].label', 'required'],
  ]);
});

it('needs a field on every step', () => {
  expect(problems({ steps: [{ fields: [{ type: 'text', label: 'A' }] }, {}] })).toEqual([['steps[1].fields', 'too_few']]);
});

it('needs options on choice fields, two for ranking', () => {
  const one = [{ label: 'A' }];
  expect(
    problems(
      oneStep([
        { type: 'single_choice', label: 'Q' },
        { type: 'dropdown', label: 'Q', options: one },
        { type: 'multiple_choice', label: 'Q' },
        { type: 'ranking', label: 'Q', options: one },
      ]),
    ),
  ).toEqual([
    ['steps[0].fields[0].options', 'too_few'],
    ['steps[0].fields[2].options', 'too_few'],
    ['steps[0].fields[3].options', 'too_few'],
  ]);
});

it('needs every minimum at or below its maximum', () => {
  const options = [{ label: 'A' }, { label: 'B' }];
  expect(
    problems(
      oneStep([
        { type: 'text', label: 'Q', minLength: 20, maxLength: 10 },
        { type: 'number', label: 'Q', min: 5, max: 1 },
        { type: 'date', label: 'Q', minDate: '2025-01-02', maxDate: '2025-01-01' },
        { type: 'multiple_choice', label: 'Q', options, minSelections: 2, maxSelections: 1 },
        { type: 'multiple_choice', label: 'Q', options, minSelections: 3 },
        { type: 'number', label: 'Q', min: 1, max: 1 },
      ]),
    ),
  ).toEqual([
    ['steps[0].fields[0].minLength', 'invalid_range'],
    ['steps[0].fields[1].min', 'invalid_range'],
    ['steps[0].fields[2].minDate', 'invalid_range'],
    ['steps[0].fields[3].minSelections', 'invalid_range'],
    ['steps[0].fields[4].minSelections', 'invalid_range'],
  ]);
});

it('holds text minimums to the default maximum length, and whole-number fields to a range holding a whole number', () => {
  expect(
    problems(
      oneStep([
        { type: 'text', label: 'Q', required: true, minLength: 501 },
        { type: 'number', label: 'Q', required: true, min: 0.5, max: 0.7, allowDecimals: false },
        { type: 'text', label: 'Q', minLength: 500 },
        { type: 'text', label: 'Q', minLength: 501, maxLength: 600 },
        { type: 'long_text', label: 'Q', minLength: 10_000 },
        { type: 'number', label: 'Q', min: 0.5, max: 1, allowDecimals: false },
        { type: 'number', label: 'Q', min: 0.5, max: 0.7 },
        { type: 'number', label: 'Q', min: 0.5, allowDecimals: false },
      ]),
    ),
  ).toEqual([
    ['steps[0].fields[0].minLength', 'invalid_range'],
    ['steps[0].fields[1].min', 'invalid_range'],
  ]);
});

describe('workflow', () => {
  const steps = ['stp_a', 'stp_b', 'stp_c'].map((id) => ({ id, fields: [{ id: `fld_${id}`, type: 'number', label: id }] }));
  const workflow = (w: Record<string, unknown>) => ({ steps, workflow: w });

  it('only jumps forward, so no respondent can loop', () => {
    const rules = [
      { stepId: 'stp_b', target: 'stp_a' },
      { stepId: 'stp_b', target: 'stp_b' },
      { stepId: 'stp_b', target: 'stp_c' },
      { stepId: 'stp_c', target: 'end' },
      { stepId: 'stp_a', target: `thank_you:__service_default_thank_you__` },
    ];
    expect(problems(workflow({ rules, fallbacks: { stp_c: 'stp_a', stp_a: 'stp_c' } }))).toEqual([
      ['workflow.rules[0].target', 'backward_target'],
      ['workflow.rules[1].target', 'backward_target'],
      ['workflow.fallbacks.stp_c', 'backward_target'],
    ]);
  });

  it('only reads answers given by the time the rule runs', () => {
    const rules = [
      {
        stepId: 'stp_b',
        conditions: [
          { subject: { type: 'field', fieldId: 'fld_stp_a' }, operator: 'is_empty' },
          { subject: { type: 'field', fieldId: 'fld_stp_b' }, operator: 'is_empty' },
          { subject: { type: 'field', fieldId: 'fld_stp_c' }, operator: 'is_empty' },
        ],
        actions: [{ variableId: 'var_n', operation: 'add', operand: { type: 'field', fieldId: 'fld_stp_c' } }],
      },
    ];
    const input = { ...workflow({ rules }), settings: { hidden: { variables: [{ id: 'var_n', name: 'n', type: 'number' }] } } };
    expect(problems(input)).toEqual([
      ['workflow.rules[0].conditions[2].subject.fieldId', 'future_reference'],
      ['workflow.rules[0].actions[0].operand.fieldId', 'future_reference'],
    ]);
  });
});

describe('payment', () => {
  it('needs an amount above zero and an amount field placed before it', () => {
    const fields = [
      { type: 'payment', label: 'Pay', currency: 'USD', amount: 0 },
      { type: 'payment', label: 'Pay', currency: 'USD', amount: { type: 'field', fieldId: 'fld_qty' } },
      { id: 'fld_qty', type: 'number', label: 'Qty' },
    ];
    expect(problems(oneStep(fields))).toEqual([
      ['steps[0].fields[0].amount.value', 'invalid_amount'],
      ['steps[0].fields[1].amount.fieldId', 'future_reference'],
    ]);
  });
});

describe('quiz', () => {
  const choice = { id: 'fld_c', type: 'single_choice', label: 'Q', options: [{ label: 'A' }] };

  it('an enabled quiz needs an ending and a mapping; a disabled one is not checked', () => {
    expect(problems(oneStep([choice], { quiz: {} }))).toEqual([
      ['quiz.endings', 'too_few'],
      ['quiz.mappings', 'too_few'],
    ]);
    expect(problems(oneStep([choice], { quiz: { enabled: false } }))).toEqual([]);
  });

  it('score quiz endings need a score range with min ≤ max', () => {
    const quiz = {
      type: 'score',
      endings: [
        { screenId: '__service_default_thank_you__', minScore: 0, maxScore: 5 },
        { screenId: '__service_default_thank_you__', minScore: 6 },
        { screenId: '__service_default_thank_you__', minScore: 9, maxScore: 7 },
      ],
      mappings: [{ fieldId: 'fld_c', optionValue: 'A', points: 1 }],
    };
    expect(problems(oneStep([choice], { quiz }))).toEqual([
      ['quiz.endings[1].maxScore', 'required'],
      ['quiz.endings[2].minScore', 'invalid_range'],
    ]);
  });
});

it('draftValidationReport wraps the same issues', () => {
  expect(draftValidationReport(draft(realisticInput), pro)).toEqual({ valid: true, issues: [] });
  const report = draftValidationReport(draft(oneStep([{ type: 'text' }])), pro);
  expect(report).toEqual({ valid: false, issues: [{ path: 'steps[0].fields[0].label', code: 'required', message: 'Give this field a label.' }] });
});
