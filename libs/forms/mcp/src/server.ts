import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { createToolServer, RouteRequest, RouteResponse, ToolArgumentError, toRouteRequest } from '@shared/mcp';
import { callExportTool, EXPORT_TOOLS, ExportTool, findExportTool, SubmissionExportsPort } from './export-tools';
import { errorResult, routeError, successResult, ToolError } from './results';
import { FormsMcpTool, findTool } from './tools';

export interface FormsMcpConnection {
  tools: readonly FormsMcpTool[];
  /** The caller's Authorization header, passed to every REST request unchanged. */
  authorization: string | undefined;
  /** Runs one REST request in-process (every guard, pipe and rule of the route applies). */
  invoke(request: RouteRequest): Promise<RouteResponse>;
  newRequestId(): string;
  version: string;
  /** Spreadsheet exports as the caller (they have no /api/v1 route); without it the export tools answer not available. */
  exports?: SubmissionExportsPort;
}

export const FORMS_MCP_SERVER_NAME = 'postline-forms';

const INSTRUCTIONS =
  'Tools of the Postline forms service. Call postline_list_workspaces first and create in recommendedCreateWorkspaceId ' +
  '(ask the user when it is null); create with a stable idempotencyKey; carry the newest draftRevision through every edit ' +
  '(on a conflict, re-read with postline_get_form and reapply); call postline_validate_draft before publishing; publish ' +
  'only on explicit request and return publicUrl. Results are {operation_id, response} or, with isError, ' +
  '{operation_id, error:{category, status, code, message, retryable, recovery}}. Payment fields are not available here.';

/** An MCP server for one request of a stateless connection: lists every tool and runs each as its REST route. */
export function createFormsMcpServer(connection: FormsMcpConnection): Server {
  return createToolServer({
    name: FORMS_MCP_SERVER_NAME,
    version: connection.version,
    instructions: INSTRUCTIONS,
    list: () => [...connection.tools.map(describe), ...EXPORT_TOOLS.map(describe)],
    call: (name, args) => {
      const tool = findTool(connection.tools, name);
      if (tool) return callTool(connection, tool, args);
      const exportTool = findExportTool(name);
      return exportTool && callExportTool(exportTool, connection.exports, args);
    },
  });
}

function describe(tool: FormsMcpTool | ExportTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: tool.outputSchema as Tool['outputSchema'],
    annotations: tool.annotations,
    _meta: { 'postline/scopes': tool.scopes },
  };
}

/** Whether any object in the arguments is a payment field (`type: "payment"`), at any depth. */
function holdsPaymentField(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsPaymentField);
  if (!value || typeof value !== 'object') return false;
  return (value as { type?: unknown }).type === 'payment' || Object.values(value).some(holdsPaymentField);
}

/** The tool's own argument rules, before any request: required and omitted arguments, no payment fields. */
function argumentProblem(tool: FormsMcpTool, args: Record<string, unknown>): Omit<ToolError, 'status'> | undefined {
  const missing = (tool.spec.required ?? []).filter((name) => args[name] === undefined || args[name] === null);
  if (missing.length) return argumentError(`${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required.`, missing[0]);
  const refused = (tool.spec.omit ?? []).filter((name) => args[name] !== undefined);
  if (refused.length) return argumentError(`${tool.name} does not take ${refused.join(', ')}.`, refused[0]);
  if (holdsPaymentField(args)) return { code: 'payment_fields_not_available', message: 'Payment fields are not available through MCP; add them in the app.' };
  return undefined;
}

/** A refused argument, named where REST validation errors name a field. */
const argumentError = (message: string, argument: string): Omit<ToolError, 'status'> => ({
  code: 'invalid_tool_arguments',
  message,
  details: { details: { field: argument } },
});

/** How often update_field reads the draft when it moved on between the read and the write. */
const PINNED_EDIT_READS = 3;

type DraftRead = { data: { draft_revision: number }; draft_schema: { steps: Array<{ fields: Array<{ id: string; type: string }> }> } };

const isStale = (response: RouteResponse) => (response.body as { error?: { code?: string } } | null)?.error?.code === 'stale_draft_revision';

/**
 * update_field, refused when the field is a payment field in the draft. The write is pinned to the revision that was
 * read, so a field made a payment field between the read and the write is refused too: the pinned write meets a stale
 * revision and the draft is read again. A caller's older (or malformed) revision gets the route's answer; a newer one
 * than was read means the draft moved on, so it is read again. `force` waives the caller's revision, never the pin. Any
 * other answer to the read is left to the edit's route.
 */
async function updateFieldPinned(
  connection: FormsMcpConnection,
  tool: FormsMcpTool,
  args: Record<string, unknown>,
  run: (route: RouteRequest) => Promise<RouteResponse>,
): Promise<RouteResponse | ToolError> {
  const getForm = connection.tools.find((candidate) => candidate.spec.operationId === 'getForm')!;
  const given = args.force === true ? undefined : (args.draftRevision ?? args.draft_revision);
  const { draft_revision: _given, force: _force, ...edit } = args;
  let revision = 0;
  for (let read = 1; read <= PINNED_EDIT_READS; read++) {
    const answer = await run(toRouteRequest(getForm.route, { formId: args.formId }));
    if (answer.status !== 200) return run(toRouteRequest(tool.route, args));
    const form = answer.body as DraftRead;
    revision = form.data.draft_revision;
    if (form.draft_schema.steps.some((step) => step.fields.some((field) => field.id === args.fieldId && field.type === 'payment')))
      return {
        status: 400,
        code: 'payment_fields_not_available',
        message: `${String(args.fieldId)} is a payment field; payment fields are not available through MCP: change it in the app.`,
        details: { field: 'fieldId' },
      };
    if (given !== undefined && (typeof given !== 'number' || given < revision)) return run(toRouteRequest(tool.route, args));
    if (typeof given === 'number' && given > revision) continue;
    const written = await run(toRouteRequest(tool.route, { ...edit, draftRevision: revision }));
    if (given !== undefined || !isStale(written) || read === PINNED_EDIT_READS) return written;
  }
  return {
    status: 409,
    code: 'stale_draft_revision',
    // The same answer the route gives a stale revision.
    message: `The draft is at revision ${revision}, not ${String(given)}. Reload the form, reapply your change and send the current draft_revision.`,
    details: { details: { field: 'draft_revision' }, current_draft_revision: revision },
  };
}

async function callTool(connection: FormsMcpConnection, tool: FormsMcpTool, args: Record<string, unknown>): Promise<CallToolResult> {
  const problem = argumentProblem(tool, args);
  if (problem) return errorResult(tool.name, { status: 400, ...problem });
  let request: RouteRequest;
  try {
    request = toRouteRequest(tool.route, args);
  } catch (error) {
    if (!(error instanceof ToolArgumentError)) throw error;
    return errorResult(tool.name, { status: 400, ...argumentError(error.message, error.argument) });
  }
  const run = (route: RouteRequest) =>
    connection.invoke({
      ...route,
      headers: {
        ...route.headers,
        ...(connection.authorization ? { authorization: connection.authorization } : {}),
        'x-request-id': connection.newRequestId(),
      },
    });
  const response = tool.spec.operationId === 'updateField' ? await updateFieldPinned(connection, tool, args, run) : await run(request);
  if (!('headers' in response)) return errorResult(tool.name, response);
  if (response.status < 200 || response.status >= 300) return errorResult(tool.name, routeError(response));
  const body = response.body as Record<string, unknown>;
  const form = body.data as { id: string; draft_revision: number; draft_updated_at: number; public_url: string };
  switch (tool.spec.extra) {
    case 'created_form':
      return successResult(tool.name, { ...body, form, draft_revision: form.draft_revision, draft_updated_at: form.draft_updated_at });
    case 'published_form':
      return successResult(tool.name, { ...body, form, publicUrl: form.public_url });
    case 'form_with_validation': {
      const validate = connection.tools.find((candidate) => candidate.spec.operationId === 'validateDraft')!;
      const validation = await run(toRouteRequest(validate.route, { formId: form.id }));
      if (validation.status !== 200) return errorResult(tool.name, routeError(validation));
      return successResult(tool.name, { ...body, form, draftValidation: (validation.body as { validation: unknown }).validation });
    }
    default:
      return successResult(tool.name, response.body ?? null);
  }
}
