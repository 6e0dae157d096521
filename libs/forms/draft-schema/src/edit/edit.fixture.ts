/** The form the editing specs start from (deep-frozen, so any mutation by an operation throws). */
import type { DraftSchema } from '../model';
import { deepFreeze, draft } from '../test-support.fixture';
import { DraftEditError } from './errors';

const field = (fieldId: string) => ({ type: 'field', fieldId });

export function editFixture(): DraftSchema {
  return deepFreeze(
    draft({
      steps: [
        {
          id: 'stp_a',
          title: 'A',
          fields: [
            { id: 'fld_name', type: 'text', label: 'Name' },
            { id: 'fld_qty', type: 'number', label: 'Qty' },
            {
              id: 'fld_plan',
              type: 'single_choice',
              label: 'Plan',
              options: [
                { id: 'opt_basic', label: 'Basic' },
                { id: 'opt_pro', label: 'Pro' },
              ],
            },
          ],
        },
        {
          id: 'stp_b',
          title: 'B',
          fields: [
            { id: 'fld_email', type: 'email', label: 'Email' },
            { id: 'fld_pay', type: 'payment', label: 'Pay', currency: 'USD', amount: { type: 'field', fieldId: 'fld_qty' } },
          ],
        },
        { id: 'stp_c', title: 'C', fields: [{ id: 'fld_note', type: 'long_text', label: 'Note' }] },
      ],
      settings: {
        hidden: { variables: [{ id: 'var_n', name: 'n', type: 'number' }] },
        submissions: { thankYouScreens: [{ id: 'tys_x', title: 'X' }] },
      },
      workflow: {
        rules: [
          { id: 'rul_1', stepId: 'stp_a', conditions: [{ id: 'cnd_1', subject: field('fld_plan'), operator: 'equals', value: 'Pro' }], target: 'stp_c' },
          {
            id: 'rul_2',
            stepId: 'stp_a',
            conditions: [
              { id: 'cnd_2', subject: field('fld_qty'), operator: 'greater_than', value: 10 },
              { id: 'cnd_3', subject: field('fld_name'), operator: 'is_not_empty' },
            ],
            actions: [{ id: 'act_1', variableId: 'var_n', operation: 'set', operand: field('fld_qty') }],
          },
          {
            id: 'rul_3',
            stepId: 'stp_b',
            conditions: [{ id: 'cnd_4', subject: field('fld_email'), operator: 'ends_with', value: '@x.com' }],
            target: 'thank_you:tys_x',
          },
          { id: 'rul_4', stepId: 'stp_a', actions: [{ id: 'act_2', variableId: 'var_n', operation: 'add', operand: field('fld_qty') }], target: 'stp_b' },
        ],
        fallbacks: { stp_a: 'stp_b', stp_b: 'stp_c' },
      },
      quiz: {
        endings: [{ id: 'end_1', screenId: 'tys_x' }],
        mappings: [{ id: 'map_1', fieldId: 'fld_plan', optionValue: 'Pro', endingId: 'end_1' }],
      },
    }),
  );
}

/** Runs `fn` and returns the DraftEditError it throws (as a plain object, for toEqual/toMatchObject). */
export function editError(fn: () => unknown): Pick<DraftEditError, 'status' | 'code' | 'path' | 'message' | 'issues'> {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof DraftEditError)) throw error;
    return { status: error.status, code: error.code, path: error.path, message: error.message, issues: error.issues };
  }
  throw new Error('expected a DraftEditError');
}
