import type { DraftSchema } from '@forms/draft-schema';
import { headerRow, submissionRow, workbookLayout } from './workbook-layout';

const schema = (fields: Array<{ id: string; type: string; label: string }>) => ({ steps: [{ id: 'stp_1', fields }] }) as unknown as DraftSchema;

describe('workbook layout', () => {
  it('unites the fields of several versions in a stable order: the newest version first, labels from the newest', () => {
    const v1 = schema([
      { id: 'fld_a', type: 'text', label: 'A (old label)' },
      { id: 'fld_gone', type: 'text', label: 'Gone' },
    ]);
    const v2 = schema([
      { id: 'fld_intro', type: 'statement', label: 'Intro' },
      { id: 'fld_b', type: 'number', label: 'B' },
      { id: 'fld_a', type: 'text', label: 'A' },
      { id: 'fld_pay', type: 'payment', label: 'Fee' },
    ]);
    const layout = workbookLayout([
      { version: 1, schema: v1 },
      { version: 2, schema: v2 },
    ]);
    expect(layout).toEqual(
      workbookLayout([
        { version: 2, schema: v2 },
        { version: 1, schema: v1 },
      ]),
    );
    expect(headerRow(layout)).toEqual([
      'Submission ID',
      'Submitted at',
      'Status',
      'B',
      'A',
      'Gone',
      'Fee (amount, minor units)',
      'Fee (currency)',
      'Fee (payment status)',
    ]);
    expect(
      submissionRow(layout, {
        id: 'sbm_1',
        created_at: new Date('2026-11-01T10:00:00Z'),
        status: 'completed',
        answers: [
          { fieldId: 'fld_b', value: -3, text: '-3' },
          { fieldId: 'fld_gone', value: '=cmd', text: '=cmd' },
        ],
        payments: [{ fieldId: 'fld_pay', amount: 1250, currency: 'EUR', status: 'unpaid' }],
      }),
    ).toEqual(['sbm_1', '2026-11-01T10:00:00.000Z', 'completed', -3, null, "'=cmd", 1250, 'EUR', 'unpaid']);
  });
});
