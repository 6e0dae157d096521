import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema, RouteResponse } from '@shared/mcp';
import { TOOL_PREFIX } from './catalogue';
import { errorResult, routeError, successResult, TOOL_ERROR_SCHEMA } from './results';

/**
 * Spreadsheet exports, which have no /api/v1 route (they are app-session endpoints): the host runs them through the
 * same export service as the app session, as the MCP caller, with its scopes and live workspace role. Answers and
 * errors come back in the REST shapes (`{data}` or the error envelope), never as a throw: the port checks the
 * arguments as the REST validation pipe checks a request (NUL and unpaired surrogates are 400 `invalid_characters`,
 * naming the tool's argument) before anything reaches the database.
 */
export interface SubmissionExportsPort {
  start(formId: string, body: Record<string, unknown>, idempotencyKey: string | undefined): Promise<RouteResponse>;
  get(formId: string, exportId: string): Promise<RouteResponse>;
}

export interface ExportTool {
  name: string;
  title: string;
  description: string;
  scopes: string[];
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: Tool['annotations'];
  run(port: SubmissionExportsPort, args: Record<string, unknown>): Promise<RouteResponse>;
}

const SCOPES = ['submissions:read'];
const ID = { type: 'string', minLength: 1, maxLength: 100 };
const DATE_TIME = { type: ['string', 'null'], format: 'date-time' };

const EXPORT_VIEW: JsonSchema = {
  type: 'object',
  required: ['id', 'formId', 'status', 'selection', 'rowCount', 'fileName', 'fileSize', 'expiresAt', 'error', 'createdAt', 'startedAt', 'completedAt'],
  properties: {
    id: { type: 'string' },
    formId: { type: 'string' },
    status: { type: 'string', enum: ['queued', 'processing', 'completed', 'failed'] },
    selection: { type: 'object', description: 'The submissions exported: selectedSubmissionIds, or the filters.' },
    rowCount: { type: ['integer', 'null'] },
    fileName: { type: ['string', 'null'], description: 'Set while the file can be downloaded (in the signed-in app).' },
    fileSize: { type: ['integer', 'null'] },
    expiresAt: DATE_TIME,
    error: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    startedAt: DATE_TIME,
    completedAt: DATE_TIME,
  },
};

const output = (name: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['operation_id'],
  properties: {
    operation_id: { type: 'string', const: name },
    response: { type: 'object', required: ['data'], properties: { data: EXPORT_VIEW } },
    error: TOOL_ERROR_SCHEMA,
  },
  oneOf: [{ required: ['response'] }, { required: ['error'] }],
});

const str = (value: unknown) => (typeof value === 'string' ? value : '');

const create = `${TOOL_PREFIX}_create_submission_export`;
const get = `${TOOL_PREFIX}_get_submission_export`;

export const EXPORT_TOOLS: readonly ExportTool[] = [
  {
    name: create,
    title: 'Export responses to a spreadsheet',
    description:
      'Starts an XLSX export of a form’s submissions: the selectedSubmissionIds, or every submission matching filters (search, status, from, to). ' +
      'It runs in the background: poll get_submission_export until status is completed; the person downloads the file in the signed-in app. ' +
      `A stable idempotencyKey makes a retry answer the same export. Needs scope ${SCOPES.join(', ')}.`,
    scopes: SCOPES,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['formId'],
      properties: {
        formId: ID,
        selectedSubmissionIds: { type: 'array', items: ID, minItems: 1, description: 'Export exactly these submissions (omit to use filters).' },
        filters: {
          type: 'object',
          additionalProperties: false,
          properties: {
            search: { type: 'string', description: 'Text the answers contain.' },
            status: { type: 'string', enum: ['completed'], description: 'Submission status.' },
            from: { type: 'string', description: 'Submitted at or after: YYYY-MM-DD (UTC) or a date-time with a time zone.' },
            to: { type: 'string', description: 'Submitted at or before: YYYY-MM-DD (the whole UTC day) or a date-time with a time zone.' },
          },
        },
        idempotencyKey: { type: 'string', minLength: 1, maxLength: 255 },
      },
    },
    outputSchema: output(create),
    annotations: { title: 'Export responses to a spreadsheet', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (port, args) => {
      const { formId, idempotencyKey, ...body } = args;
      return port.start(str(formId), body, typeof idempotencyKey === 'string' ? idempotencyKey : undefined);
    },
  },
  {
    name: get,
    title: 'Check a spreadsheet export',
    description: `An export started with create_submission_export: its status, row count and, once completed, its file name and expiry. Needs scope ${SCOPES.join(', ')}.`,
    scopes: SCOPES,
    inputSchema: { type: 'object', additionalProperties: false, required: ['formId', 'exportId'], properties: { formId: ID, exportId: ID } },
    outputSchema: output(get),
    annotations: { title: 'Check a spreadsheet export', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (port, args) => port.get(str(args.formId), str(args.exportId)),
  },
];

/** The export tool a call names (dotted aliases accepted), or undefined. */
export function findExportTool(name: string): ExportTool | undefined {
  const canonical = name.startsWith(`${TOOL_PREFIX}.`) ? `${TOOL_PREFIX}_${name.slice(TOOL_PREFIX.length + 1)}` : name;
  return EXPORT_TOOLS.find((tool) => tool.name === canonical);
}

export async function callExportTool(tool: ExportTool, port: SubmissionExportsPort | undefined, args: Record<string, unknown>): Promise<CallToolResult> {
  if (!port) return errorResult(tool.name, { status: 501, code: 'not_available', message: 'Spreadsheet exports are not available on this connection.' });
  const missing = (tool.inputSchema.required as string[]).filter((name) => typeof args[name] !== 'string' || args[name] === '');
  if (missing.length)
    return errorResult(tool.name, {
      status: 400,
      code: 'invalid_tool_arguments',
      message: `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required.`,
    });
  const response = await tool.run(port, args);
  return response.status >= 200 && response.status < 300 ? successResult(tool.name, response.body) : errorResult(tool.name, routeError(response));
}
