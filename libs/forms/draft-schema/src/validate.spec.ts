import { DEFAULT_THANK_YOU_SCREEN_ID, FIELD_TYPES, type DraftSchema, type Field } from './model';
import { counterIds, draft, realisticInput } from './test-support.fixture';
import { parseDraftSchema } from './validate';

const withFields = (fields: unknown[], extra: Record<string, unknown> = {}) => ({ steps: [{ id: 'stp_a', title: 'A', fields }], ...extra });
const issuesOf = (input: unknown) => {
  const result = parseDraftSchema(input, counterIds());
  if (result.ok) throw new Error('expected issues');
  return result.issues;
};
const onlyField = (input: unknown): Field => draft(withFields([input])).steps[0].fields[0];

describe('parseDraftSchema: defaults', () => {
  it('fills every missing section', () => {
    const schema = draft({ steps: [{}] });
    expect(schema).toEqual<DraftSchema>({
      version: 1,
      steps: [{ id: 'stp_1', title: '', fields: [] }],
      settings: {
        hidden: { variables: [] },
        submissions: {
          thankYou: { id: DEFAULT_THANK_YOU_SCREEN_ID, title: 'Thank you!', description: 'Your response was recorded.' },
          thankYouScreens: [],
        },
      },
      theme: { primaryColor: '#4f46e5', background: { type: 'color', value: '#ffffff' }, fontFamily: 'Inter' },
      workflow: { version: 1, enabled: true, rules: [], fallbacks: {} },
    });
    expect('quiz' in schema).toBe(false);
  });

  it('mints missing ids in document order with the kind prefixes', () => {
    const schema = draft({
      steps: [{ fields: [{ type: 'dropdown', label: 'Pick', options: [{ label: 'A' }, { label: 'B' }] }] }, { title: 'Two' }],
      settings: { hidden: { variables: [{ name: 'n', type: 'number' }] }, submissions: { thankYouScreens: [{ title: 'Bye' }] } },
      workflow: {
        rules: [
          {
            stepId: 'stp_1',
            conditions: [{ subject: { type: 'variable', variableId: 'var_1' }, operator: 'is_empty' }],
            actions: [{ variableId: 'var_1', operation: 'clear' }],
          },
        ],
      },
      quiz: { endings: [{ screenId: 'tys_1' }], mappings: [{ fieldId: 'fld_1', optionValue: 'A', endingId: 'end_1' }] },
    });
    expect(schema.steps.map((s) => s.id)).toEqual(['stp_1', 'stp_2']);
    const field = schema.steps[0].fields[0];
    expect(field.id).toBe('fld_1');
    expect('options' in field && field.options.map((o) => o.id)).toEqual(['opt_1', 'opt_2']);
    expect(schema.settings.hidden.variables[0].id).toBe('var_1');
    expect(schema.settings.submissions.thankYouScreens[0].id).toBe('tys_1');
    const rule = schema.workflow.rules[0];
    expect([rule.id, rule.conditions[0].id, rule.actions[0].id]).toEqual(['rul_1', 'cnd_1', 'act_1']);
    expect([schema.quiz?.endings[0].id, schema.quiz?.mappings[0].id]).toEqual(['end_1', 'map_1']);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['text', {}, { required: false }],
    ['long_text', { minLength: 10, maxLength: 2000 }, { minLength: 10, maxLength: 2000 }],
    ['email', {}, {}],
    ['number', { min: 0, max: 9.5, allowDecimals: true }, { min: 0, max: 9.5, allowDecimals: true }],
    ['phone', { defaultCountry: 'GB' }, { defaultCountry: 'GB' }],
    ['url', {}, {}],
    ['date', { minDate: '2024-02-29' }, { minDate: '2024-02-29' }],
    ['time', {}, {}],
    ['single_choice', { options: [{ label: 'Yes' }], allowOther: true }, { options: [{ id: 'opt_1', label: 'Yes', value: 'Yes' }], allowOther: true }],
    ['multiple_choice', { minSelections: 1, maxSelections: 2 }, { options: [], minSelections: 1, maxSelections: 2 }],
    [
      'dropdown',
      { options: [{ label: 'One', value: '1', imageUrl: 'https://img.example/1.png' }] },
      { options: [{ id: 'opt_1', label: 'One', value: '1', imageUrl: 'https://img.example/1.png' }] },
    ],
    ['checkbox', { required: true }, { required: true }],
    ['rating', {}, { max: 5, icon: 'star' }],
    ['opinion_scale', {}, { min: 1, max: 5 }],
    ['opinion_scale', { min: 0, max: 10, minLabel: 'No', maxLabel: 'Yes' }, { min: 0, max: 10, minLabel: 'No', maxLabel: 'Yes' }],
    ['nps', { minLabel: 'Never' }, { minLabel: 'Never' }],
    [
      'ranking',
      { options: [{ label: 'A' }, { label: 'B' }] },
      {
        options: [
          { id: 'opt_1', label: 'A', value: 'A' },
          { id: 'opt_2', label: 'B', value: 'B' },
        ],
      },
    ],
    ['file_upload', {}, { maxFiles: 1, maxSizeMb: 10, accept: [] }],
    ['signature', {}, {}],
    ['statement', { description: 'Read me' }, { required: false, description: 'Read me' }],
    ['hidden', { name: 'ref' }, { name: 'ref', dataType: 'text', required: false }],
    ['payment', { currency: 'USD', amount: 1500 }, { currency: 'USD', amount: { type: 'fixed', value: 1500 } }],
  ])('parses a %s field with its defaults (%j)', (type, input, expected) => {
    expect(onlyField({ type, label: 'Q', ...input })).toEqual({ id: 'fld_1', type, label: 'Q', required: false, ...expected });
  });

  it('covers every field type above', () => {
    expect(new Set(FIELD_TYPES).size).toBe(21);
  });
});

describe('parseDraftSchema: targets', () => {
  const steps = [{ id: 'stp_a' }, { id: 'stp_b' }];
  const screens = { submissions: { thankYouScreens: [{ id: 'tys_x', title: 'X' }] } };
  it.each<[unknown, unknown]>([
    ['end', { type: 'end' }],
    ['stp_b', { type: 'step', stepId: 'stp_b' }],
    ['thank_you:tys_x', { type: 'thank_you', screenId: 'tys_x' }],
    [`thank_you:${DEFAULT_THANK_YOU_SCREEN_ID}`, { type: 'thank_you', screenId: DEFAULT_THANK_YOU_SCREEN_ID }],
    [{ type: 'end' }, { type: 'end' }],
    [
      { type: 'step', stepId: 'stp_b' },
      { type: 'step', stepId: 'stp_b' },
    ],
    [
      { type: 'thank_you', screenId: 'tys_x' },
      { type: 'thank_you', screenId: 'tys_x' },
    ],
  ])('normalizes %j in rules and fallbacks', (spelling, expected) => {
    const schema = draft({ steps, settings: screens, workflow: { rules: [{ stepId: 'stp_a', target: spelling }], fallbacks: { stp_a: spelling } } });
    expect(schema.workflow.rules[0].target).toEqual(expected);
    expect(schema.workflow.fallbacks.stp_a).toEqual(expected);
  });

  it.each([['thank_you:'], [{ type: 'step' }], [{ type: 'end', stepId: 'x' }], [42], ['has space']])('rejects %j', (spelling) => {
    expect(issuesOf({ steps, workflow: { rules: [{ stepId: 'stp_a', target: spelling }] } })).toEqual([
      { path: 'workflow.rules[0].target', code: 'invalid_target', message: expect.stringContaining('"end"') },
    ]);
  });
});

describe('parseDraftSchema: shape issues', () => {
  it('rejects a non-object and a missing or empty steps list', () => {
    expect(issuesOf('x')).toEqual([{ path: '', code: 'invalid_type', message: expect.any(String) }]);
    expect(issuesOf({})).toEqual([{ path: 'steps', code: 'required', message: expect.any(String) }]);
    expect(issuesOf({ steps: [] })).toEqual([{ path: 'steps', code: 'too_few', message: expect.any(String) }]);
  });

  it('rejects unknown field types and missing types', () => {
    expect(issuesOf(withFields([{ type: 'captcha' }, { label: 'no type' }]))).toEqual([
      { path: 'steps[0].fields[0].type', code: 'unknown_field_type', message: expect.stringContaining('single_choice') },
      { path: 'steps[0].fields[1].type', code: 'required', message: expect.any(String) },
    ]);
  });

  it('rejects unknown properties everywhere, naming each', () => {
    const issues = issuesOf({
      ...withFields([
        { type: 'multiple_choice', label: 'Q', maxSelection: 2 },
        { type: 'dropdown', allowOther: true },
      ]),
      theme: { primaryColour: '#fff' },
      extra: true,
    });
    expect(issues.map((i) => [i.path, i.code])).toEqual([
      ['steps[0].fields[0].maxSelection', 'unknown_property'],
      ['steps[0].fields[1].allowOther', 'unknown_property'],
      ['theme.primaryColour', 'unknown_property'],
      ['extra', 'unknown_property'],
    ]);
    expect(issues[0].message).toBe('Unknown property "maxSelection" for a multiple_choice field.');
  });

  it('checks formats and limits with stable codes', () => {
    const issues = issuesOf({
      steps: [
        {
          title: 'x'.repeat(501),
          description: 'x'.repeat(5001),
          fields: [
            { type: 'single_choice', options: Array.from({ length: 101 }, (_, i) => ({ label: `o${i}` })) },
            { type: 'hidden', name: 'bad name' },
            { type: 'payment', currency: 'usd', amount: { type: 'fixed', value: 1.5 } },
            { type: 'date', minDate: '2023-02-29' },
            { type: 'phone', defaultCountry: 'XX' },
            { type: 'file_upload', accept: ['pdf'], maxFiles: 11 },
            { type: 'dropdown', options: [{ label: 'A', imageUrl: 'javascript:alert(1)' }] },
            { type: 'statement', required: true },
            { type: 'rating', max: 2, icon: 'smile' },
          ],
        },
      ],
      settings: { slug: 'Bad Slug', submissions: { thankYou: { id: 'other', buttonUrl: 'ftp://x.example' } } },
      theme: { primaryColor: 'red', background: { type: 'image', value: '#fff' }, fontFamily: 'Comic; x', customFont: { family: 'X' } },
      workflow: { rules: [{ stepId: 'stp_1', match: 'some' }], fallbacks: { 'bad key': 'end' } },
    });
    expect(issues.map((i) => [i.path, i.code])).toEqual([
      ['steps[0].title', 'too_long'],
      ['steps[0].description', 'too_long'],
      ['steps[0].fields[0].options', 'too_many'],
      ['steps[0].fields[1].name', 'invalid_name'],
      ['steps[0].fields[2].currency', 'invalid_currency'],
      ['steps[0].fields[2].amount.value', 'invalid_type'],
      ['steps[0].fields[3].minDate', 'invalid_date'],
      ['steps[0].fields[4].defaultCountry', 'unsupported_country'],
      ['steps[0].fields[5].accept[0]', 'invalid_accept'],
      ['steps[0].fields[5].maxFiles', 'too_large'],
      ['steps[0].fields[6].options[0].imageUrl', 'invalid_url'],
      ['steps[0].fields[7].required', 'invalid_value'],
      ['steps[0].fields[8].max', 'too_small'],
      ['steps[0].fields[8].icon', 'invalid_value'],
      ['settings.slug', 'invalid_slug'],
      ['settings.submissions.thankYou.id', 'invalid_value'],
      ['settings.submissions.thankYou.buttonUrl', 'invalid_url'],
      ['theme.primaryColor', 'invalid_color'],
      ['theme.background.value', 'invalid_url'],
      ['theme.fontFamily', 'invalid_font_family'],
      ['theme.customFont.fileName', 'required'],
      ['theme.customFont.assetId', 'required'],
      ['theme.customFont.format', 'required'],
      ['theme.customFont.url', 'required'],
      ['workflow.rules[0].match', 'invalid_value'],
      ['workflow.fallbacks["bad key"]', 'invalid_id'],
    ]);
  });

  it('limits steps, fields and rules', () => {
    expect(issuesOf({ steps: Array.from({ length: 51 }, () => ({})) }).map((i) => [i.path, i.code])).toEqual([['steps', 'too_many']]);
    const fields = Array.from({ length: 201 }, () => ({ type: 'text' }));
    expect(issuesOf(withFields(fields)).map((i) => [i.path, i.code])).toEqual([['steps', 'too_many']]);
    const rules = Array.from({ length: 201 }, () => ({ stepId: 'stp_a' }));
    expect(issuesOf(withFields([], { workflow: { rules } })).map((i) => [i.path, i.code])).toEqual([['workflow.rules', 'too_many']]);
  });

  it('rejects background values that do not fit the background type', () => {
    const bg = (type: string, value: string) => issuesOf(withFields([], { theme: { background: { type, value } } }))[0]?.code;
    expect(bg('color', 'url(x)')).toBe('invalid_color');
    expect(bg('gradient', 'linear-gradient(red);}body{')).toBe('invalid_gradient');
    expect(draft(withFields([], { theme: { background: { type: 'image', value: 'https://img.example/bg.jpg' } } })).theme.background.type).toBe('image');
  });

  it('reports issues of broken and valid sections together', () => {
    const issues = issuesOf({ steps: [{ id: 'stp_a' }, { id: 'stp_a' }], theme: { primaryColor: 'blue' } });
    expect(issues.map((i) => [i.path, i.code])).toEqual([
      ['steps[0].id', 'duplicate_id'],
      ['steps[1].id', 'duplicate_id'],
      ['theme.primaryColor', 'invalid_color'],
    ]);
  });

  it('orders issues by where they occur in the input', () => {
    const issues = issuesOf({ theme: { primaryColor: 'x' }, steps: [{ fields: [{ type: 'text', label: 1 }] }, { title: 2 }] });
    expect(issues.map((i) => i.path)).toEqual(['theme.primaryColor', 'steps[0].fields[0].label', 'steps[1].title']);
  });
});

describe('parseDraftSchema: theme and round trips', () => {
  const customFont = { family: 'Brand Sans', fileName: 'brand.woff2', assetId: 'ast_123', format: 'woff2', url: 'https://cdn.example/brand.woff2' };

  it('round-trips a custom font unchanged', () => {
    const schema = draft(withFields([], { theme: { fontFamily: 'custom', customFont } }));
    expect(schema.theme.fontFamily).toBe('custom');
    expect(schema.theme.customFont).toEqual(customFont);
    expect(draft(schema)).toEqual(schema);
  });

  it('needs customFont when fontFamily is custom', () => {
    expect(issuesOf(withFields([], { theme: { fontFamily: 'custom' } }))).toEqual([
      { path: 'theme.customFont', code: 'required', message: expect.any(String) },
    ]);
    expect(issuesOf(withFields([], { theme: { fontFamily: 'custom', customFont: null } }))[0].path).toBe('theme.customFont');
  });

  it('parses a large realistic form and re-parses it to the identical draft', () => {
    const first = draft(realisticInput);
    const again = parseDraftSchema(first, () => {
      throw new Error('a normalized draft needs no new ids');
    });
    expect(again).toEqual({ ok: true, value: first });
    expect(JSON.stringify(again.ok && again.value)).toBe(JSON.stringify(first));
    expect(first.workflow.fallbacks).toEqual({ stp_needs: { type: 'step', stepId: 'stp_checkout' }, stp_enterprise: { type: 'step', stepId: 'stp_checkout' } });
    expect(first.steps[2].fields[0]).toEqual({ id: 'fld_1', type: 'statement', label: 'Our sales team will reach out.', required: false });
  });

  it('does not mutate its input', () => {
    const input = JSON.parse(JSON.stringify(realisticInput));
    draft(input);
    expect(input).toEqual(realisticInput);
  });
});
