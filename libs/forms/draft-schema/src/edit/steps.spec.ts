import { counterIds } from '../test-support.fixture';
import { editError, editFixture } from './edit.fixture';
import { addStep, deleteStep, moveStep, reorderSteps, stepPositions, updateStep } from './steps';

const ruleIds = (schema: ReturnType<typeof editFixture>) => schema.workflow.rules.map((r) => r.id);

describe('addStep', () => {
  it('appends by default and inserts at a position, minting ids for the step and its fields', () => {
    const schema = editFixture();
    const appended = addStep(schema, { title: 'D', fields: [{ type: 'dropdown', label: 'Pick', options: [{ label: 'One' }] }] }, undefined, counterIds());
    expect(appended.step).toEqual({
      id: 'stp_1',
      title: 'D',
      fields: [{ id: 'fld_1', type: 'dropdown', label: 'Pick', required: false, options: [{ id: 'opt_1', label: 'One', value: 'One' }] }],
    });
    expect(stepPositions(appended.schema)).toEqual([
      { id: 'stp_a', position: 0 },
      { id: 'stp_b', position: 1 },
      { id: 'stp_c', position: 2 },
      { id: 'stp_1', position: 3 },
    ]);
    const inserted = addStep(schema, { title: 'First' }, 0, counterIds());
    expect(inserted.schema.steps.map((s) => s.id)).toEqual(['stp_1', 'stp_a', 'stp_b', 'stp_c']);
    expect(schema.steps).toHaveLength(3);
  });

  it('names problems by their path in the request body', () => {
    const input = { title: 'D', fields: [{ type: 'single_choice', options: [{ label: 'A' }, { label: '' }] }, { type: 'nope' }], colour: 'red' };
    expect(editError(() => addStep(editFixture(), input, undefined, counterIds()))).toEqual({
      status: 400,
      code: 'required',
      path: 'fields[0].options[1].label',
      message: expect.any(String),
      issues: [
        { path: 'fields[0].options[1].label', code: 'required', message: expect.any(String) },
        { path: 'fields[1].type', code: 'unknown_field_type', message: expect.any(String) },
        { path: 'colour', code: 'unknown_property', message: expect.any(String) },
      ],
    });
  });

  it('rejects positions outside the list', () => {
    for (const position of [-1, 4, 1.5]) {
      expect(editError(() => addStep(editFixture(), {}, position, counterIds()))).toMatchObject({ status: 400, code: 'invalid_position', path: 'position' });
    }
  });

  it('is a 409 when the form already has the most steps', () => {
    let schema = editFixture();
    const ids = counterIds();
    while (schema.steps.length < 50) schema = addStep(schema, {}, undefined, ids).schema;
    expect(editError(() => addStep(schema, {}, undefined, ids))).toMatchObject({ status: 409, code: 'too_many', path: 'steps' });
  });
});

describe('updateStep', () => {
  it('merges the patch; null removes a property', () => {
    const withDescription = updateStep(editFixture(), 'stp_b', { title: 'Bee', description: 'About B' });
    expect(withDescription.step).toMatchObject({ id: 'stp_b', title: 'Bee', description: 'About B' });
    const cleared = updateStep(withDescription.schema, 'stp_b', { description: null });
    expect(cleared.step).toEqual({ ...withDescription.step, description: undefined });
    expect('description' in cleared.step).toBe(false);
  });

  it('refuses id and fields, unknown properties and bad values', () => {
    expect(editError(() => updateStep(editFixture(), 'stp_a', { id: 'x' }))).toMatchObject({ status: 400, code: 'not_patchable', path: 'id' });
    expect(editError(() => updateStep(editFixture(), 'stp_a', { fields: [] }))).toMatchObject({ status: 400, code: 'not_patchable', path: 'fields' });
    expect(editError(() => updateStep(editFixture(), 'stp_a', { colour: 'red' }))).toMatchObject({ status: 400, code: 'unknown_property', path: 'colour' });
    expect(editError(() => updateStep(editFixture(), 'stp_a', { title: 'x'.repeat(501) }))).toMatchObject({ status: 400, code: 'too_long', path: 'title' });
  });

  it('is a 404 for an unknown step, naming its id', () => {
    expect(editError(() => updateStep(editFixture(), 'stp_zz', { title: 'x' }))).toMatchObject({ status: 404, code: 'step_not_found', path: 'stp_zz' });
  });
});

describe('deleteStep', () => {
  it('removes the step, its rules and fallback, and targets and fallbacks leading to it', () => {
    const { schema } = deleteStep(editFixture(), 'stp_c');
    expect(schema.steps.map((s) => s.id)).toEqual(['stp_a', 'stp_b']);
    // rul_1 only jumped to stp_c: with its target gone it would do nothing.
    expect(ruleIds(schema)).toEqual(['rul_2', 'rul_3', 'rul_4']);
    expect(schema.workflow.fallbacks).toEqual({ stp_a: { type: 'step', stepId: 'stp_b' } });
  });

  it('keeps a rule whose target is dropped while it still has actions', () => {
    const { schema } = deleteStep(editFixture(), 'stp_b');
    expect(ruleIds(schema)).toEqual(['rul_1', 'rul_2', 'rul_4']);
    expect(schema.workflow.rules[2]).toEqual({
      id: 'rul_4',
      stepId: 'stp_a',
      match: 'all',
      conditions: [],
      actions: [expect.objectContaining({ id: 'act_2' })],
    });
    expect(schema.workflow.fallbacks).toEqual({});
  });

  it('cleans up references to the deleted step’s fields', () => {
    const { schema } = deleteStep(editFixture(), 'stp_a');
    expect(ruleIds(schema)).toEqual(['rul_3']);
    expect(schema.quiz?.mappings).toEqual([]);
    expect(schema.steps[0].fields[1]).toMatchObject({ id: 'fld_pay', amount: { type: 'fixed', value: 0 } });
    expect(schema.workflow.fallbacks).toEqual({ stp_b: { type: 'step', stepId: 'stp_c' } });
  });

  it('keeps at least one step', () => {
    let schema = editFixture();
    schema = deleteStep(deleteStep(schema, 'stp_a').schema, 'stp_b').schema;
    expect(editError(() => deleteStep(schema, 'stp_c'))).toMatchObject({ status: 400, code: 'last_step' });
    expect(editError(() => deleteStep(schema, 'stp_a'))).toMatchObject({ status: 404, code: 'step_not_found' });
  });
});

describe('reorderSteps and moveStep', () => {
  it('reorders by a complete list of step ids', () => {
    const { schema } = reorderSteps(editFixture(), ['stp_c', 'stp_a', 'stp_b']);
    expect(stepPositions(schema).map((p) => p.id)).toEqual(['stp_c', 'stp_a', 'stp_b']);
  });

  it.each([
    [['stp_a', 'stp_b']],
    [['stp_a', 'stp_b', 'stp_b']],
    [['stp_a', 'stp_b', 'stp_x']],
    [['stp_a', 'stp_b', 'stp_c', 'stp_d']],
    ['stp_a' as unknown as string[]],
  ])('rejects %j', (ids) => {
    expect(editError(() => reorderSteps(editFixture(), ids))).toMatchObject({ status: 400, code: 'invalid_step_order', path: 'step_ids' });
  });

  it('moves one step', () => {
    const moved = moveStep(editFixture(), 'stp_a', 2);
    expect(moved.schema.steps.map((s) => s.id)).toEqual(['stp_b', 'stp_c', 'stp_a']);
    expect(moved.step.id).toBe('stp_a');
    expect(editError(() => moveStep(editFixture(), 'stp_a', 3))).toMatchObject({ status: 400, code: 'invalid_position', path: 'position' });
    expect(editError(() => moveStep(editFixture(), 'stp_q', 0))).toMatchObject({ status: 404, path: 'stp_q' });
  });
});
