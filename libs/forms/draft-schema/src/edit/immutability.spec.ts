import type { DraftSchema } from '../model';
import { counterIds } from '../test-support.fixture';
import { editFixture } from './edit.fixture';
import { addField, deleteField, moveField, reorderFields, updateField } from './fields';
import { setStepLogic } from './logic';
import { addStep, deleteStep, moveStep, reorderSteps, updateStep } from './steps';
import { mergeTheme } from './theme';

const operations: [string, (schema: DraftSchema) => { schema: DraftSchema }][] = [
  ['addStep', (s) => addStep(s, { title: 'New', fields: [{ type: 'text' }] }, 1, counterIds('n'))],
  ['updateStep', (s) => updateStep(s, 'stp_a', { title: 'Changed' })],
  ['deleteStep', (s) => deleteStep(s, 'stp_a')],
  ['reorderSteps', (s) => reorderSteps(s, ['stp_c', 'stp_b', 'stp_a'])],
  ['moveStep', (s) => moveStep(s, 'stp_c', 0)],
  ['addField', (s) => addField(s, 'stp_a', { type: 'checkbox', label: 'OK' }, 0, counterIds('n'))],
  ['updateField', (s) => updateField(s, 'fld_plan', { label: 'Tier', options: [{ label: 'Basic' }, { label: 'Pro' }] }, counterIds('n'))],
  ['deleteField', (s) => deleteField(s, 'fld_qty')],
  ['reorderFields', (s) => reorderFields(s, 'stp_a', ['fld_qty', 'fld_plan', 'fld_name'])],
  ['moveField', (s) => moveField(s, 'fld_email', { stepId: 'stp_c', position: 0 })],
  ['setStepLogic', (s) => setStepLogic(s, 'stp_a', { rules: [], fallbackTarget: 'end' }, counterIds('n'))],
  ['mergeTheme', (s) => mergeTheme(s, { background: { value: '#000' } })],
];

// editFixture() is deep-frozen, so a mutation would also throw.
it.each(operations)('%s returns a new draft and leaves its input untouched', (_, operation) => {
  const input = editFixture();
  const before = JSON.stringify(input);
  const { schema } = operation(input);
  expect(JSON.stringify(input)).toBe(before);
  expect(JSON.stringify(schema)).not.toBe(before);
  expect(schema.steps).not.toBe(input.steps);
  expect(schema.workflow).not.toBe(input.workflow);
});
