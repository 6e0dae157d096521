import { defineErrorCodes, errorFactory, SHARED_ERROR_CODES } from '@shared/errors';

/** Every code the email service can return: the shared ones plus its own. docs/errors/email.md is generated from it. */
export const EMAIL_ERROR_CODES = defineErrorCodes({
  ...SHARED_ERROR_CODES,

  // Records a path names that the workspace does not have.
  workspace_not_found: { type: 'not_found', description: 'The workspace does not exist.' },
  api_key_not_found: { type: 'not_found', description: 'No active API key has this id; an already revoked key counts as not found.' },
  subscriber_not_found: { type: 'not_found', description: 'The workspace has no subscriber with this id.' },
  tag_not_found: { type: 'not_found', description: 'The workspace has no tag with this id.' },
  sequence_not_found: { type: 'not_found', description: 'The workspace has no sequence with this id.' },
  custom_field_not_found: { type: 'not_found', description: 'The workspace has no custom field with this id.' },
  sender_identity_not_found: { type: 'not_found', description: 'The workspace has no enabled sender identity with this id.' },
  segment_not_found: { type: 'not_found', description: 'The workspace has no segment with this id.' },
  email_delivery_connection_not_found: { type: 'not_found', description: 'The workspace has no email delivery connection with this id.' },
  email_delivery_connection_setup_session_not_found: {
    type: 'not_found',
    description: 'The workspace has no email delivery connection setup session with this id.',
  },
  broadcast_not_found: { type: 'not_found', description: 'The workspace has no broadcast with this id.' },
  subscriber_import_upload_not_found: {
    type: 'not_found',
    description: 'The workspace has no subscriber import upload with this id, or it expired (uploads and their files are kept for a day).',
  },
  subscriber_import_job_not_found: { type: 'not_found', description: 'The workspace has no subscriber import job with this id.' },
  subscriber_export_job_not_found: { type: 'not_found', description: 'The workspace has no subscriber export job with this id.' },

  // Request values the email rules refuse.
  empty_update: { type: 'invalid_request', description: 'An update named none of the fields it can change.' },
  invalid_email: { type: 'invalid_request', description: 'The email address has no usable domain.' },
  invalid_country: { type: 'invalid_request', description: 'The country is neither an ISO 3166 code nor an English country name.' },
  invalid_date: { type: 'invalid_request', description: 'The date is not a real calendar day written as YYYY-MM-DD.' },
  unknown_tag: { type: 'invalid_request', description: 'A tag id in the body does not belong to the workspace; `details.field` points at it.' },
  unknown_sequence: { type: 'invalid_request', description: 'A sequence id in the body does not belong to the workspace; `details.field` points at it.' },
  unknown_email_delivery_connection: {
    type: 'invalid_request',
    description: '`connection_id` does not name an email delivery connection of the workspace; `details.field` points at it.',
  },
  disabled_email_delivery_connection: {
    type: 'invalid_request',
    description: '`connection_id` names a disabled email delivery connection; enable it first or choose an enabled one.',
  },
  unknown_subscriber: { type: 'invalid_request', description: '`subscriber_id` does not name a subscriber of the workspace.' },
  scheduled_at_not_in_future: { type: 'invalid_request', description: '`scheduled_at` is not later than the server clock.' },
  unknown_custom_field: { type: 'invalid_request', description: 'A key of `custom_fields` is not a custom field of the workspace.' },
  invalid_custom_field_value: { type: 'invalid_request', description: "A custom field value does not fit the field's type or options." },
  consent_evidence_required: { type: 'invalid_request', description: 'Setting a subscriber who is not Active back to Active needs `consent_evidence`.' },
  invalid_audience_condition: {
    type: 'invalid_request',
    description:
      "An audience condition's operator does not apply to its field (or to its custom field's type), its value has the wrong shape, or its custom field is not the workspace's; the envelope's `condition_id` names the condition.",
  },
  segment_reference_cycle: {
    type: 'invalid_request',
    description:
      "A segment condition leads back to the segment being saved or previewed (`current_segment_id`), directly or through other segments; the envelope's `condition_id` names the condition.",
  },
  segment_nesting_too_deep: {
    type: 'invalid_request',
    description:
      "Segments nest more than five levels deep through segment conditions; the envelope's `condition_id` names the condition, or `details.field` the definition when a segment update would make a segment that uses it nest too deep.",
  },
  audience_definition_too_large: {
    type: 'invalid_request',
    description:
      "An audience definition has more than 1,000 conditions once the segments its segment conditions reach are expanded (each reference counts its segment's conditions again); the envelope's `condition_id` names the condition whose segments cross the bound, or `details.field` the definition when a segment update would push a segment that uses it over.",
  },
  invalid_import_mapping: {
    type: 'invalid_request',
    description:
      "A subscriber import's `mappings` names a column the upload does not have, maps two columns to one field, lacks the email column, or names a custom field the workspace does not have; `details.field` points at the mapping.",
  },
  import_upload_not_ready: {
    type: 'invalid_request',
    description: '`upload_id` names an upload whose file has not arrived yet (Pending) or that another import job already took (Queued).',
  },
  consent_collected_in_future: { type: 'invalid_request', description: '`consent_evidence.collected_at` is later than the server clock.' },

  // Writes that collide with stored data or a concurrent request.
  subscriber_exists: { type: 'conflict', description: 'A create-only upsert named an email the workspace already has.' },
  subscriber_email_taken: { type: 'conflict', description: 'Another subscriber of the workspace already has the new email.' },
  tag_name_taken: { type: 'conflict', description: 'Another tag of the workspace has this name (compared without case).' },
  tag_in_use: {
    type: 'conflict',
    description: "A segment or a broadcast that may still send has a condition on the tag, so it cannot be deleted; the envelope's `used_by` lists them.",
  },
  tag_deleted: { type: 'conflict', description: 'A tag named in `new_tags` was deleted while the request attached it; retrying creates it again.' },
  custom_field_label_taken: {
    type: 'conflict',
    description:
      "Another custom field of the workspace has a label that gives the same personalization token (labels compared by their letters and digits, without case), or the label gives the subscriber's own [Subscriber_Name] or [Subscriber_Email].",
  },
  custom_field_in_use: {
    type: 'conflict',
    description:
      "Subscribers hold values for the field, or a segment or a broadcast that may still send has a condition on it (the envelope's `used_by` lists them), so its type cannot change; and in the second case it cannot be deleted.",
  },
  segment_name_taken: { type: 'conflict', description: 'Another segment of the workspace has this name (compared without case).' },
  segment_in_use: {
    type: 'conflict',
    description: "Another segment, a broadcast, a sequence or an automation uses the segment, so it cannot be deleted; the envelope's `used_by` lists them.",
  },

  email_delivery_setup_connection_missing: {
    type: 'conflict',
    description:
      "The workspace has no enabled email delivery connection, so nothing that sends email can be created; the envelope's `prerequisite` says what to set up and `retry` when to try again.",
  },
  broadcast_not_editable: {
    type: 'conflict',
    description: 'Only a draft broadcast can be changed; unschedule a scheduled one first. A running, completed or failed broadcast cannot be changed.',
  },
  broadcast_not_deletable: { type: 'conflict', description: 'The broadcast started sending, so it cannot be deleted (draft, scheduled and failed ones can).' },
  broadcast_not_schedulable: { type: 'conflict', description: 'Only a draft or scheduled broadcast can be scheduled.' },
  broadcast_not_scheduled: { type: 'conflict', description: 'The broadcast is not scheduled, so there is no schedule to remove.' },
  broadcast_changed_since_preflight: {
    type: 'conflict',
    description:
      "The broadcast's content, audience definition or connection changed after the preflight that issued `preflight_proof`; run the preflight again and send with its new proof.",
  },
  // A send refused by a blocking check: the code is the first blocking issue's, and `blocking_issues` lists them all.
  broadcast_not_sendable: { type: 'conflict', description: 'The broadcast is no longer draft or scheduled (it is running or finished).' },
  broadcast_connection_unavailable: {
    type: 'conflict',
    description: "The broadcast's connection is not set, deleted, disabled, or incomplete (its credentials or settings cannot make a provider).",
  },
  broadcast_connection_unhealthy: {
    type: 'conflict',
    description: "The broadcast's provider could not be reached, or refused the connection's credentials, when it was checked.",
  },
  broadcast_provider_quota_unavailable: {
    type: 'conflict',
    description: "The connection's saved credentials cannot be read with this server's encryption keys, so its provider and quota cannot be checked.",
  },
  broadcast_provider_production_access_required: {
    type: 'conflict',
    description: 'The provider account may not send to everyone yet (sending paused or a sandbox); ask the provider for production access.',
  },
  broadcast_sender_unverified: { type: 'conflict', description: "The provider has not verified the connection's sending domain or address." },
  broadcast_no_recipients: { type: 'conflict', description: "No Active subscriber matches the broadcast's audience." },
  broadcast_audience_invalid: {
    type: 'conflict',
    description: "The broadcast's audience definition no longer compiles (a custom field, tag or segment it names was changed or deleted).",
  },
  broadcast_content_invalid: {
    type: 'conflict',
    description: 'A link or image URL in the content is malformed, or the message would lack its unsubscribe link or List-Unsubscribe header.',
  },
  broadcast_send_not_found: { type: 'not_found', description: 'The broadcast has never been sent, so it has no send to read or cancel.' },
  broadcast_cancel_finalization_started: {
    type: 'conflict',
    description: 'Every message of the send has already been handed to the provider, so nothing is left to cancel; read the progress.',
  },
  broadcast_cancel_already_finished: { type: 'conflict', description: 'The send already finished (sent, sent with errors or failed); read the progress.' },
  broadcast_cancel_concurrent_update: {
    type: 'conflict',
    description: 'Another change to the send (a pause, a resume or its finish) happened while the cancel was being saved; read the progress and decide again.',
  },

  setup_session_not_renewable: {
    type: 'conflict',
    description: 'The setup session already completed, so its link cannot be renewed; start a new session to change credentials again.',
  },
  email_delivery_connection_in_use: {
    type: 'conflict',
    description: "A scheduled or running send uses the connection, so it cannot be changed or deleted now; the envelope's `used_by` lists the sends.",
  },
  delivery_connection_incomplete: {
    type: 'conflict',
    description: "The connection's saved credentials are missing or cannot be opened with this server's encryption keys; replace them through a setup session.",
  },
  delivery_credentials_rejected: {
    type: 'invalid_request',
    description:
      "The provider refused the connection's credentials or settings; the message has its words and `details.reason` a stable code. Replace them through a setup session.",
  },
  delivery_test_refused: {
    type: 'invalid_request',
    description:
      'The provider refused the test email for good (e.g. the recipient or the sender address); the message has its words and `details.reason` a stable code.',
  },
  delivery_provider_unavailable: {
    type: 'api_error',
    status: 503,
    description: 'The provider could not be reached or answered with a temporary error; retry after `Retry-After` seconds.',
  },
  delivery_outcome_unknown: {
    type: 'api_error',
    status: 502,
    description: 'The provider took the test email but the answer was lost, so it may or may not have been sent; check the inbox before sending another.',
  },

  // Webhook subscriptions.
  webhook_subscription_not_found: { type: 'not_found', description: 'The workspace has no webhook subscription with this id.' },
  webhook_subscription_limit_exceeded: {
    type: 'conflict',
    description: 'The workspace already has 20 webhook subscriptions (disabled ones count too); delete one first.',
  },
  webhook_subscription_name_taken: { type: 'conflict', description: 'Another webhook subscription of the workspace has this name.' },
  invalid_event_pattern: {
    type: 'invalid_request',
    description: '`event_patterns` holds a value that is neither one of the nine event names nor one of the six wildcard patterns; the message names it.',
  },
  invalid_webhook_url: {
    type: 'invalid_request',
    description:
      '`url` is not a public HTTPS address: not https, carries credentials, or names or resolves to a loopback, private, link-local or reserved address.',
  },
});

export type EmailErrorCode = keyof typeof EMAIL_ERROR_CODES;

/** The only way email code builds an error: a code outside EMAIL_ERROR_CODES does not compile. */
export const EmailErrors = errorFactory(EMAIL_ERROR_CODES);
