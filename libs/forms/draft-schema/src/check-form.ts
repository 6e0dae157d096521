import { repeated, type FormIndex } from './form-index';
import { rawIssue, type PathSegment, type RawIssue } from './issues';
import { LIMITS } from './limits';
import { DEFAULT_THANK_YOU_SCREEN_ID, type Field, type FormSettings, type Step } from './model';
import { fieldValueKind } from './value-kinds';

const duplicateIds = (entries: { key: string; path: PathSegment[] }[], kind: string) => repeated(entries, 'duplicate_id', `Another ${kind} also uses this id.`);

function checkPaymentAmount(field: Field, path: PathSegment[], index: FormIndex): RawIssue[] {
  if (field.type !== 'payment') return [];
  const amount = field.amount;
  if (amount.type === 'field') {
    const entry = index.fields.get(amount.fieldId);
    const at = [...path, 'amount', 'fieldId'];
    if (!entry) return [rawIssue(at, 'unknown_reference', 'No field has this id.')];
    if (fieldValueKind(entry.field) !== 'number') return [rawIssue(at, 'non_numeric_operand', 'The amount must come from a numeric answer.')];
  }
  if (amount.type === 'variable') {
    const variable = index.variables.get(amount.variableId);
    const at = [...path, 'amount', 'variableId'];
    if (!variable) return [rawIssue(at, 'unknown_reference', 'No workflow variable has this id.')];
    if (variable.type !== 'number') return [rawIssue(at, 'non_numeric_operand', 'The amount must come from a number variable.')];
  }
  return [];
}

function checkField(field: Field, path: PathSegment[], index: FormIndex): RawIssue[] {
  const issues = checkPaymentAmount(field, path, index);
  if ('options' in field) {
    const options = field.options.map((o, i) => ({ option: o, path: [...path, 'options', i] }));
    issues.push(
      ...duplicateIds(
        options.map((o) => ({ key: o.option.id, path: [...o.path, 'id'] })),
        'option of this field',
      ),
    );
    const values = options.map((o) => ({ key: o.option.value, path: [...o.path, 'value'] }));
    issues.push(...repeated(values, 'duplicate_value', 'Another option of this field has the same value.'));
  }
  if (field.type === 'hidden' && field.dataType === 'number' && field.defaultValue !== undefined && !isNumeric(field.defaultValue)) {
    issues.push(rawIssue([...path, 'defaultValue'], 'invalid_value', 'A number hidden field needs a numeric default.'));
  }
  return issues;
}

const isNumeric = (value: string) => value.trim() !== '' && Number.isFinite(Number(value));

/** Ids, names and references inside the steps and settings. */
export function checkForm(steps: readonly Step[], settings: FormSettings, index: FormIndex): RawIssue[] {
  const issues: RawIssue[] = [];
  const stepRefs = steps.map((step, i) => ({ key: step.id, path: ['steps', i, 'id'] }));
  issues.push(...duplicateIds(stepRefs, 'step'));
  for (const ref of stepRefs.filter((r) => r.key === 'end')) issues.push(rawIssue(ref.path, 'reserved_id', '"end" is reserved for the end of the form.'));

  const fields = steps.flatMap((step, s) => step.fields.map((field, f) => ({ field, path: ['steps', s, 'fields', f] })));
  if (fields.length > LIMITS.fields) issues.push(rawIssue(['steps'], 'too_many', `A form has at most ${LIMITS.fields} fields.`));
  issues.push(
    ...duplicateIds(
      fields.map(({ field, path }) => ({ key: field.id, path: [...path, 'id'] })),
      'field',
    ),
  );
  const hidden = fields.flatMap(({ field, path }) => (field.type === 'hidden' ? [{ key: field.name, path: [...path, 'name'] }] : []));
  issues.push(...repeated(hidden, 'duplicate_name', 'Another hidden field uses this name.'));
  for (const { field, path } of fields) issues.push(...checkField(field, path, index));

  const variables = settings.hidden.variables.map((v, i) => ({ variable: v, path: ['settings', 'hidden', 'variables', i] }));
  issues.push(
    ...duplicateIds(
      variables.map(({ variable, path }) => ({ key: variable.id, path: [...path, 'id'] })),
      'variable',
    ),
  );
  const names = variables.map(({ variable, path }) => ({ key: variable.name.toLowerCase(), path: [...path, 'name'] }));
  issues.push(...repeated(names, 'duplicate_name', 'Another variable has this name.'));
  for (const { variable, path } of variables) {
    const expected = variable.type === 'number' ? 'number' : 'string';
    if (variable.initialValue !== undefined && typeof variable.initialValue !== expected) {
      issues.push(rawIssue([...path, 'initialValue'], 'invalid_type', `A ${variable.type} variable starts with a ${variable.type}.`));
    }
  }

  const screens = settings.submissions.thankYouScreens.map((s, i) => ({ key: s.id, path: ['settings', 'submissions', 'thankYouScreens', i, 'id'] }));
  issues.push(...duplicateIds(screens, 'thank-you screen'));
  for (const ref of screens.filter((s) => s.key === DEFAULT_THANK_YOU_SCREEN_ID)) {
    issues.push(rawIssue(ref.path, 'reserved_id', 'This id belongs to the default thank-you screen.'));
  }
  return issues;
}
