/** The prefix of every forms tool name: the contract's `<prefix>_<verb>_<noun>` pattern with our service's name. */
export const TOOL_PREFIX = 'postline';

export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a tool adds to its route's answer, for agents (the contract's result keys). */
export type ResponseExtra = 'created_form' | 'form_with_validation' | 'published_form';

export interface FormsToolSpec {
  /** The name without the prefix, as the contract's list writes it after `<prefix>_`. */
  tool: string;
  /** The REST route (operationId in the schema pack) the tool runs. */
  operationId: string;
  title: string;
  description: string;
  hints: ToolHints;
  /** Tool arguments needed beyond what the route needs. */
  required?: string[];
  /** Route arguments the tool does not offer. */
  omit?: string[];
  extra?: ResponseExtra;
}

const read: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const write: ToolHints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** A write whose repeat with the same arguments changes nothing more (creation under an idempotency key). Draft edits are not: each one moves the revision. */
const idempotentWrite: ToolHints = { ...write, idempotentHint: true };
const destructive: ToolHints = { ...write, destructiveHint: true, idempotentHint: true };

const REVISION = 'Pass the newest draftRevision (from get_form or the last edit); a stale one is a conflict: reload with get_form and reapply.';

/**
 * The forms tools: the contract's names (section 5 of its notes) for every operation this service serves. Scopes
 * come from the routes themselves (the schema pack's security requirements).
 */
export const FORMS_TOOLS: readonly FormsToolSpec[] = [
  {
    tool: 'get_capabilities',
    operationId: 'getMe',
    title: 'Describe the connection',
    description: "The credential's owner and its scopes (what these tools may do for you). Call before multi-step work.",
    hints: read,
  },
  {
    tool: 'list_workspaces',
    operationId: 'listWorkspaces',
    title: 'List workspaces',
    description:
      'Call first. Lists your workspaces with your role and plan, defaultWorkspaceId and recommendedCreateWorkspaceId: create forms there; when it is null, ask the user which workspace to use.',
    hints: read,
  },
  {
    tool: 'list_workspace_forms',
    operationId: 'listForms',
    title: 'List forms',
    description: "A workspace's forms (or every workspace's), most recently changed first.",
    hints: read,
  },
  {
    tool: 'create_form',
    operationId: 'createForm',
    title: 'Create a form',
    description:
      'Creates an unpublished draft form. idempotencyKey is required: choose a stable key per intended form; repeating the call with the same key and arguments returns the original form instead of a second one. draftSchema is optional (same shape get_form returns; payment fields are not available here).',
    hints: idempotentWrite,
    required: ['idempotencyKey'],
    extra: 'created_form',
  },
  {
    tool: 'get_create_form_status',
    operationId: 'getCreateFormStatus',
    title: 'Check a form creation',
    description:
      'After an interrupted create_form (or clone_form, create_form_from_starter_template): what its idempotencyKey made. status created comes with the form; unknown means nothing is recorded and creating again is safe.',
    hints: read,
  },
  {
    tool: 'get_form',
    operationId: 'getForm',
    title: 'Get a form',
    description:
      'The form, its draft and published schema, the current draftRevision (in form) and draftValidation (whether the draft can be published). Re-read after major edits.',
    hints: read,
    extra: 'form_with_validation',
  },
  {
    tool: 'validate_draft',
    operationId: 'validateDraft',
    title: 'Validate the draft',
    description: 'Runs the publish checks on the current draft: validation.valid and every issue with its path. Call before publish_form.',
    hints: read,
  },
  {
    tool: 'save_draft',
    operationId: 'replaceDraft',
    title: 'Save the whole draft',
    description: `Replaces the whole draft with a complete builder-compatible draftSchema. ${REVISION}`,
    hints: write,
  },
  {
    tool: 'publish_form',
    operationId: 'publishForm',
    title: 'Publish the form',
    description: `Publishes the current draft as the live form, only on the user's explicit request. draftRevision is required (the revision validate_draft checked). Returns publicUrl: give it to the user.`,
    hints: write,
    required: ['draftRevision'],
    omit: ['force', 'draftSchema'],
    extra: 'published_form',
  },
  {
    tool: 'delete_form',
    operationId: 'deleteForm',
    title: 'Delete a form',
    description: 'Deletes the form and all its submissions, only on explicit user intent. Cannot be undone.',
    hints: destructive,
  },
  {
    tool: 'clone_form',
    operationId: 'cloneForm',
    title: 'Clone a form',
    description: "Copies an accessible form's current draft into a new draft form (in workspaceId, or beside the original).",
    hints: write,
    extra: 'created_form',
  },
  {
    tool: 'list_starter_templates',
    operationId: 'listStarterTemplates',
    title: 'List starter templates',
    description: 'Built-in starting points (lead capture, feedback, NPS, event registration, job application, quiz) with their drafts.',
    hints: read,
  },
  {
    tool: 'create_form_from_starter_template',
    operationId: 'createFormFromStarterTemplate',
    title: 'Create a form from a starter template',
    description: 'Creates a draft form from a starter template (templateId from list_starter_templates).',
    hints: write,
    extra: 'created_form',
  },
  { tool: 'add_step', operationId: 'addStep', title: 'Add a step', description: `Appends a step, or inserts it at position. ${REVISION}`, hints: write },
  {
    tool: 'update_step',
    operationId: 'updateStep',
    title: 'Change a step',
    description: `Changes a step's properties (not its fields). ${REVISION}`,
    hints: write,
  },
  {
    tool: 'delete_step',
    operationId: 'deleteStep',
    title: 'Delete a step',
    description: `Removes a step and its fields and cleans up references to them; a form keeps at least one step. ${REVISION}`,
    hints: destructive,
  },
  {
    tool: 'reorder_steps',
    operationId: 'reorderSteps',
    title: 'Reorder all steps',
    description: `Sets the order of all steps (stepIds: every step id, in the new order). ${REVISION}`,
    hints: write,
  },
  { tool: 'move_step', operationId: 'moveStep', title: 'Move a step', description: `Moves one step to a position. ${REVISION}`, hints: write },
  {
    tool: 'add_field',
    operationId: 'addField',
    title: 'Add a field',
    description: `Adds a field to a step (appended, or at position). Payment fields are not available through MCP. ${REVISION}`,
    hints: write,
  },
  {
    tool: 'update_field',
    operationId: 'updateField',
    title: 'Change a field',
    description: `Changes a field's properties. Payment fields are not available through MCP: neither made nor changed here. ${REVISION}`,
    hints: write,
  },
  {
    tool: 'delete_field',
    operationId: 'deleteField',
    title: 'Delete a field',
    description: `Removes a field and cleans up references to it. ${REVISION}`,
    hints: destructive,
  },
  {
    tool: 'reorder_fields',
    operationId: 'reorderFields',
    title: "Reorder a step's fields",
    description: `Sets the order of all of a step's fields (fieldIds: every field id of the step, in the new order). ${REVISION}`,
    hints: write,
  },
  {
    tool: 'move_field',
    operationId: 'moveField',
    title: 'Move a field',
    description: `Moves one field to a position, in its step or another (stepId). ${REVISION}`,
    hints: write,
  },
  {
    tool: 'update_step_logic',
    operationId: 'updateStepLogic',
    title: "Replace a step's logic",
    description: `Replaces a step's routing rules and fallback target. ${REVISION}`,
    hints: write,
  },
  {
    tool: 'patch_design',
    operationId: 'patchDesign',
    title: 'Change the design',
    description: `Merges theme properties into the draft theme. ${REVISION}`,
    hints: write,
  },
  {
    tool: 'list_submissions',
    operationId: 'listSubmissions',
    title: 'List submissions',
    description: 'Completed submissions of a form, oldest first (after: only those created later).',
    hints: read,
  },
  { tool: 'get_submission', operationId: 'getSubmission', title: 'Get a submission', description: 'One submission record.', hints: read },
];

/** REST names → tool argument names: the contract's MCP spelling is camelCase (`draftRevision`, `formId`). */
export const ARGUMENT_NAMES: Record<string, string> = {
  form_id: 'formId',
  step_id: 'stepId',
  field_id: 'fieldId',
  submission_id: 'submissionId',
  template_id: 'templateId',
  idempotency_key: 'idempotencyKey',
  draft_revision: 'draftRevision',
  step_ids: 'stepIds',
  field_ids: 'fieldIds',
};

/** The tool argument that carries the Idempotency-Key header. */
export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';
