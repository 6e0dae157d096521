import { Inject, Injectable } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import { AnswerValue, answerToText, coerceAnswer, DraftSchema, Field, HiddenField, UploadedFile } from '@forms/draft-schema';
import { PublishedForm, PublishedForms } from '@forms/forms';
import { currencyMinorDigits, PaymentDue, recordedPayment, RecordedPayment } from '@forms/payments';
import { missingRequired, paymentAmount, walk, WalkResult } from '@forms/runtime';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, IdGenerator, WorkspaceContext } from '@shared/core';
import { readSubmissionInput, SubmissionInput } from './submission-input';
import { SubmissionRecord, SubmissionResult } from './submission-record';
import { SubmissionsRepository } from './submissions.repository';
import { uploadDownloadUrl } from './uploads.service';

export type SubmissionSource = 'api' | 'hosted_form';

interface Answered {
  answers: Record<string, AnswerValue>;
  hidden: Record<string, string | number>;
}

/** Validates submissions against a form's published snapshot and stores them. */
@Injectable()
export class SubmissionsService {
  constructor(
    private readonly repository: SubmissionsRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly published: PublishedForms,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async submit(form: PublishedForm, body: unknown, source: SubmissionSource): Promise<SubmissionResult> {
    const schema = acceptingSchema(form);
    const input = readSubmissionInput(body);
    const { answers, hidden } = this.readAnswers(schema, input);
    const path = walk(schema, answers, hidden);
    const missing = missingRequired(schema, path.visitedStepIds, answers);
    if (missing.length) {
      const issues = missing.map((fieldId) => ({ path: `${input.valuesPath}${fieldId}`, code: 'answer_required', message: 'This question needs an answer.' }));
      throw FormsErrors.fail('answer_required', `${issues[0].path}: an answer is required.`, {
        details: { field: issues[0].path, reason: 'answer_required' },
        extra: { issues },
      });
    }
    const uploadIds = await this.resolveUploads(form, answers, input.valuesPath);
    const payments = await this.resolvePayments(form, duePayments(schema, path, answers), input.payments);

    const visited = new Set(path.visitedStepIds);
    const fields = schema.steps.flatMap((step) => step.fields.map((field) => ({ step, field })));
    const kept = fields.filter(({ step, field }) => answers[field.id] !== undefined && (visited.has(step.id) || field.type === 'hidden'));
    const createdAt = this.clock.now();
    const record: SubmissionRecord = {
      event: 'form.submitted',
      eventId: this.ids.newId('evt'),
      form: { id: form.formId, workspaceId: form.workspaceId, title: form.title, publicId: form.publicId, publishedVersion: form.version },
      submission: {
        id: this.ids.newId('sbm'),
        createdAt: createdAt.toISOString(),
        status: 'completed',
        completedStepIds: path.visitedStepIds,
        thankYouScreenId: path.endingScreen.id,
        redirectTo: path.redirectTo,
        variables: path.variables,
        quiz: path.quiz,
        payments,
      },
      answers: kept.map(({ field }) => ({
        fieldId: field.id,
        label: field.label,
        type: field.type,
        value: answers[field.id],
        text: answerToText(field, answers[field.id]),
      })),
      fields: fields
        .filter(({ field }) => field.type !== 'statement')
        .map(({ step, field }) => ({ id: field.id, stepId: step.id, label: field.label, type: field.type, required: field.required })),
      meta: {
        source,
        analyticsSessionId: input.analyticsSessionId,
        marketingTrackingAllowed: input.marketingTrackingAllowed,
        viewerCountry: input.viewerCountry,
        clientCompletedStepIds: input.completedStepIds,
        hiddenValues: hidden,
      },
      answersByFieldId: Object.fromEntries(kept.map(({ field }) => [field.id, answers[field.id]])),
    };
    const outcome = await this.repository.insert(form.workspaceId, {
      id: record.submission.id,
      formId: form.formId,
      publishedVersion: form.version,
      dedupeKey: input.analyticsSessionId,
      record,
      createdAt,
      uploadIds,
      paymentIds: payments.flatMap((payment) => (payment.paymentRef ? [payment.paymentRef] : [])),
    });
    if (outcome === 'duplicate') {
      throw FormsErrors.fail('duplicate_submission', 'A submission for this analytics session was already recorded for this form.', {
        details: { field: 'analyticsSessionId' },
      });
    }
    if (outcome !== 'stored') {
      // Our cached snapshot is stale (an invalidation was missed): drop it everywhere, then answer as the database says.
      await this.published.invalidate(form.publicId);
      if (outcome === 'form_gone') throw FormsErrors.notFound('form', form.publicId);
      throw formClosed();
    }
    return {
      submission: { ...record.submission, formId: form.formId },
      thank_you: path.endingScreen,
      ...(path.redirectTo ? { redirect_to: path.redirectTo } : {}),
    };
  }

  /** The payment fields on the path these answers take, with the amount each is due (what the order endpoint charges). */
  paymentsDue(form: PublishedForm, body: unknown): PaymentDue[] {
    const schema = acceptingSchema(form);
    const { answers, hidden } = this.readAnswers(schema, readSubmissionInput(body));
    return duePayments(schema, walk(schema, answers, hidden), answers);
  }

  /**
   * Each due payment's entry in the record. A payment sent must be an order of this form for that field, on no other
   * submission, for exactly the amount and currency due now; a required payment field needs it paid (verified by the
   * checkout or the provider's webhook), an optional one may be pending (reconciled later by the webhook) or absent.
   */
  private async resolvePayments(form: PublishedForm, dues: PaymentDue[], sent: Record<string, string>): Promise<RecordedPayment[]> {
    const dueFields = new Set(dues.map((due) => due.field.id));
    const stray = Object.keys(sent).find((fieldId) => !dueFields.has(fieldId));
    if (stray) throw FormsErrors.invalid('unknown_field', `payments.${stray} is not a payment field due on this path.`, `payments.${stray}`);
    const rows = await this.repository.paymentsOf(form.workspaceId, form.formId, Object.values(sent));
    return dues.map(({ field, amount, currency }) => {
      const path = `payments.${field.id}`;
      const ref = sent[field.id];
      const row = ref === undefined ? undefined : rows.get(ref);
      if (amount === 0) return { fieldId: field.id, amount, currency, status: 'unpaid' };
      if (ref !== undefined && (!row || row.field_id !== field.id)) {
        throw FormsErrors.fail('payment_not_found', `${path}: no payment order with this id was made for this field.`, { details: { field: path } });
      }
      if (row?.submission_id)
        throw FormsErrors.fail('payment_already_used', `${path}: this payment is already recorded on another submission.`, { details: { field: path } });
      if (row && (row.amount !== amount || row.currency !== currency)) {
        throw FormsErrors.fail('payment_amount_mismatch', `${path}: the payment was for another amount than the answers now lead to; pay again.`, {
          details: { field: path },
        });
      }
      if (field.required && row?.status !== 'paid') {
        throw FormsErrors.fail('payment_required', `${path}: this payment is required and has not been completed.`, { details: { field: path } });
      }
      return row ? recordedPayment(row) : { fieldId: field.id, amount, currency, status: 'unpaid' };
    });
  }

  list(workspace: WorkspaceContext, formId: string, query: { after?: Date; limit: number }): Promise<SubmissionRecord[]> {
    return this.repository.list(workspace.workspaceId, formId, query.after, query.limit);
  }

  get(workspace: WorkspaceContext, formId: string, submissionId: string): Promise<SubmissionRecord | null> {
    return this.repository.get(workspace.workspaceId, formId, submissionId);
  }

  /** Coerces every answer; hidden fields may be sent in `hiddenValues` by name or among the values by id. */
  private readAnswers(schema: DraftSchema, input: SubmissionInput): Answered {
    const fields = new Map<string, Field>(schema.steps.flatMap((step) => step.fields.map((field) => [field.id, field] as const)));
    const hiddenByName = new Map<string, HiddenField>();
    for (const field of fields.values()) if (field.type === 'hidden') hiddenByName.set(field.name, field);

    const answers: Record<string, AnswerValue> = {};
    const hidden: Record<string, string | number> = {};
    const accept = (field: Field, raw: unknown, path: string) => {
      const result = coerceAnswer(field, raw);
      if (!result.ok) throw FormsErrors.fail(result.code, `${path}: ${result.message}`, { details: { field: path, reason: result.code } });
      if (result.value === undefined) return;
      answers[field.id] = result.value;
      if (field.type === 'hidden') hidden[field.name] = result.value as string | number;
    };
    for (const [key, raw] of Object.entries(input.values)) {
      const field = fields.get(key);
      if (!field) throw FormsErrors.invalid('unknown_field', `${input.valuesPath}${key} is not a field of the published form.`, `${input.valuesPath}${key}`);
      accept(field, raw, `${input.valuesPath}${key}`);
    }
    for (const [name, raw] of Object.entries(input.hiddenValues)) {
      const field = hiddenByName.get(name);
      if (!field)
        throw FormsErrors.invalid('unknown_hidden_value', `hiddenValues.${name} is not a hidden field of the published form.`, `hiddenValues.${name}`);
      accept(field, raw, `hiddenValues.${name}`);
    }
    return { answers, hidden };
  }

  /**
   * A file answer must point at uploads made for this form. What the client says about each file is replaced by what
   * was stored (name, type, size, download URL), and the field's limits are checked again against those facts.
   * Returns the ids of the uploads referred to.
   */
  private async resolveUploads(form: PublishedForm, answers: Record<string, AnswerValue>, valuesPath: string): Promise<string[]> {
    const schema = form.schema as DraftSchema;
    const fileFields = schema.steps.flatMap((step) => step.fields).filter((field) => field.type === 'file_upload' && answers[field.id] !== undefined);
    const wanted = fileFields.flatMap((field) => (answers[field.id] as UploadedFile[]).map((file) => file.id));
    if (!wanted.length) return [];
    const stored = await this.repository.uploadsOf(form.workspaceId, form.formId, wanted);
    for (const field of fileFields) {
      const files = (answers[field.id] as UploadedFile[]).map((file, index) => {
        const upload = stored.get(file.id);
        if (!upload) {
          const path = `${valuesPath}${field.id}[${index}].id`;
          throw FormsErrors.invalid('unknown_upload', `${path} is not a file uploaded to this form.`, path);
        }
        return {
          id: upload.id,
          fileName: upload.file_name,
          mimeType: upload.mime_type,
          size: upload.size,
          url: uploadDownloadUrl(this.config, form.formId, upload.id),
        };
      });
      const checked = coerceAnswer(field, files);
      const path = `${valuesPath}${field.id}`;
      if (!checked.ok) throw FormsErrors.fail(checked.code, `${path}: ${checked.message}`, { details: { field: path, reason: checked.code } });
      answers[field.id] = files;
    }
    return wanted;
  }
}

/** The published snapshot, if the form takes submissions: 403 for a never-published or closed form. */
function acceptingSchema(form: PublishedForm): DraftSchema {
  if (!form.schema || form.status === 'draft') {
    throw FormsErrors.fail('form_not_published', 'This form is not published, so it does not accept submissions.');
  }
  if (form.status === 'closed') throw formClosed();
  return form.schema;
}

/** The payment fields on the walked path and their amounts in the currency's minor units. */
function duePayments(schema: DraftSchema, path: WalkResult, answers: Record<string, AnswerValue>): PaymentDue[] {
  const visited = new Set(path.visitedStepIds);
  return schema.steps.flatMap((step) =>
    visited.has(step.id)
      ? step.fields.flatMap((field) => {
          if (field.type !== 'payment') return [];
          const digits = currencyMinorDigits(field.currency);
          if (digits === null) {
            throw FormsErrors.fail(
              'unsupported_currency',
              `The payment field ${field.id} names ${field.currency}, which is no currency payments can be taken in.`,
            );
          }
          return [{ field, amount: paymentAmount(field, path.state, answers, digits), currency: field.currency }];
        })
      : [],
  );
}

const formClosed = () => FormsErrors.fail('form_closed', 'This form is closed and no longer accepts submissions.');
