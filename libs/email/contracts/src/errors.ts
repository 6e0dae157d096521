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

  // Request values the email rules refuse.
  empty_update: { type: 'invalid_request', description: 'An update named none of the fields it can change.' },
  invalid_email: { type: 'invalid_request', description: 'The email address has no usable domain.' },
  invalid_country: { type: 'invalid_request', description: 'The country is neither an ISO 3166 code nor an English country name.' },
  invalid_date: { type: 'invalid_request', description: 'The date is not a real calendar day written as YYYY-MM-DD.' },
  unknown_tag: { type: 'invalid_request', description: 'A tag id in the body does not belong to the workspace; `details.field` points at it.' },
  unknown_sequence: { type: 'invalid_request', description: 'A sequence id in the body does not belong to the workspace; `details.field` points at it.' },
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
    description: "Segments nest more than five levels deep through segment conditions; the envelope's `condition_id` names the condition.",
  },
  consent_collected_in_future: { type: 'invalid_request', description: '`consent_evidence.collected_at` is later than the server clock.' },

  // Writes that collide with stored data or a concurrent request.
  subscriber_exists: { type: 'conflict', description: 'A create-only upsert named an email the workspace already has.' },
  subscriber_email_taken: { type: 'conflict', description: 'Another subscriber of the workspace already has the new email.' },
  tag_name_taken: { type: 'conflict', description: 'Another tag of the workspace has this name (compared without case).' },
  tag_in_use: {
    type: 'conflict',
    description: "A segment has a condition on the tag, so it cannot be deleted; the envelope's `used_by` lists the segments.",
  },
  tag_deleted: { type: 'conflict', description: 'A tag named in `new_tags` was deleted while the request attached it; retrying creates it again.' },
  custom_field_label_taken: { type: 'conflict', description: 'Another custom field of the workspace has this label (compared without case).' },
  custom_field_in_use: {
    type: 'conflict',
    description:
      "Subscribers hold values for the field, so its type cannot change; or a segment has a condition on it, so it cannot be deleted (the envelope's `used_by` lists the segments).",
  },
  segment_name_taken: { type: 'conflict', description: 'Another segment of the workspace has this name (compared without case).' },
  segment_in_use: {
    type: 'conflict',
    description: "Another segment, a broadcast, a sequence or an automation uses the segment, so it cannot be deleted; the envelope's `used_by` lists them.",
  },

  // Features the API metadata names that this server does not offer yet; their URLs answer these instead of a 404.
  mcp_not_available: { type: 'api_error', status: 501, description: 'This server runs no MCP endpoint yet; call the REST API under /v1 instead.' },
  oauth_not_available: {
    type: 'api_error',
    status: 501,
    description: 'This server issues no OAuth tokens yet, so its OAuth and OpenID metadata and endpoints are absent; authenticate with a workspace API key.',
  },
  webhook_subscriptions_not_available: {
    type: 'api_error',
    status: 501,
    description: 'Webhook subscriptions cannot be managed on this server yet; list records to see what changed.',
  },
});

export type EmailErrorCode = keyof typeof EMAIL_ERROR_CODES;

/** The only way email code builds an error: a code outside EMAIL_ERROR_CODES does not compile. */
export const EmailErrors = errorFactory(EMAIL_ERROR_CODES);
