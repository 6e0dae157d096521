import { WORK_PROFILES } from '@email/access';
import { mcpOperation, McpOperation } from './mcp-operations';

/** The MCP toolsets are the work profiles; a connection that names none gets the default one. */
export const MCP_TOOLSETS: readonly string[] = Object.keys(WORK_PROFILES);
export const DEFAULT_MCP_TOOLSET = 'full_email_marketing_access';

/**
 * Request headers the contract's MCP server sends on API calls (its notes, §1). Our MCP endpoint accepts them on the
 * MCP URL too, beside the query parameters `toolsets`, `operation_ids` and `read_only`.
 */
export const MCP_SELECTION_HEADERS = {
  toolsets: 'mailrith-mcp-toolsets',
  operationIds: 'mailrith-mcp-operation-ids',
  readOnly: 'mailrith-mcp-read-only',
} as const;

/** What one MCP connection exposes: operations of these toolsets, optionally only these ids, optionally only reads. */
export interface McpSelection {
  toolsets: string[];
  /** null: every operation of the toolsets. */
  operationIds: string[] | null;
  readOnly: boolean;
}

/** The raw values, each a comma-separated list (read_only: true/false/1/0). */
export interface McpSelectionInput {
  toolsets?: string;
  operationIds?: string;
  readOnly?: string;
}

export interface ParsedMcpSelection {
  selection: McpSelection;
  /** Values that name no toolset or operation, or a read_only that is not a boolean; each names its parameter. */
  problems: Array<{ field: 'toolsets' | 'operation_ids' | 'read_only'; message: string }>;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export function parseMcpSelection(input: McpSelectionInput): ParsedMcpSelection {
  const problems: ParsedMcpSelection['problems'] = [];
  const toolsets = list(input.toolsets);
  const unknownToolsets = toolsets.filter((name) => !MCP_TOOLSETS.includes(name));
  if (unknownToolsets.length) {
    problems.push({ field: 'toolsets', message: `Unknown toolset(s): ${unknownToolsets.join(', ')}. Toolsets: ${MCP_TOOLSETS.join(', ')}.` });
  }
  const operationIds = list(input.operationIds);
  const unknownIds = operationIds.filter((id) => !mcpOperation(id));
  if (unknownIds.length) problems.push({ field: 'operation_ids', message: `Unknown operation id(s): ${unknownIds.join(', ')}.` });
  const flag = (input.readOnly ?? '').trim().toLowerCase();
  if (!['', 'true', 'false', '1', '0'].includes(flag)) problems.push({ field: 'read_only', message: 'read_only must be true or false.' });
  const known = toolsets.filter((name) => MCP_TOOLSETS.includes(name));
  return {
    selection: {
      toolsets: known.length ? [...new Set(known)] : [DEFAULT_MCP_TOOLSET],
      operationIds: operationIds.length ? [...new Set(operationIds.filter((id) => mcpOperation(id)))] : null,
      readOnly: flag === 'true' || flag === '1',
    },
    problems,
  };
}

/** The selection the contract's MCP headers carry, or undefined when a request sends none of them (a plain REST call). */
export function mcpSelectionFromHeaders(headers: Record<string, string | string[] | undefined>): McpSelection | undefined {
  const read = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const input = {
    toolsets: read(MCP_SELECTION_HEADERS.toolsets),
    operationIds: read(MCP_SELECTION_HEADERS.operationIds),
    readOnly: read(MCP_SELECTION_HEADERS.readOnly),
  };
  if (input.toolsets === undefined && input.operationIds === undefined && input.readOnly === undefined) return undefined;
  // A REST call tolerates values it does not know (contract notes §1); they select nothing.
  return parseMcpSelection(input).selection;
}

/** Why an implemented operation is not part of a selection, or null when it is. */
export function mcpExclusion(op: McpOperation, selection: McpSelection): 'toolset' | 'operation_ids' | 'read_only' | null {
  if (!op.toolsets.some((name) => selection.toolsets.includes(name))) return 'toolset';
  if (selection.operationIds && !selection.operationIds.includes(op.operationId)) return 'operation_ids';
  if (selection.readOnly && !op.annotations.readOnlyHint) return 'read_only';
  return null;
}

/** The catalogue operations among `implemented` (operation ids the app serves, in its order) that a selection exposes. */
export function selectMcpOperations(implemented: readonly string[], selection: McpSelection): McpOperation[] {
  return implemented.map(mcpOperation).filter((op): op is McpOperation => !!op && mcpExclusion(op, selection) === null);
}
