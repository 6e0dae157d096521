import {
  DEFAULT_THANK_YOU_SCREEN_ID,
  type ChoiceOption,
  type DraftSchema,
  type Field,
  type PaymentField,
  type Quiz,
  type Step,
  type WorkflowRule,
} from '@forms/draft-schema';
import { advance, answersOnSteps, leaveStep } from './navigation';
import { paymentAmount } from './payment';
import { scoreQuiz } from './quiz';
import { missingRequired } from './required';
import { createRunState } from './run-state';
import { walk } from './walk';

const options = (...values: string[]): ChoiceOption[] => values.map((value) => ({ id: value, label: value.toUpperCase(), value }));
const text = (id: string, required = false): Field => ({ id, type: 'text', label: id, required });
const choice = (id: string, ...values: string[]): Field => ({ id, type: 'single_choice', label: id, required: false, options: options(...values) });
const step = (id: string, ...fields: Field[]): Step => ({ id, title: id, fields });

function form(
  steps: Step[],
  overrides: { rules?: WorkflowRule[]; fallbacks?: DraftSchema['workflow']['fallbacks']; enabled?: boolean; quiz?: Quiz } = {},
): DraftSchema {
  return {
    version: 1,
    steps,
    settings: {
      hidden: { variables: [{ id: 'points', name: 'points', type: 'number', initialValue: 0 }] },
      submissions: {
        thankYou: { id: DEFAULT_THANK_YOU_SCREEN_ID, title: 'Thanks' },
        thankYouScreens: [
          { id: 'ty_a', title: 'A' },
          { id: 'ty_b', title: 'B', redirectUrl: 'https://example.test/b' },
        ],
      },
    },
    theme: { primaryColor: '#000000', background: { type: 'color', value: '#ffffff' }, fontFamily: 'Inter' },
    workflow: { version: 1, enabled: overrides.enabled ?? true, rules: overrides.rules ?? [], fallbacks: overrides.fallbacks ?? {} },
    quiz: overrides.quiz,
  };
}

const rule = (id: string, stepId: string, extra: Partial<WorkflowRule>): WorkflowRule => ({ id, stepId, match: 'all', conditions: [], actions: [], ...extra });
const whenPlan = (value: string) => [{ id: 'c', subject: { type: 'field' as const, fieldId: 'plan' }, operator: 'equals' as const, value }];
const addPoints = (value: number) => ({ id: `add${value}`, variableId: 'points', operation: 'add' as const, operand: { type: 'number' as const, value } });

describe('leaveStep', () => {
  const steps = [step('s1', choice('plan', 'free', 'pro')), step('s2', text('company')), step('s3', text('notes'))];

  it('goes to the next step in order, then to the end', () => {
    const schema = form(steps);
    const state = createRunState(schema, {});
    expect(leaveStep(schema, state, {}, 's1').next).toEqual({ type: 'step', stepId: 's2' });
    expect(leaveStep(schema, state, {}, 's3').next).toEqual({ type: 'end' });
  });

  it('branches on the first holding rule with a target and applies every holding rule in order', () => {
    const schema = form(steps, {
      rules: [
        rule('r1', 's1', { conditions: whenPlan('free'), actions: [addPoints(1)], target: { type: 'step', stepId: 's3' } }),
        rule('r2', 's1', { actions: [addPoints(10)] }),
        rule('r3', 's1', {
          conditions: [{ id: 'c', subject: { type: 'variable', variableId: 'points' }, operator: 'greater_than', value: 5 }],
          actions: [addPoints(100)],
          target: { type: 'end' },
        }),
        rule('other-step', 's2', { actions: [addPoints(1000)] }),
      ],
    });
    const free = leaveStep(schema, createRunState(schema, {}), { plan: 'free' }, 's1');
    expect(free).toEqual({ next: { type: 'step', stepId: 's3' }, state: { variables: { points: 111 }, hidden: {} } });
    const pro = leaveStep(schema, createRunState(schema, {}), { plan: 'pro' }, 's1');
    expect(pro).toEqual({ next: { type: 'end' }, state: { variables: { points: 110 }, hidden: {} } });
  });

  it('does not change the state it is given', () => {
    const schema = form(steps, { rules: [rule('r', 's1', { actions: [addPoints(1)] })] });
    const state = createRunState(schema, {});
    leaveStep(schema, state, {}, 's1');
    expect(state.variables).toEqual({ points: 0 });
  });

  it.each([
    ['a step', { type: 'step', stepId: 's3' }],
    ['the end', { type: 'end' }],
    ['a thank-you screen', { type: 'thank_you', screenId: 'ty_a' }],
  ] as const)('falls back to the step fallback (%s) when no rule with a target holds', (_, fallback) => {
    const schema = form(steps, { rules: [rule('r', 's1', { conditions: whenPlan('pro'), target: { type: 'end' } })], fallbacks: { s1: fallback } });
    expect(leaveStep(schema, createRunState(schema, {}), { plan: 'free' }, 's1').next).toEqual(fallback);
    expect(leaveStep(schema, createRunState(schema, {}), { plan: 'pro' }, 's1').next).toEqual({ type: 'end' });
  });

  it('ignores rules, actions and fallbacks when the workflow is disabled', () => {
    const schema = form(steps, {
      enabled: false,
      rules: [rule('r', 's1', { actions: [addPoints(1)], target: { type: 'end' } })],
      fallbacks: { s1: { type: 'end' } },
    });
    const state = createRunState(schema, {});
    expect(leaveStep(schema, state, {}, 's1')).toEqual({ next: { type: 'step', stepId: 's2' }, state });
  });

  it('does not read inherited properties as fallbacks', () => {
    const schema = form([step('constructor'), step('s2')]);
    expect(leaveStep(schema, createRunState(schema, {}), {}, 'constructor').next).toEqual({ type: 'step', stepId: 's2' });
  });
});

describe('advance', () => {
  it('ends instead of going back to a step already visited (loop guard)', () => {
    const schema = form([step('s1'), step('s2')], { rules: [rule('back', 's2', { target: { type: 'step', stepId: 's1' } })] });
    const state = createRunState(schema, {});
    expect(leaveStep(schema, state, {}, 's2').next).toEqual({ type: 'step', stepId: 's1' });
    expect(advance(schema, state, {}, ['s1', 's2']).next).toEqual({ type: 'end' });
  });

  it('counts only answers on visited steps', () => {
    const schema = form([step('s1', choice('plan', 'free', 'pro')), step('s2', text('x')), step('s3')], {
      rules: [rule('pro', 's2', { conditions: whenPlan('pro'), target: { type: 'end' } })],
    });
    const state = createRunState(schema, {});
    expect(advance(schema, state, { plan: 'pro' }, ['s1', 's2']).next).toEqual({ type: 'end' });
    expect(advance(schema, state, { plan: 'pro' }, ['s2']).next).toEqual({ type: 'step', stepId: 's3' });
    expect(answersOnSteps(schema, ['s2'], { plan: 'pro', x: 'y' })).toEqual({ x: 'y' });
  });

  it('ends on a target step that does not exist', () => {
    const schema = form([step('s1')], { fallbacks: { s1: { type: 'step', stepId: 'gone' } } });
    expect(advance(schema, createRunState(schema, {}), {}, ['s1']).next).toEqual({ type: 'end' });
  });
});

describe('scoreQuiz', () => {
  const steps = [step('s1', choice('q1', 'cat', 'dog')), step('s2', { ...choice('q2', 'sea', 'hills'), type: 'multiple_choice' } as Field)];
  const matchQuiz = (mode: Quiz['mode']): Quiz => ({
    enabled: true,
    type: 'match',
    mode,
    endings: [
      { id: 'e_calm', screenId: 'ty_a' },
      { id: 'e_wild', screenId: 'ty_b' },
    ],
    mappings: [
      { id: 'm1', fieldId: 'q1', optionValue: 'cat', endingId: 'e_calm', points: 1 },
      { id: 'm2', fieldId: 'q1', optionValue: 'dog', endingId: 'e_wild', points: 1 },
      { id: 'm3', fieldId: 'q2', optionValue: 'sea', endingId: 'e_calm', points: 2 },
      { id: 'm4', fieldId: 'q2', optionValue: 'hills', endingId: 'e_wild', points: 3 },
    ],
  });

  it('picks the ending with the most points (match / recommendation)', () => {
    const schema = form(steps, { quiz: matchQuiz('match') });
    expect(scoreQuiz(schema, { q1: 'cat', q2: ['hills'] })).toEqual({ endingId: 'e_wild', score: 4, points: { e_calm: 1, e_wild: 3 } });
    expect(scoreQuiz(schema, { q1: 'cat', q2: ['sea', 'hills'] })).toEqual({ endingId: 'e_calm', score: 6, points: { e_calm: 3, e_wild: 3 } });
  });

  it('gives ties to the earlier ending (personality)', () => {
    const schema = form(steps, { quiz: matchQuiz('personality') });
    expect(scoreQuiz(schema, { q1: 'dog', q2: ['sea'] }).endingId).toBe('e_calm');
    expect(scoreQuiz(schema, { q1: 'dog' }).endingId).toBe('e_wild');
  });

  it('has no ending when no answer counts, or without an enabled quiz', () => {
    expect(scoreQuiz(form(steps, { quiz: matchQuiz('match') }), {}).endingId).toBeNull();
    expect(scoreQuiz(form(steps, { quiz: { ...matchQuiz('match'), enabled: false } }), { q1: 'cat' })).toEqual({ endingId: null, score: 0, points: {} });
    expect(scoreQuiz(form(steps), { q1: 'cat' }).endingId).toBeNull();
  });

  it('sums points and picks the first ending whose range holds the score (score quiz)', () => {
    const quiz: Quiz = {
      enabled: true,
      type: 'score',
      endings: [
        { id: 'low', screenId: 'ty_a', maxScore: 2 },
        { id: 'high', screenId: 'ty_b', minScore: 3, maxScore: 10 },
      ],
      mappings: [
        { id: 'm1', fieldId: 'q1', optionValue: 'dog', points: 2 },
        { id: 'm2', fieldId: 'q2', optionValue: 'sea', points: 1 },
        { id: 'm3', fieldId: 'q2', optionValue: 'hills', points: 20 },
      ],
    };
    const schema = form(steps, { quiz });
    expect(scoreQuiz(schema, { q1: 'dog' })).toEqual({ endingId: 'low', score: 2, points: {} });
    expect(scoreQuiz(schema, { q1: 'dog', q2: ['sea'] }).endingId).toBe('high');
    expect(scoreQuiz(schema, { q2: ['hills'] })).toEqual({ endingId: null, score: 20, points: {} });
  });

  it('counts only the top choice of a ranking', () => {
    const ranking: Field = { id: 'rank', type: 'ranking', label: 'Rank', required: false, options: options('a', 'b') };
    const quiz: Quiz = {
      enabled: true,
      type: 'score',
      endings: [],
      mappings: ['a', 'b'].map((value, i) => ({ id: value, fieldId: 'rank', optionValue: value, points: i + 1 })),
    };
    expect(scoreQuiz(form([step('s1', ranking)], { quiz }), { rank: ['b', 'a'] }).score).toBe(2);
  });
});

describe('walk', () => {
  const steps = [step('s1', choice('plan', 'free', 'pro')), step('s2', text('company')), step('s3', choice('q', 'cat', 'dog'))];
  const quiz: Quiz = {
    enabled: true,
    type: 'match',
    endings: [
      { id: 'e_default', screenId: DEFAULT_THANK_YOU_SCREEN_ID },
      { id: 'e_b', screenId: 'ty_b' },
    ],
    mappings: [
      { id: 'm1', fieldId: 'q', optionValue: 'cat', endingId: 'e_default', points: 1 },
      { id: 'm2', fieldId: 'q', optionValue: 'dog', endingId: 'e_b', points: 1 },
    ],
  };

  it('visits the steps the answers route through and keeps the variables', () => {
    const schema = form(steps, { rules: [rule('r', 's1', { conditions: whenPlan('free'), actions: [addPoints(5)], target: { type: 'step', stepId: 's3' } })] });
    const result = walk(schema, { plan: 'free', company: 'ignored', q: 'cat' }, {});
    expect(result).toMatchObject({ visitedStepIds: ['s1', 's3'], variables: { points: 5 }, score: 0, quiz: null, redirectTo: null });
    expect(result.endingScreen.id).toBe(DEFAULT_THANK_YOU_SCREEN_ID);
    expect(walk(schema, { plan: 'pro' }, {}).visitedStepIds).toEqual(['s1', 's2', 's3']);
  });

  it('stops when a step would repeat', () => {
    const schema = form(steps, { fallbacks: { s2: { type: 'step', stepId: 's1' } } });
    expect(walk(schema, {}, {}).visitedStepIds).toEqual(['s1', 's2']);
  });

  it("uses the quiz ending's screen, including the default screen id", () => {
    const schema = form(steps, { quiz });
    const dog = walk(schema, { q: 'dog' }, {});
    expect(dog).toMatchObject({ quiz: { endingId: 'e_b', score: 1 }, score: 1, redirectTo: 'https://example.test/b' });
    expect(dog.endingScreen.id).toBe('ty_b');
    expect(walk(schema, { q: 'cat' }, {}).endingScreen.id).toBe(DEFAULT_THANK_YOU_SCREEN_ID);
  });

  it('lets an explicit thank-you target win over the quiz', () => {
    const schema = form(steps, { quiz, fallbacks: { s3: { type: 'thank_you', screenId: 'ty_a' } } });
    expect(walk(schema, { q: 'dog' }, {}).endingScreen.id).toBe('ty_a');
  });

  it('ignores quiz answers on steps the run skipped', () => {
    const schema = form(steps, { quiz, rules: [rule('r', 's1', { target: { type: 'end' } })] });
    expect(walk(schema, { q: 'dog' }, {})).toMatchObject({ visitedStepIds: ['s1'], quiz: { endingId: null, score: 0 } });
  });

  it('resolves hidden values by name, with defaults and number coercion', () => {
    const hidden = (id: string, dataType: 'text' | 'number', defaultValue?: string): Field => ({
      id,
      type: 'hidden',
      label: id,
      required: false,
      name: `${id}_name`,
      dataType,
      defaultValue,
    });
    const schema = form([step('s1', hidden('src', 'text', 'direct'), hidden('n', 'number'), hidden('bad', 'number', '3'), hidden('none', 'text'))]);
    expect(walk(schema, {}, { n_name: ' 42 ', bad_name: 'abc' }).state.hidden).toEqual({ src: 'direct', n: 42, bad: 3 });
    expect(createRunState(schema, { src_name: 7, n_name: 1.5 }).hidden).toEqual({ src: '7', n: 1.5, bad: 3 });
  });
});

describe('missingRequired', () => {
  it('lists unanswered required fields on visited steps only; a required checkbox must be checked', () => {
    const schema = form([
      step('s1', text('name', true), text('nick'), { id: 'terms', type: 'checkbox', label: 'Terms', required: true }),
      step('s2', text('company', true)),
    ]);
    expect(missingRequired(schema, ['s1'], { terms: false })).toEqual(['name', 'terms']);
    expect(missingRequired(schema, ['s1'], { name: 'Ada', terms: true })).toEqual([]);
    expect(missingRequired(schema, ['s1', 's2'], { name: 'Ada', terms: true })).toEqual(['company']);
  });
});

describe('paymentAmount', () => {
  const payment = (amount: PaymentField['amount']): PaymentField => ({ id: 'pay', type: 'payment', label: 'Pay', required: false, currency: 'EUR', amount });
  const schema = form([step('s1', { id: 'qty', type: 'number', label: 'Qty', required: false })]);

  it('keeps fixed minor units and converts field and variable amounts from major units by the currency exponent', () => {
    const state = { variables: { points: 19.99 }, hidden: { tip: 2 } };
    expect(paymentAmount(payment({ type: 'fixed', value: 1250 }), state, {}, 2)).toBe(1250);
    expect(paymentAmount(payment({ type: 'field', fieldId: 'qty' }), state, { qty: 12.5 }, 2)).toBe(1250);
    expect(paymentAmount(payment({ type: 'field', fieldId: 'tip' }), state, {}, 2)).toBe(200);
    expect(paymentAmount(payment({ type: 'variable', variableId: 'points' }), state, {}, 2)).toBe(1999);
    // JPY has no minor unit, KWD three.
    expect(paymentAmount(payment({ type: 'field', fieldId: 'qty' }), state, { qty: 1500 }, 0)).toBe(1500);
    expect(paymentAmount(payment({ type: 'field', fieldId: 'qty' }), state, { qty: 12.345 }, 3)).toBe(12345);
    expect(paymentAmount(payment({ type: 'fixed', value: 1500 }), state, {}, 0)).toBe(1500);
  });

  it('is 0 for negative, missing or non-numeric amounts', () => {
    const state = createRunState(schema, {});
    expect(paymentAmount(payment({ type: 'fixed', value: -5 }), state, {}, 2)).toBe(0);
    expect(paymentAmount(payment({ type: 'fixed', value: NaN }), state, {}, 2)).toBe(0);
    expect(paymentAmount(payment({ type: 'field', fieldId: 'qty' }), state, {}, 2)).toBe(0);
    expect(paymentAmount(payment({ type: 'variable', variableId: 'points' }), { variables: { points: null }, hidden: {} }, {}, 2)).toBe(0);
    expect(paymentAmount(payment({ type: 'variable', variableId: 'points' }), { variables: { points: -3 }, hidden: {} }, {}, 2)).toBe(0);
  });

  it('never takes the amount from a label or text, even one that reads like a number', () => {
    const state = { variables: { note: '5000' }, hidden: { code: 'VIP 5000' } };
    for (const text of ['ten', '5000', '50.00', 'Premium ($50)']) {
      expect(paymentAmount(payment({ type: 'field', fieldId: 'qty' }), state, { qty: text }, 2)).toBe(0);
    }
    expect(paymentAmount(payment({ type: 'field', fieldId: 'plan' }), state, { plan: ['gold'] }, 2)).toBe(0);
    expect(paymentAmount(payment({ type: 'field', fieldId: 'code' }), state, {}, 2)).toBe(0);
    expect(paymentAmount(payment({ type: 'variable', variableId: 'note' }), state, {}, 2)).toBe(0);
  });
});
