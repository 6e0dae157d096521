import { useTestDatabase } from '@shared/testing';
import { submissionCreatedOutbox } from './submission-event';

describe('the form.submission.created outbox statement', () => {
  const db = useTestDatabase('forms');

  beforeAll(async () => {
    await db.client.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ('wrk_1', 'Hooks', now())`);
  });

  const record = {
    event: 'form.submitted',
    eventId: 'evt_01',
    form: { id: 'frm_1', workspaceId: 'wrk_1', title: 'Order', publicId: 'pub_1', publishedVersion: 3 },
    submission: {
      id: 'sbm_1',
      createdAt: '2026-11-24T10:00:00.000Z',
      payments: [{ fieldId: 'fld_pay', amount: 500, currency: 'INR', status: 'paid', providerPaymentId: 'pay_x', signature: 'sig_secret' }],
    },
    answers: [
      { fieldId: 'fld_name', type: 'text', label: 'Name', value: 'Ada', text: 'Ada' },
      { fieldId: 'fld_pay', type: 'payment', label: 'Pay', value: { razorpay_signature: 'sig_secret' }, text: '' },
      { fieldId: 'fld_tags', type: 'multiple_choice', label: 'Tags', value: ['a', 'b'], text: 'a, b' },
      { fieldId: 'fld_seats', type: 'number', label: 'Seats', value: 4, text: '4' },
    ],
    meta: { analyticsSessionId: 'ses_1', hiddenValues: { utm: 'x' } },
  };

  /** Runs the statement as the submission insert does: a CTE fed by the inserted row (or by none). */
  async function write(inserted: boolean) {
    const outbox = submissionCreatedOutbox({ record: '$1::json', workspaceId: '$2', createdAt: '$3', inserted: 'ins' });
    await db.client.query(`WITH ins AS (SELECT 1 WHERE $4::boolean), outboxed AS (${outbox}) SELECT count(*) FROM outboxed`, [
      JSON.stringify(record),
      'wrk_1',
      new Date(record.submission.createdAt),
      inserted,
    ]);
    return (await db.client.query(`SELECT id, workspace_id, type, payload, created_at FROM outbox_events`)).rows;
  }

  it('writes nothing when the insert took no row', async () => {
    expect(await write(false)).toEqual([]);
  });

  it('writes the ids, the published version and the answers by field id, and never payments or the rest of the record', async () => {
    const [row] = await write(true);
    expect(row).toEqual({
      id: 'evt_01',
      workspace_id: 'wrk_1',
      type: 'form.submission.created',
      created_at: new Date('2026-11-24T10:00:00.000Z'),
      payload: {
        submission: {
          id: 'sbm_1',
          form_id: 'frm_1',
          published_version: 3,
          created_at: '2026-11-24T10:00:00.000Z',
          answers: { fld_name: 'Ada', fld_tags: ['a', 'b'], fld_seats: 4 },
        },
      },
    });
    const text = JSON.stringify(row.payload);
    for (const hidden of ['sig_secret', 'pay_x', 'payment', 'fld_pay', 'ses_1', 'Order', 'label', 'utm']) expect(text).not.toContain(hidden);
  });
});
