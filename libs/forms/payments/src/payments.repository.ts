import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { FormsSql } from '@forms/data-access';
import type { WorkspaceId } from '@shared/core';
import type { PaymentProviderName } from './providers/payment-provider';
import { recordedPayment, type PaymentRow, type RecordedPayment } from './recorded-payment';

export interface IntegrationRow {
  workspace_id: string;
  provider: PaymentProviderName;
  public_key: string;
  secrets: string;
  has_webhook_secret: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface NewPayment {
  id: string;
  formId: string;
  fieldId: string;
  provider: PaymentProviderName;
  orderId: string;
  amount: number;
  currency: string;
  createdAt: Date;
}

const PAYMENT_COLUMNS = `p.id, p.form_id, p.field_id, p.provider, p.provider_order_id, p.provider_payment_id, p.amount, p.currency, p.status,
  p.failure_reason, p.submission_id, p.paid_at`;

/**
 * Payment integrations, payment orders and processed webhook events. Orders are reached through their form's
 * workspace in every statement; so is the submission record a reconciled payment updates.
 */
@Injectable()
export class PaymentsRepository {
  constructor(private readonly sql: FormsSql) {}

  async workspacePlan(workspaceId: WorkspaceId): Promise<string | null> {
    const [row] = await this.sql.query<{ plan: string }>({ text: 'SELECT plan::text AS plan FROM workspaces WHERE id = $1', values: [workspaceId] });
    return row?.plan ?? null;
  }

  async integration(workspaceId: WorkspaceId, provider: PaymentProviderName): Promise<IntegrationRow | null> {
    const [row] = await this.sql.query<IntegrationRow>({
      text: 'SELECT * FROM payment_integrations WHERE workspace_id = $1 AND provider = $2',
      values: [workspaceId, provider],
    });
    return row ?? null;
  }

  async saveIntegration(
    workspaceId: WorkspaceId,
    provider: PaymentProviderName,
    values: { publicKey: string; secrets: string; hasWebhookSecret: boolean; at: Date },
  ): Promise<IntegrationRow> {
    const [row] = await this.sql.query<IntegrationRow>({
      text: `INSERT INTO payment_integrations (workspace_id, provider, public_key, secrets, has_webhook_secret, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $6)
             ON CONFLICT (workspace_id, provider) DO UPDATE
               SET public_key = $3, secrets = $4, has_webhook_secret = $5, updated_at = $6
             RETURNING *`,
      values: [workspaceId, provider, values.publicKey, values.secrets, values.hasWebhookSecret, values.at],
    });
    return row;
  }

  async deleteIntegration(workspaceId: WorkspaceId, provider: PaymentProviderName): Promise<boolean> {
    const rows = await this.sql.query({
      text: 'DELETE FROM payment_integrations WHERE workspace_id = $1 AND provider = $2 RETURNING provider',
      values: [workspaceId, provider],
    });
    return rows.length === 1;
  }

  /** Stores an order made for a form of the workspace; false when the form is not (or no longer) there. */
  async insertPayment(workspaceId: WorkspaceId, payment: NewPayment): Promise<boolean> {
    const rows = await this.sql.query({
      text: `INSERT INTO form_payments (id, form_id, field_id, provider, provider_order_id, amount, currency, created_at, updated_at)
             SELECT $1, id, $3, $4, $5, $6, $7, $8, $8 FROM forms WHERE id = $2 AND workspace_id = $9
             RETURNING id`,
      values: [
        payment.id,
        payment.formId,
        payment.fieldId,
        payment.provider,
        payment.orderId,
        payment.amount,
        payment.currency,
        payment.createdAt,
        workspaceId,
      ],
    });
    return rows.length === 1;
  }

  async payment(workspaceId: WorkspaceId, formId: string, paymentId: string): Promise<PaymentRow | null> {
    const [row] = await this.sql.query<PaymentRow>({
      text: `SELECT ${PAYMENT_COLUMNS} FROM form_payments p JOIN forms f ON f.id = p.form_id
             WHERE p.id = $1 AND p.form_id = $2 AND f.workspace_id = $3`,
      values: [paymentId, formId, workspaceId],
    });
    return row ?? null;
  }

  /**
   * Applies a provider's verdict on an order, once: `paid` wins over anything but paid, `failed` only replaces
   * `created` (a failed attempt after a success, or a late failure notice, changes nothing). When the order is on a
   * submission already, the submission record's payment entry follows. Returns the row as it now is, null when the
   * workspace has no such order.
   */
  async settle(
    workspaceId: WorkspaceId,
    provider: PaymentProviderName,
    orderId: string,
    verdict: { status: 'paid'; paymentId: string | null; at: Date } | { status: 'failed'; reason: string | null; at: Date },
    client?: PoolClient,
  ): Promise<PaymentRow | null> {
    const work = async (db: PoolClient) => {
      const update =
        verdict.status === 'paid'
          ? {
              text: `UPDATE form_payments p SET status = 'paid', provider_payment_id = COALESCE($4, p.provider_payment_id), paid_at = $5,
                       failure_reason = NULL, updated_at = $5
                     FROM forms f WHERE f.id = p.form_id AND f.workspace_id = $1 AND p.provider = $2 AND p.provider_order_id = $3
                       AND p.status <> 'paid'
                     RETURNING ${PAYMENT_COLUMNS}`,
              values: [workspaceId, provider, orderId, verdict.paymentId, verdict.at],
            }
          : {
              text: `UPDATE form_payments p SET status = 'failed', failure_reason = $4, updated_at = $5
                     FROM forms f WHERE f.id = p.form_id AND f.workspace_id = $1 AND p.provider = $2 AND p.provider_order_id = $3
                       AND p.status = 'created'
                     RETURNING ${PAYMENT_COLUMNS}`,
              values: [workspaceId, provider, orderId, verdict.reason, verdict.at],
            };
      const { rows } = await db.query<PaymentRow>(update);
      const changed = rows[0];
      if (changed?.submission_id) await this.updateRecordedPayment(db, workspaceId, changed.submission_id, recordedPayment(changed));
      if (changed) return changed;
      const found = await db.query<PaymentRow>({
        text: `SELECT ${PAYMENT_COLUMNS} FROM form_payments p JOIN forms f ON f.id = p.form_id
               WHERE f.workspace_id = $1 AND p.provider = $2 AND p.provider_order_id = $3`,
        values: [workspaceId, provider, orderId],
      });
      return found.rows[0] ?? null;
    };
    return client ? work(client) : this.sql.transaction(work);
  }

  /**
   * Records a webhook event id and, only the first time, runs `apply` in the same transaction: a replayed event, or
   * one delivered twice at once, has no second effect. Returns whether this delivery was the first.
   */
  async onceForEvent(
    event: { provider: PaymentProviderName; eventId: string; type: string; workspaceId: WorkspaceId; at: Date },
    apply: (client: PoolClient) => Promise<void>,
  ): Promise<boolean> {
    return this.sql.transaction(async (client) => {
      const inserted = await client.query({
        text: `INSERT INTO payment_webhook_events (provider, event_id, workspace_id, event_type, received_at) VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
        values: [event.provider, event.eventId, event.workspaceId, event.type, event.at],
      });
      if (inserted.rowCount !== 1) return false;
      await apply(client);
      return true;
    });
  }

  /** Deletes up to `limit` webhook event records received before `before`; returns how many went. */
  // Across every workspace: the prune job expires event records by age alone, on behalf of no tenant.
  async deleteWebhookEventsOfAllWorkspaces(before: Date, limit: number): Promise<number> {
    const rows = await this.sql.query<{ event_id: string }>({
      name: 'delete_old_payment_webhook_events',
      text: `DELETE FROM payment_webhook_events WHERE (provider, event_id) IN (
               SELECT provider, event_id FROM payment_webhook_events WHERE received_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED
             )
             RETURNING event_id`,
      values: [before, limit],
    });
    return rows.length;
  }

  /** Replaces the submission record's entry for this payment (matched by our payment id), under the row lock. */
  private async updateRecordedPayment(client: PoolClient, workspaceId: WorkspaceId, submissionId: string, payment: RecordedPayment): Promise<void> {
    const { rows } = await client.query<{ record: { submission: { payments?: RecordedPayment[] } } }>({
      text: `SELECT s.record FROM form_submissions s JOIN forms f ON f.id = s.form_id WHERE s.id = $1 AND f.workspace_id = $2 FOR UPDATE OF s`,
      values: [submissionId, workspaceId],
    });
    const record = rows[0]?.record;
    if (!record) return;
    record.submission.payments = (record.submission.payments ?? []).map((entry) => (entry.paymentRef === payment.paymentRef ? payment : entry));
    await client.query({ text: 'UPDATE form_submissions SET record = $2::json WHERE id = $1', values: [submissionId, JSON.stringify(record)] });
  }
}
