import { DEFAULT_THEME } from '../defaults';
import { counterIds } from '../test-support.fixture';
import { editError, editFixture } from './edit.fixture';
import { getStepLogic, setStepLogic } from './logic';
import { mergeTheme } from './theme';

describe('getStepLogic', () => {
  it('returns the step’s rules in order and its fallback', () => {
    const logic = getStepLogic(editFixture(), 'stp_a');
    expect(logic.rules.map((r) => r.id)).toEqual(['rul_1', 'rul_2', 'rul_4']);
    expect(logic.fallbackTarget).toEqual({ type: 'step', stepId: 'stp_b' });
    expect(getStepLogic(editFixture(), 'stp_c')).toEqual({ stepId: 'stp_c', rules: [], fallbackTarget: null });
    expect(editError(() => getStepLogic(editFixture(), 'stp_x'))).toMatchObject({ status: 404, code: 'step_not_found' });
  });
});

describe('setStepLogic', () => {
  const rule = { conditions: [{ subject: { type: 'field', fieldId: 'fld_email' }, operator: 'contains', value: '@' }], target: 'end' };

  it('replaces only that step’s rules, in their place, and sets the fallback in any spelling', () => {
    const input = { rules: [rule, { stepId: 'stp_b', target: 'stp_c' }], fallbackTarget: 'thank_you:tys_x' };
    const { schema, logic } = setStepLogic(editFixture(), 'stp_b', input, counterIds('n'));
    expect(schema.workflow.rules.map((r) => r.id)).toEqual(['rul_1', 'rul_2', 'rul_n1', 'rul_n2', 'rul_4']);
    expect(logic).toEqual({
      stepId: 'stp_b',
      rules: [
        {
          id: 'rul_n1',
          stepId: 'stp_b',
          match: 'all',
          conditions: [{ id: 'cnd_n1', subject: { type: 'field', fieldId: 'fld_email' }, operator: 'contains', value: '@' }],
          actions: [],
          target: { type: 'end' },
        },
        { id: 'rul_n2', stepId: 'stp_b', match: 'all', conditions: [], actions: [], target: { type: 'step', stepId: 'stp_c' } },
      ],
      fallbackTarget: { type: 'thank_you', screenId: 'tys_x' },
    });
  });

  it('removes the fallback when fallbackTarget is null or absent, and appends rules of a step that had none', () => {
    const cleared = setStepLogic(editFixture(), 'stp_a', { rules: [], fallbackTarget: null }, counterIds());
    expect(cleared.logic).toEqual({ stepId: 'stp_a', rules: [], fallbackTarget: null });
    expect(cleared.schema.workflow.rules.map((r) => r.id)).toEqual(['rul_3']);
    expect(cleared.schema.workflow.fallbacks).toEqual({ stp_b: { type: 'step', stepId: 'stp_c' } });
    const added = setStepLogic(editFixture(), 'stp_c', { rules: [{ target: { type: 'end' } }] }, counterIds('n'));
    expect(added.schema.workflow.rules.map((r) => r.stepId)).toEqual(['stp_a', 'stp_a', 'stp_b', 'stp_a', 'stp_c']);
    expect(added.logic.fallbackTarget).toBeNull();
  });

  it('names problems by their path in the request body', () => {
    const run = (input: { rules: unknown; fallbackTarget?: unknown }) => editError(() => setStepLogic(editFixture(), 'stp_b', input, counterIds('n')));
    expect(run({ rules: [{ stepId: 'stp_a' }] })).toMatchObject({ status: 400, code: 'step_mismatch', path: 'rules[0].stepId' });
    expect(run({ rules: [{ target: 'nowhere at all' }] })).toMatchObject({ status: 400, code: 'invalid_target', path: 'rules[0].target' });
    expect(run({ rules: [{ target: 'stp_gone' }] })).toMatchObject({ status: 400, code: 'unknown_reference', path: 'rules[0].target' });
    expect(run({ rules: [], fallbackTarget: { type: 'step' } })).toMatchObject({ status: 400, code: 'invalid_target', path: 'fallbackTarget' });
    expect(run({ rules: [{ conditions: [{ subject: { type: 'field', fieldId: 'fld_x' }, operator: 'is_empty' }] }] })).toMatchObject({
      code: 'unknown_reference',
      path: 'rules[0].conditions[0].subject.fieldId',
    });
    expect(run({ rules: [{ id: 'rul_1' }] })).toMatchObject({ status: 400, code: 'duplicate_id', path: 'rules[0].id' });
    expect(run({ rules: 'none' })).toMatchObject({ status: 400, code: 'invalid_type', path: 'rules' });
    expect(run({} as { rules: unknown })).toMatchObject({ status: 400, code: 'required', path: 'rules' });
  });
});

describe('mergeTheme', () => {
  const customFont = { family: 'Brand', fileName: 'brand.woff2', assetId: 'ast_1', format: 'woff2', url: 'https://cdn.example/brand.woff2' };

  it('merges keys, and background key by key', () => {
    const { theme } = mergeTheme(editFixture(), { primaryColor: '#000', background: { value: '#abc' }, borderRadius: 4 });
    expect(theme).toEqual({ primaryColor: '#000', background: { type: 'color', value: '#abc' }, fontFamily: 'Inter', borderRadius: 4 });
  });

  it('sets and clears a custom font; null returns a required key to its default', () => {
    const withFont = mergeTheme(editFixture(), { fontFamily: 'custom', customFont });
    expect(withFont.theme.customFont).toEqual(customFont);
    const cleared = mergeTheme(withFont.schema, { fontFamily: 'Inter', customFont: null });
    expect('customFont' in cleared.theme).toBe(false);
    expect(mergeTheme(mergeTheme(editFixture(), { primaryColor: '#123' }).schema, { primaryColor: null }).theme.primaryColor).toBe(DEFAULT_THEME.primaryColor);
  });

  it('validates the merged result, naming paths under theme', () => {
    expect(editError(() => mergeTheme(editFixture(), { background: { type: 'video' } }))).toMatchObject({
      status: 400,
      code: 'invalid_value',
      path: 'theme.background.type',
    });
    expect(editError(() => mergeTheme(editFixture(), { background: { type: 'image' } }))).toMatchObject({
      status: 400,
      code: 'invalid_url',
      path: 'theme.background.value',
    });
    expect(editError(() => mergeTheme(editFixture(), { fontFamily: 'custom' }))).toMatchObject({ status: 400, code: 'required', path: 'theme.customFont' });
    expect(editError(() => mergeTheme(editFixture(), { customFont: { ...customFont, url: 'javascript:alert(1)' } }))).toMatchObject({
      code: 'invalid_url',
      path: 'theme.customFont.url',
    });
    expect(editError(() => mergeTheme(editFixture(), 'dark'))).toMatchObject({ status: 400, code: 'invalid_type', path: 'theme' });
  });
});
