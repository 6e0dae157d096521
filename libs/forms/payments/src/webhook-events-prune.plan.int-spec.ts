import type { FormsSql } from '@forms/data-access';
import { createTestDatabase, indexesPlannedFor, type RecordedStatement } from '@shared/testing';
import { PaymentsRepository } from './payments.repository';

describe('PaymentsRepository webhook events prune (real PostgreSQL plan)', () => {
  it('reads payment_webhook_events by the index on received_at', async () => {
    const statements: RecordedStatement[] = [];
    const recorder = { query: (statement: RecordedStatement) => statements.push(statement) && Promise.resolve([]) };
    await new PaymentsRepository(recorder as unknown as FormsSql).deleteWebhookEventsOfAllWorkspaces(new Date(Date.UTC(2026, 5, 1)), 500);

    const db = await createTestDatabase('forms');
    try {
      expect(statements).toHaveLength(1);
      expect(await indexesPlannedFor(db.url, statements[0])).toContain('payment_webhook_events_received_at_idx');
    } finally {
      await db.drop();
    }
  });
});
