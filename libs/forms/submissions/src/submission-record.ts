import type { AnswerValue, FieldType, ThankYouScreen } from '@forms/draft-schema';
import type { RecordedPayment } from '@forms/payments';

/** The stored submission record, shaped like the event a webhook would carry. Inner keys are camelCase like `eventId`. */
export interface SubmissionRecord {
  event: 'form.submitted';
  eventId: string;
  form: { id: string; workspaceId: string; title: string; publicId: string; publishedVersion: number };
  submission: {
    id: string;
    createdAt: string;
    status: 'completed';
    /** The steps the respondent passed through, recomputed on the server from the answers and the workflow. */
    completedStepIds: string[];
    thankYouScreenId: string;
    redirectTo: string | null;
    variables: Record<string, number | string | null>;
    quiz: { endingId: string | null; score: number } | null;
    /** Each payment field on the path: amount due, and the payment made for it (see RecordedPayment). */
    payments: RecordedPayment[];
  };
  /** Answered fields in form order. */
  answers: { fieldId: string; label: string; type: FieldType; value: AnswerValue; text: string }[];
  /** Every answerable field of the published version the submission was validated against. */
  fields: { id: string; stepId: string; label: string; type: FieldType; required: boolean }[];
  meta: {
    source: 'api' | 'hosted_form';
    analyticsSessionId: string | null;
    marketingTrackingAllowed: boolean | null;
    viewerCountry: string | null;
    /** What the client reported as completed; kept for diagnostics, never trusted. */
    clientCompletedStepIds: string[] | null;
    hiddenValues: Record<string, string | number>;
  };
  answersByFieldId: Record<string, AnswerValue>;
}

export interface SubmissionResult {
  submission: SubmissionRecord['submission'] & { formId: string };
  thank_you: ThankYouScreen;
  redirect_to?: string;
}
