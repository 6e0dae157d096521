import { counterIds } from '../test-support.fixture';
import { editError, editFixture } from './edit.fixture';
import { addField, deleteField, fieldPositions, findField, moveField, reorderFields, updateField } from './fields';

const ruleIds = (schema: ReturnType<typeof editFixture>) => schema.workflow.rules.map((r) => r.id);

describe('addField', () => {
  it('appends or inserts, minting ids for the field and its options', () => {
    const input = { type: 'multiple_choice', label: 'Topics', options: [{ label: 'A' }, { label: 'B', value: 'b' }] };
    const { schema, field } = addField(editFixture(), 'stp_b', input, 1, counterIds());
    expect(field).toEqual({
      id: 'fld_1',
      type: 'multiple_choice',
      label: 'Topics',
      required: false,
      options: [
        { id: 'opt_1', label: 'A', value: 'A' },
        { id: 'opt_2', label: 'B', value: 'b' },
      ],
    });
    expect(fieldPositions(schema, 'stp_b')).toEqual([
      { id: 'fld_email', position: 0 },
      { id: 'fld_1', position: 1 },
      { id: 'fld_pay', position: 2 },
    ]);
    const appended = addField(editFixture(), 'stp_c', { type: 'rating', label: 'Rate' }, undefined, counterIds());
    expect(fieldPositions(appended.schema, 'stp_c').map((p) => p.id)).toEqual(['fld_note', 'fld_1']);
    expect(appended.field).toMatchObject({ max: 5, icon: 'star' });
  });

  it('names problems by their path in the request body', () => {
    const bad = { type: 'dropdown', options: [{ label: 'A' }, { value: 'b' }], maxSelections: 2 };
    expect(editError(() => addField(editFixture(), 'stp_a', bad, undefined, counterIds()))).toMatchObject({
      status: 400,
      code: 'required',
      path: 'options[1].label',
      issues: [
        { path: 'options[1].label', code: 'required', message: expect.any(String) },
        { path: 'maxSelections', code: 'unknown_property', message: expect.any(String) },
      ],
    });
    expect(editError(() => addField(editFixture(), 'stp_a', { type: 'video' }, undefined, counterIds()))).toMatchObject({
      code: 'unknown_field_type',
      path: 'type',
    });
    expect(editError(() => addField(editFixture(), 'stp_a', { id: 'fld_note', type: 'text' }, undefined, counterIds()))).toMatchObject({
      status: 400,
      code: 'duplicate_id',
      path: 'id',
    });
    expect(editError(() => addField(editFixture(), 'stp_a', { type: 'text' }, 9, counterIds()))).toMatchObject({ code: 'invalid_position', path: 'position' });
    expect(editError(() => addField(editFixture(), 'stp_x', { type: 'text' }, undefined, counterIds()))).toMatchObject({
      status: 404,
      code: 'step_not_found',
      path: 'stp_x',
    });
  });
});

describe('updateField', () => {
  it('merges the patch; null removes a property', () => {
    const ids = counterIds();
    const placed = updateField(editFixture(), 'fld_name', { label: 'Full name', placeholder: 'Ada' }, ids);
    expect(placed.field).toEqual({ id: 'fld_name', type: 'text', label: 'Full name', required: false, placeholder: 'Ada' });
    expect(updateField(placed.schema, 'fld_name', { placeholder: null }, ids).field).toEqual({
      id: 'fld_name',
      type: 'text',
      label: 'Full name',
      required: false,
    });
  });

  it('replaces options, minting ids for new ones', () => {
    const { field } = updateField(editFixture(), 'fld_plan', { options: [{ id: 'opt_pro', label: 'Pro' }, { label: 'Team' }] }, counterIds());
    expect('options' in field && field.options).toEqual([
      { id: 'opt_pro', label: 'Pro', value: 'Pro' },
      { id: 'opt_1', label: 'Team', value: 'Team' },
    ]);
  });

  it('changes the type, dropping the old type’s own properties and filling the new defaults', () => {
    const { schema } = updateField(editFixture(), 'fld_note', { type: 'text', maxLength: 50 }, counterIds());
    expect(findField(schema, 'fld_note')?.field).toEqual({ id: 'fld_note', type: 'text', label: 'Note', required: false, maxLength: 50 });
    const rating = updateField(schema, 'fld_note', { type: 'opinion_scale' }, counterIds());
    expect(rating.field).toEqual({ id: 'fld_note', type: 'opinion_scale', label: 'Note', required: false, min: 1, max: 5 });
    const statement = updateField(updateField(schema, 'fld_note', { required: true }, counterIds()).schema, 'fld_note', { type: 'statement' }, counterIds());
    expect(statement.field).toEqual({ id: 'fld_note', type: 'statement', label: 'Note', required: false });
  });

  it('is a 409 naming the draft path when the change breaks a reference elsewhere', () => {
    expect(editError(() => updateField(editFixture(), 'fld_qty', { type: 'text' }, counterIds()))).toMatchObject({
      status: 409,
      code: 'non_numeric_operand',
      path: 'steps[1].fields[1].amount.fieldId',
      issues: [
        { path: 'steps[1].fields[1].amount.fieldId', code: 'non_numeric_operand', message: expect.any(String) },
        { path: 'workflow.rules[1].conditions[0].operator', code: 'incompatible_operator', message: expect.any(String) },
        { path: 'workflow.rules[1].actions[0].operand', code: 'non_numeric_operand', message: expect.any(String) },
        { path: 'workflow.rules[3].actions[0].operand', code: 'non_numeric_operand', message: expect.any(String) },
      ],
    });
    expect(editError(() => updateField(editFixture(), 'fld_plan', { options: [{ label: 'Basic' }] }, counterIds()))).toMatchObject({
      status: 409,
      code: 'unknown_reference',
      path: 'workflow.rules[0].conditions[0].value',
    });
  });

  it('refuses the id and bad values, and 404s on unknown fields', () => {
    expect(editError(() => updateField(editFixture(), 'fld_name', { id: 'x' }, counterIds()))).toMatchObject({
      status: 400,
      code: 'not_patchable',
      path: 'id',
    });
    expect(editError(() => updateField(editFixture(), 'fld_plan', { options: [{ label: 'A' }, { label: 'A' }] }, counterIds()))).toMatchObject({
      status: 400,
      code: 'duplicate_value',
      path: 'options[0].value',
    });
    expect(editError(() => updateField(editFixture(), 'fld_zz', {}, counterIds()))).toMatchObject({ status: 404, code: 'field_not_found', path: 'fld_zz' });
  });
});

describe('deleteField', () => {
  it('drops conditions and actions reading the field, and rules left meaningless', () => {
    const { schema } = deleteField(editFixture(), 'fld_qty');
    expect(findField(schema, 'fld_qty')).toBeUndefined();
    // rul_2 keeps cnd_3 but loses its only action, so does nothing any more; rul_4 keeps its target.
    expect(ruleIds(schema)).toEqual(['rul_1', 'rul_3', 'rul_4']);
    expect(schema.workflow.rules[2]).toMatchObject({ id: 'rul_4', actions: [], target: { type: 'step', stepId: 'stp_b' } });
    expect(findField(schema, 'fld_pay')?.field).toMatchObject({ amount: { type: 'fixed', value: 0 } });
  });

  it('removes a rule that loses its last condition rather than letting it always hold', () => {
    const { schema } = deleteField(editFixture(), 'fld_plan');
    expect(ruleIds(schema)).toEqual(['rul_2', 'rul_3', 'rul_4']);
    expect(schema.quiz?.mappings).toEqual([]);
  });

  it('keeps a rule with conditions left', () => {
    const { schema } = deleteField(editFixture(), 'fld_name');
    expect(schema.workflow.rules[1]).toMatchObject({
      id: 'rul_2',
      conditions: [expect.objectContaining({ id: 'cnd_2' })],
      actions: [expect.objectContaining({ id: 'act_1' })],
    });
    expect(editError(() => deleteField(editFixture(), 'fld_zz'))).toMatchObject({ status: 404, code: 'field_not_found' });
  });
});

describe('reorderFields and moveField', () => {
  it('reorders by a complete list of the step’s field ids', () => {
    const { schema } = reorderFields(editFixture(), 'stp_a', ['fld_plan', 'fld_name', 'fld_qty']);
    expect(fieldPositions(schema, 'stp_a')).toEqual([
      { id: 'fld_plan', position: 0 },
      { id: 'fld_name', position: 1 },
      { id: 'fld_qty', position: 2 },
    ]);
    expect(editError(() => reorderFields(editFixture(), 'stp_a', ['fld_plan', 'fld_name']))).toMatchObject({
      status: 400,
      code: 'invalid_field_order',
      path: 'field_ids',
    });
    expect(editError(() => reorderFields(editFixture(), 'stp_a', ['fld_plan', 'fld_name', 'fld_email']))).toMatchObject({ code: 'invalid_field_order' });
  });

  it('moves a field within its step and into another step', () => {
    const within = moveField(editFixture(), 'fld_name', { position: 2 });
    expect(fieldPositions(within.schema, 'stp_a').map((p) => p.id)).toEqual(['fld_qty', 'fld_plan', 'fld_name']);
    const across = moveField(editFixture(), 'fld_note', { stepId: 'stp_a', position: 3 });
    expect(across.field.id).toBe('fld_note');
    expect(fieldPositions(across.schema, 'stp_a').map((p) => p.id)).toEqual(['fld_name', 'fld_qty', 'fld_plan', 'fld_note']);
    expect(across.schema.steps[2].fields).toEqual([]);
    expect(findField(across.schema, 'fld_note')).toMatchObject({ step: { id: 'stp_a' }, index: 3 });
  });

  it('checks the position against the destination', () => {
    expect(editError(() => moveField(editFixture(), 'fld_name', { position: 3 }))).toMatchObject({ status: 400, code: 'invalid_position' });
    expect(editError(() => moveField(editFixture(), 'fld_note', { stepId: 'stp_b', position: 3 }))).toMatchObject({ status: 400, code: 'invalid_position' });
    expect(editError(() => moveField(editFixture(), 'fld_note', { stepId: 'stp_q', position: 0 }))).toMatchObject({
      status: 404,
      code: 'step_not_found',
      path: 'stp_q',
    });
  });
});
