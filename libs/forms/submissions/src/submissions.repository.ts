import { Injectable } from '@nestjs/common';
import type { PoolClient, QueryConfig } from 'pg';
import { FormsErrors } from '@forms/contracts';
import { FormsPrisma, FormsSql } from '@forms/data-access';
import { recordedPayment, type PaymentRow } from '@forms/payments';
import type { WorkspaceId } from '@shared/core';
import type { SubmissionRecord } from './submission-record';
import { submissionCreatedOutbox } from '@forms/webhooks';

export interface NewSubmission {
  id: string;
  formId: string;
  publishedVersion: number;
  dedupeKey: string | null;
  record: SubmissionRecord;
  createdAt: Date;
  /** Uploads the answers refer to: marked attached when the submission is stored, so the clean-up keeps them. */
  uploadIds: string[];
  /** Payment orders the record names: attached to this submission in the same transaction, each to one submission only. */
  paymentIds?: string[];
}

/** Counter rows per form: enough that concurrent submitters rarely wait on the same row. */
const RESPONSE_COUNT_SHARDS = 16;

/**
 * The form row decides, inside the statement, whether the submission is taken: a cached snapshot that missed a close
 * or a delete (a lost invalidation message on this replica) cannot let one through. Only a form of the workspace
 * counts, and the uploads and the counter are reached through the stored submission, so through that form.
 */
const INSERT_SUBMISSION = `
  WITH form AS (
    SELECT id, status FROM forms WHERE id = $2 AND workspace_id = $9
  ), ins AS (
    INSERT INTO form_submissions (id, form_id, published_version, dedupe_key, record, created_at)
    SELECT $1, form.id, $3, $4, $5::json, $6 FROM form WHERE form.status = 'published'
    ON CONFLICT (form_id, dedupe_key) DO NOTHING
    RETURNING form_id
  ), attached AS (
    UPDATE form_uploads SET attached_at = $6
    WHERE form_id IN (SELECT form_id FROM ins) AND id = ANY($8::text[]) AND attached_at IS NULL
    RETURNING 1
  ), counted AS (
    INSERT INTO form_response_counts (form_id, shard, count) SELECT form_id, $7, 1 FROM ins
    ON CONFLICT (form_id, shard) DO UPDATE SET count = form_response_counts.count + 1
    RETURNING 1
  ), outboxed AS (
    ${submissionCreatedOutbox({ record: '$5::json', workspaceId: '$9', createdAt: '$6', inserted: 'ins' })}
  )
  SELECT (SELECT status::text FROM form) AS status, (SELECT count(*)::int FROM ins) AS inserted`;

const INSERT_UPLOAD = `
  INSERT INTO form_uploads (id, form_id, file_name, mime_type, size, storage_key, sha256)
  SELECT $1, id, $3, $4, $5, $6, $7 FROM forms WHERE id = $2 AND workspace_id = $8 AND status = 'published'
  RETURNING id`;

export interface NewUpload {
  id: string;
  formId: string;
  fileName: string;
  mimeType: string;
  size: number;
  storageKey: string;
  sha256: string;
}

/** What became of a submission insert: stored, a repeat of the dedupe key, or refused by the form's current state. */
export type InsertOutcome = 'stored' | 'duplicate' | 'form_not_accepting' | 'form_gone';

interface InsertRow {
  status: string | null;
  inserted: number;
}

/** Undoes the payment claims of a submission that was not stored. */
class NotStored extends Error {
  constructor(readonly outcome: InsertOutcome) {
    super(outcome);
  }
}

const PAYMENT_COLUMNS = `id, form_id, field_id, provider, provider_order_id, provider_payment_id, amount, currency, status, failure_reason,
  submission_id, paid_at`;

/**
 * Submissions, uploads and response counters, reached only through their form's workspace (`form_id` is joined to a
 * form of the workspace in every statement). The only place this domain talks to the database.
 */
@Injectable()
export class SubmissionsRepository {
  constructor(
    private readonly prisma: FormsPrisma,
    private readonly sql: FormsSql,
  ) {}

  /**
   * Stores the submission and counts it (on one of the form's counter rows) in one statement, prepared once per
   * connection. Nothing is written unless the form is published now and the dedupe key is unused for it.
   */
  async insert(workspaceId: WorkspaceId, row: NewSubmission): Promise<InsertOutcome> {
    if (!row.paymentIds?.length) return this.insertWith((statement) => this.sql.query<InsertRow>(statement), workspaceId, row);
    return this.sql
      .transaction(async (client) => {
        await this.claimPayments(client, row);
        const outcome = await this.insertWith(async (statement) => (await client.query<InsertRow>(statement)).rows, workspaceId, row);
        if (outcome !== 'stored') throw new NotStored(outcome);
        return outcome;
      })
      .catch((error: unknown) => {
        if (error instanceof NotStored) return error.outcome;
        throw error;
      });
  }

  /**
   * Attaches the payment orders to the submission (only orders of its form on no other submission), and writes each
   * one's entry in the record from the row as locked here, so a webhook settling it meanwhile is not lost.
   */
  private async claimPayments(client: PoolClient, row: NewSubmission): Promise<void> {
    const { rows } = await client.query<PaymentRow>({
      text: `UPDATE form_payments SET submission_id = $1, updated_at = $4
             WHERE id = ANY($2::text[]) AND form_id = $3 AND submission_id IS NULL
             RETURNING ${PAYMENT_COLUMNS}`,
      values: [row.id, row.paymentIds, row.formId, row.createdAt],
    });
    if (rows.length !== row.paymentIds?.length) {
      throw FormsErrors.fail('payment_already_used', 'A payment sent with these answers is already recorded on another submission.');
    }
    const claimed = new Map(rows.map((payment) => [payment.id, payment]));
    row.record.submission.payments = row.record.submission.payments.map((entry) => {
      const payment = entry.paymentRef ? claimed.get(entry.paymentRef) : undefined;
      return payment ? recordedPayment(payment) : entry;
    });
  }

  private async insertWith(query: (statement: QueryConfig) => Promise<InsertRow[]>, workspaceId: WorkspaceId, row: NewSubmission): Promise<InsertOutcome> {
    const shard = Math.floor(Math.random() * RESPONSE_COUNT_SHARDS);
    const statement = {
      name: 'insert_form_submission',
      text: INSERT_SUBMISSION,
      values: [row.id, row.formId, row.publishedVersion, row.dedupeKey, JSON.stringify(row.record), row.createdAt, shard, row.uploadIds, workspaceId],
    };
    const [{ status, inserted }] = await query(statement);
    if (status === null) return 'form_gone';
    if (status !== 'published') return 'form_not_accepting';
    return inserted === 1 ? 'stored' : 'duplicate';
  }

  /** The payment orders of a form by id (for a submission naming them). */
  async paymentsOf(workspaceId: WorkspaceId, formId: string, ids: string[]): Promise<Map<string, PaymentRow>> {
    if (!ids.length) return new Map();
    const rows = await this.sql.query<PaymentRow>({
      text: `SELECT ${PAYMENT_COLUMNS.replace(/(\w+)/g, 'p.$1')} FROM form_payments p JOIN forms f ON f.id = p.form_id
             WHERE p.id = ANY($1::text[]) AND p.form_id = $2 AND f.workspace_id = $3`,
      values: [ids, formId, workspaceId],
    });
    return new Map(rows.map((row) => [row.id, row]));
  }

  async list(workspaceId: WorkspaceId, formId: string, after: Date | undefined, limit: number): Promise<SubmissionRecord[]> {
    const rows = await this.prisma.formSubmission.findMany({
      where: { form_id: formId, form: { workspace_id: workspaceId }, ...(after ? { created_at: { gt: after } } : {}) },
      orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
      take: limit,
      select: { record: true },
    });
    return rows.map((row) => row.record as unknown as SubmissionRecord);
  }

  async get(workspaceId: WorkspaceId, formId: string, submissionId: string): Promise<SubmissionRecord | null> {
    const row = await this.prisma.formSubmission.findFirst({
      where: { id: submissionId, form_id: formId, form: { workspace_id: workspaceId } },
      select: { record: true },
    });
    return (row?.record as unknown as SubmissionRecord) ?? null;
  }

  /** Records a stored file, only while the form is published; false when it is not (nothing is written then). */
  async createUpload(workspaceId: WorkspaceId, upload: NewUpload): Promise<boolean> {
    const rows = await this.sql.query({
      name: 'insert_form_upload',
      text: INSERT_UPLOAD,
      values: [upload.id, upload.formId, upload.fileName, upload.mimeType, upload.size, upload.storageKey, upload.sha256, workspaceId],
    });
    return rows.length === 1;
  }

  findUpload(workspaceId: WorkspaceId, formId: string, uploadId: string) {
    return this.prisma.formUpload.findFirst({ where: { id: uploadId, form_id: formId, form: { workspace_id: workspaceId } } });
  }

  /**
   * Deletes up to `limit` uploads no submission refers to that were made before `before`, and returns where their
   * files are (null for the older uploads kept in the database).
   */
  // Across every workspace: the clean-up job expires uploads by age alone, on behalf of no tenant.
  async deleteUnattachedUploadsOfAllWorkspaces(before: Date, limit: number): Promise<Array<string | null>> {
    const rows = await this.sql.query<{ storage_key: string | null }>({
      name: 'delete_unattached_uploads',
      text: `DELETE FROM form_uploads WHERE id IN (
               SELECT id FROM form_uploads WHERE attached_at IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED
             ) AND attached_at IS NULL
             RETURNING storage_key`,
      values: [before, limit],
    });
    return rows.map((row) => row.storage_key);
  }

  /** Which of these form ids still exist. */
  // Across every workspace: the clean-up job checks stored files, which are kept by form id alone, on behalf of no tenant.
  async existingFormIdsOfAllWorkspaces(ids: string[]): Promise<Set<string>> {
    const rows = await this.prisma.form.findMany({ where: { id: { in: ids } }, select: { id: true } });
    return new Set(rows.map((row) => row.id));
  }

  /** The stored facts about uploads of a form (never their bytes), by id. */
  async uploadsOf(
    workspaceId: WorkspaceId,
    formId: string,
    ids: string[],
  ): Promise<Map<string, { id: string; file_name: string; mime_type: string; size: number }>> {
    if (!ids.length) return new Map();
    const rows = await this.prisma.formUpload.findMany({
      where: { form_id: formId, form: { workspace_id: workspaceId }, id: { in: ids } },
      select: { id: true, file_name: true, mime_type: true, size: true },
    });
    return new Map(rows.map((row) => [row.id, row]));
  }
}
