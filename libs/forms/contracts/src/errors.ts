import { defineErrorCodes, errorFactory, SHARED_ERROR_CODES } from '@shared/errors';

const invalid = (description: string) => ({ type: 'invalid_request' as const, description });

/** What a value can be refused for, whether it sits in a draft or in a submitted answer. */
const VALUE_CODES = {
  invalid_type: invalid('A value has the wrong type (text where an object is expected, and the like).'),
  invalid_date: invalid('A date is not a real calendar day written YYYY-MM-DD.'),
  invalid_url: invalid('A web address is not an absolute http(s) URL.'),
  too_long: invalid('A text is longer than allowed.'),
  too_large: invalid('A number is above its maximum.'),
  too_small: invalid('A number is below its minimum.'),
  not_answerable: invalid('The field takes no answer (a statement or a payment), so it can be neither answered nor compared.'),
};

/**
 * The codes of draft issues (`issues[].code`, `details.reason`). A draft edit refused for one of them answers it as
 * its `code`: 400 when the problem is in the request body, 409 `conflict` when the edit is valid on its own but would
 * break another part of the draft (then `issues` name those parts).
 */
const DRAFT_ISSUE_CODES = {
  ...VALUE_CODES,
  required: invalid('A property the draft needs is missing or empty.'),
  unknown_property: invalid('The draft holds a property that does not exist at that place.'),
  unknown_field_type: invalid('A field names a type outside the field catalogue.'),
  invalid_value: invalid('A value is not one of those allowed at that place.'),
  invalid_id: invalid('An id or key is not 1 to 100 letters, digits, "_" or "-".'),
  invalid_accept: invalid('A file field accepts an entry that is neither a MIME type, a MIME family nor a file extension.'),
  invalid_color: invalid('A theme colour is not written #rgb or #rrggbb.'),
  invalid_currency: invalid('A payment currency is not a three-letter ISO 4217 code in capitals.'),
  invalid_font_family: invalid('A font family name is not 1 to 100 letters, digits, spaces, "_" or "-".'),
  invalid_gradient: invalid('A theme gradient is not a CSS gradient.'),
  invalid_name: invalid('A hidden field name is not 1 to 64 letters, digits, "_" or "-".'),
  invalid_slug: invalid('The slug is not lower-case letters, digits and single hyphens.'),
  invalid_target: invalid('A jump target is not a step id, a thank-you screen or the end of the form.'),
  unsupported_country: invalid('A phone field names a default country whose numbers the service cannot check.'),
  too_many: invalid('A list is longer than allowed, or the form has more fields than a form may hold.'),
  too_few: invalid('A list is shorter than needed (options of a choice field, steps, quiz endings).'),
  unknown_reference: invalid('A reference names a step, field, option, variable or screen the draft does not have.'),
  incompatible_operator: invalid('A condition uses an operator that does not apply to what it compares.'),
  incompatible_operation: invalid('A variable action uses an operation the variable type does not support.'),
  non_numeric_operand: invalid('A number variable or amount is fed from something that is not a number.'),
  reserved_id: invalid('An id is one the service keeps for itself (`end`, the default thank-you screen).'),
  duplicate_id: invalid('Two parts of the draft of the same kind use one id.'),
  duplicate_value: invalid('Two options of a field have the same value.'),
  duplicate_name: invalid('Two hidden fields, or two variables, have the same name.'),
  not_a_choice_field: invalid('A quiz mapping points at a field that is not a choice field.'),
  invalid_range: invalid('A minimum is above its maximum (length, value, selections).'),
  invalid_amount: invalid('A payment amount is not above zero.'),
  payment_requires_pro: invalid('A payment field is published in a workspace on the Free plan.'),
  backward_target: invalid('A jump goes back to an earlier step; jumps only go forward.'),
  future_reference: invalid('A rule or amount uses a field that comes after the place it is used.'),
};

/** The codes a submitted answer is refused with (`details.field` names the answer). */
const ANSWER_CODES = {
  ...VALUE_CODES,
  too_short: invalid('A text answer is shorter than the field requires.'),
  invalid_number: invalid('A number answer is not a number.'),
  not_integer: invalid('A number answer has decimals the field does not allow.'),
  date_too_early: invalid('A date answer is before the earliest date the field takes.'),
  date_too_late: invalid('A date answer is after the latest date the field takes.'),
  invalid_time: invalid('A time answer is not written HH:MM.'),
  invalid_email: invalid('An email answer is not an email address.'),
  invalid_phone: invalid('A phone answer is not a phone number (or lacks the country code the field needs).'),
  invalid_choice: invalid('A choice answer is not among the field options.'),
  duplicate_choice: invalid('A multiple-choice answer names one option twice.'),
  too_few_choices: invalid('A multiple-choice answer has fewer selections than the field requires.'),
  too_many_choices: invalid('A multiple-choice answer has more selections than the field allows.'),
  invalid_ranking: invalid('A ranking answer does not rank every option exactly once.'),
  invalid_boolean: invalid('A checkbox answer is neither true nor false.'),
  out_of_range: invalid('A rating, opinion scale or NPS answer is outside its scale.'),
  invalid_signature: invalid('A signature answer is not a PNG data URL.'),
  invalid_file: invalid('A file answer does not describe an uploaded file.'),
  too_many_files: invalid('A file answer holds more files than the field allows.'),
  file_too_large: invalid('An uploaded file is larger than the field allows.'),
  file_type_not_accepted: invalid('An uploaded file is of a type the field does not accept.'),
};

/** Why a draft edit (step, field, logic, design) is refused, beyond the draft issues. */
const EDIT_CODES = {
  step_not_found: { type: 'not_found', description: 'The step the path names is not in the draft.' },
  field_not_found: { type: 'not_found', description: 'The field the path names is not in the draft.' },
  last_step: invalid('Deleting the only step is refused: a form keeps at least one.'),
  invalid_position: invalid('A position is not a whole number within the list.'),
  not_patchable: invalid('The change touches what this operation cannot change (an id, or a step’s fields).'),
  invalid_step_order: invalid('A step reorder does not list every step id exactly once.'),
  invalid_field_order: invalid('A field reorder does not list every field id of the step exactly once.'),
  step_mismatch: invalid('A logic rule names another step than the one whose logic is being set.'),
} as const;

/** Each draft issue code is also a 409 for a draft edit that is fine alone but breaks the rest of the draft. */
const BREAKS_THE_DRAFT = {
  type: 'conflict',
  when: 'a draft edit is valid on its own but would break another part of the draft (`issues` names those parts).',
} as const;

function alsoBreakingTheDraft<C extends Record<string, { type: 'invalid_request'; description: string }>>(codes: C) {
  return Object.fromEntries(Object.entries(codes).map(([code, entry]) => [code, { ...entry, also: BREAKS_THE_DRAFT }])) as {
    [K in keyof C]: C[K] & { also: typeof BREAKS_THE_DRAFT };
  };
}

/** Every code the forms service answers with: the shared ones and its own. */
export const FORMS_ERROR_CODES = defineErrorCodes({
  ...SHARED_ERROR_CODES,
  ...ANSWER_CODES,
  ...alsoBreakingTheDraft(DRAFT_ISSUE_CODES),
  ...EDIT_CODES,
  form_not_found: { type: 'not_found', description: 'No form with this id (or public id) exists, or it belongs to a workspace the caller is not a member of.' },
  workspace_not_found: { type: 'not_found', description: 'The workspace named does not exist or the caller is not a member of it.' },
  submission_not_found: { type: 'not_found', description: 'The form has no submission with this id.' },
  upload_not_found: { type: 'not_found', description: 'The form has no upload with this id.' },
  starter_template_not_found: { type: 'not_found', description: 'No starter template has this id (list them with GET /api/v1/starter-templates).' },
  webhook_endpoint_not_found: { type: 'not_found', description: 'The workspace has no webhook endpoint with this id.' },
  webhook_endpoint_limit_exceeded: {
    type: 'conflict',
    description: 'The workspace already has 20 webhook endpoints (disabled ones count too); delete one first.',
  },
  invalid_webhook_url: invalid(
    '`url` is not a public HTTPS address: not https, carries credentials, or names or resolves to a loopback, private, link-local or reserved address.',
  ),
  invalid_event_type: invalid('`events` is empty or holds a value that is not a forms event type (`form.submission.created`); the message names it.'),
  asset_not_found: { type: 'not_found', description: 'No hosted-page asset has this file name (the script name changes with every build).' },
  owner_not_found: { type: 'not_found', description: 'No account has this owner id (admin commands).' },
  api_key_not_found: { type: 'not_found', description: 'No active API key has this id (admin commands).' },
  account_exists: { type: 'conflict', description: 'An account with this email address exists already.' },
  insufficient_role: {
    type: 'permission_error',
    description: 'The caller’s role in the workspace does not allow the operation; the body lists the roles that do.',
  },
  no_writable_workspace: {
    type: 'permission_error',
    description: 'The caller is only a viewer wherever they are a member, so there is nowhere to create a form.',
  },
  workspace_required: invalid('The caller can create forms in several workspaces and must name one.'),
  invalid_draft_schema: invalid('The draft does not validate; `issues` lists every problem, the first one is in `details`.'),
  draft_not_publishable: invalid('The draft is valid but not ready to publish; `issues` lists what is missing.'),
  draft_too_large: {
    type: 'invalid_request',
    status: 413,
    description: 'The draft body is larger than FORMS_MAX_DRAFT_BYTES; it is refused before it is read.',
  },
  stale_draft_revision: { type: 'conflict', description: 'The draft_revision sent is not the current one; `current_draft_revision` holds it.' },
  draft_busy: { type: 'conflict', description: 'Other writers kept changing the draft while this edit was retried; retry shortly.' },
  slug_taken: { type: 'conflict', description: 'Another form of the workspace already uses the slug.' },
  form_not_published: {
    type: 'permission_error',
    description: 'The form was never published, so it takes no submissions.',
    also: { type: 'conflict', when: 'closing or reopening a form that was never published.' },
  },
  form_closed: { type: 'permission_error', description: 'The form is closed and takes no submissions.' },
  form_not_accepting: { type: 'permission_error', description: 'The form takes no uploads right now (never published, or closed).' },
  no_file_field: invalid('An upload was sent to a form without a file question.'),
  empty_file: invalid('The uploaded file has no bytes.'),
  invalid_file_name: invalid('The file name is longer than 255 characters or holds control or text-direction characters.'),
  answer_required: invalid('A required question on the respondent’s path has no answer; `issues` lists each one.'),
  unknown_field: invalid('An answer names a field the published form does not have.'),
  unknown_hidden_value: invalid('A hidden value names a hidden field the published form does not have.'),
  unknown_upload: invalid('A file answer names an upload that was not made to this form.'),
  unknown_submission: invalid('A selected submission id is not a submission of this form.'),
  submission_export_not_found: { type: 'not_found', description: 'The form has no spreadsheet export with this id.' },
  export_not_ready: { type: 'conflict', description: 'The export has not completed (queued, processing or failed), so there is no file to download yet.' },
  export_expired: { type: 'not_found', status: 410, description: 'The export completed but its file has expired and was removed; start a new export.' },
  duplicate_submission: { type: 'conflict', description: 'This analytics session has already submitted the form.' },
  // The signed-in app session (app-session endpoints: spreadsheet exports, workspace integrations).
  sign_in_required: {
    type: 'authentication_error',
    description: 'The app-session endpoint needs a signed-in browser session (sign in at /account/sign-in); the session may have ended.',
  },
  csrf_token_invalid: {
    type: 'permission_error',
    description: 'A signed-in request that changes data lacks the session’s CSRF token in `X-CSRF-Token` (read it from GET /api/session).',
  },
  mcp_connection_revoked: {
    type: 'authentication_error',
    description: 'This API key was disconnected from the MCP server under Connected apps; it still works on /api/v1.',
  },
  // Payments (public runtime, workspace integrations, provider webhooks).
  unknown_payment_provider: { type: 'not_found', description: 'The path names a payment provider the service does not support (razorpay, stripe).' },
  payment_integration_not_found: { type: 'not_found', description: 'The workspace has not connected this payment provider.' },
  payment_not_found: { type: 'not_found', description: 'The form has no payment order with this id.' },
  payments_require_pro: { type: 'permission_error', description: 'The form’s workspace is not on the Pro or Business plan, so it cannot take payments.' },
  payment_provider_not_connected: {
    type: 'conflict',
    description: 'The payment field’s provider is not connected in the form’s workspace (or the path names another provider than the field).',
  },
  no_payment_due: invalid('The answers lead past no payment field with an amount above zero, so there is nothing to pay.'),
  unsupported_currency: invalid('The payment currency has no ISO 4217 minor unit the service knows (a code such as XXX or XAU).'),
  payment_signature_invalid: invalid('The checkout’s payment signature does not match the order and payment ids under the workspace’s key secret.'),
  payment_not_completed: { type: 'invalid_request', status: 402, description: 'The provider reports the payment as not (yet) succeeded.' },
  payment_required: {
    type: 'invalid_request',
    status: 402,
    description: 'A required payment field on the respondent’s path has no verified payment; `details.field` names it.',
  },
  payment_amount_mismatch: {
    type: 'conflict',
    description: 'The paid amount or currency differs from the amount recomputed from the submitted answers (answers changed after paying).',
  },
  payment_already_used: { type: 'conflict', description: 'The payment is already recorded on another submission.' },
  payment_provider_error: {
    type: 'api_error',
    status: 502,
    description: 'The payment provider refused or failed the request; `details.reason` holds its error code (never credentials).',
  },
  payment_webhook_not_configured: {
    type: 'not_found',
    description: 'The workspace named by the webhook URL has no webhook secret for this provider (connect it with `webhook_secret`).',
  },
  payment_webhook_signature_invalid: invalid('The webhook’s signature header is missing or does not match the body under the configured webhook secret.'),
});

export type FormsErrorCode = keyof typeof FORMS_ERROR_CODES;
export type DraftIssueCode = keyof typeof DRAFT_ISSUE_CODES;
export type AnswerCode = keyof typeof ANSWER_CODES;
/** What a draft editing operation can be refused with. */
export type DraftEditCode = DraftIssueCode | keyof typeof EDIT_CODES;

/** The forms service's error constructors: only listed codes compile, each with its listed type and status. */
export const FormsErrors = errorFactory(FORMS_ERROR_CODES);
