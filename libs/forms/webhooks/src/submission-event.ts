/** The event types a forms webhook endpoint can receive. */
export const FORMS_WEBHOOK_EVENT_TYPES = ['form.submission.created'] as const;
export type FormsWebhookEventType = (typeof FORMS_WEBHOOK_EVENT_TYPES)[number];

/** The `data` of a `form.submission.created` event. */
export interface SubmissionCreatedData {
  submission: { id: string; form_id: string; published_version: number; created_at: string; answers: Record<string, unknown> };
}

/** Where the submission insert holds what the event is made from: SQL expressions of that statement. */
export interface SubmissionOutboxSources {
  /** The stored submission record (json): `eventId`, `form.id`, `form.publishedVersion`, `submission.id`, `.createdAt`, `answers`. */
  record: string;
  workspaceId: string;
  createdAt: string;
  /** The CTE the inserted submission comes from: one event per row it returns, none when the insert took nothing. */
  inserted: string;
}

/**
 * The statement that writes a stored submission's `form.submission.created` outbox event, for a CTE of the
 * submission insert itself (so the event commits with the submission, in the same round trip). The payload is ids,
 * the published version and the answers by field id; payment fields are left out entirely, so no payment detail
 * (provider ids, signatures) can ride along whatever a payment answer comes to hold, and nothing else of the record
 * (labels, analytics, hidden values) is sent.
 */
export function submissionCreatedOutbox(from: SubmissionOutboxSources): string {
  return `INSERT INTO outbox_events (id, workspace_id, type, payload, created_at)
    SELECT r->>'eventId', ${from.workspaceId}, 'form.submission.created',
      jsonb_build_object('submission', jsonb_build_object(
        'id', r->'submission'->'id', 'form_id', r->'form'->'id', 'published_version', r->'form'->'publishedVersion',
        'created_at', r->'submission'->'createdAt',
        'answers', (SELECT COALESCE(jsonb_object_agg(a->>'fieldId', a->'value'), '{}'::jsonb)
                    FROM jsonb_array_elements(r->'answers') a WHERE a->>'type' IS DISTINCT FROM 'payment'))),
      ${from.createdAt}
    FROM ${from.inserted}, (SELECT (${from.record})::jsonb AS r) record
    RETURNING 1`;
}
