import type { DraftSchema } from '@forms/draft-schema';
import { spreadsheetSafeText } from '@shared/core';

/** The metadata columns every export starts with. */
export const METADATA_HEADERS = ['Submission ID', 'Submitted at', 'Status'] as const;

export interface FieldColumn {
  fieldId: string;
  label: string;
}

/** The answer and payment columns of an export, from the published versions its submissions were validated against. */
export interface WorkbookLayout {
  fields: FieldColumn[];
  payments: FieldColumn[];
}

/** One stored submission as the export reads it (the parts of its record it needs). */
export interface ExportedSubmission {
  id: string;
  created_at: Date;
  status: string;
  answers: { fieldId: string; value: unknown; text: string }[] | null;
  payments: { fieldId: string; amount: number; currency: string; status: string }[] | null;
}

/**
 * One column per answerable field of the versions (a payment field gets three payment columns instead). Several
 * versions give the union of their fields: the newest version's fields in form order, then fields only older versions
 * had (newest version first), each labelled as in the newest version that has it. The same versions always give the
 * same columns.
 */
export function workbookLayout(versions: { version: number; schema: DraftSchema }[]): WorkbookLayout {
  const fields = new Map<string, FieldColumn>();
  const payments = new Map<string, FieldColumn>();
  for (const { schema } of [...versions].sort((a, b) => b.version - a.version)) {
    for (const field of schema.steps.flatMap((step) => step.fields)) {
      if (field.type === 'statement' || fields.has(field.id) || payments.has(field.id)) continue;
      (field.type === 'payment' ? payments : fields).set(field.id, { fieldId: field.id, label: field.label });
    }
  }
  return { fields: [...fields.values()], payments: [...payments.values()] };
}

export function headerRow(layout: WorkbookLayout): string[] {
  return [
    ...METADATA_HEADERS,
    ...layout.fields.map((column) => spreadsheetSafeText(column.label)),
    ...layout.payments.flatMap((column) =>
      [`${column.label} (amount, minor units)`, `${column.label} (currency)`, `${column.label} (payment status)`].map(spreadsheetSafeText),
    ),
  ];
}

/** A submission's cells in header order: numeric answers as numbers, everything else as neutralised text. */
export function submissionRow(layout: WorkbookLayout, submission: ExportedSubmission): Array<string | number | null> {
  const answers = new Map((submission.answers ?? []).map((answer) => [answer.fieldId, answer]));
  const payments = new Map((submission.payments ?? []).map((payment) => [payment.fieldId, payment]));
  return [
    submission.id,
    submission.created_at.toISOString(),
    spreadsheetSafeText(submission.status),
    ...layout.fields.map(({ fieldId }) => {
      const answer = answers.get(fieldId);
      if (!answer) return null;
      return typeof answer.value === 'number' ? answer.value : spreadsheetSafeText(answer.text);
    }),
    ...layout.payments.flatMap(({ fieldId }) => {
      const payment = payments.get(fieldId);
      return payment ? [payment.amount, spreadsheetSafeText(payment.currency), spreadsheetSafeText(payment.status)] : [null, null, null];
    }),
  ];
}
