import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { createToolServer, RouteRequest, RouteResponse, ToolArgumentError, toRouteRequest } from '@shared/mcp';
import { MCP_SELECTION_HEADERS, mcpExclusion, McpSelection } from '@email/platform';
import { errorResult, successResult } from './results';
import { EmailMcpTool } from './tools';

export interface EmailMcpConnection {
  /** Every tool of the app (the selection decides which are listed and callable). */
  tools: readonly EmailMcpTool[];
  selection: McpSelection;
  /** The caller's Authorization header, passed to every REST request unchanged. */
  authorization: string | undefined;
  /** Runs one REST request in-process (every guard, pipe and rule of the route applies). */
  invoke(request: RouteRequest): Promise<RouteResponse>;
  newRequestId(): string;
  version: string;
}

export const EMAIL_MCP_SERVER_NAME = 'postline-email';

const INSTRUCTIONS =
  'Tools of the Postline email marketing API: one per REST operation, named and annotated as the contract names them. ' +
  'Call discovery_get_capabilities first to see the workspace, the credential and what it may call. Results carry ' +
  '{operation_id, request_id, response} or, with isError, {operation_id, request_id, error:{category, status, code, message, retryable}}.';

/** An MCP server for one request of a stateless connection: lists the selected tools and runs each as its REST route. */
export function createEmailMcpServer(connection: EmailMcpConnection): Server {
  const byName = new Map(connection.tools.map((tool) => [tool.name, tool]));
  return createToolServer({
    name: EMAIL_MCP_SERVER_NAME,
    version: connection.version,
    instructions: INSTRUCTIONS,
    list: () => connection.tools.filter((tool) => mcpExclusion(tool.operation, connection.selection) === null).map(describe),
    call: (name, args) => {
      const tool = byName.get(name);
      return tool && callTool(connection, tool, args);
    },
  });
}

function describe(tool: EmailMcpTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: tool.outputSchema as Tool['outputSchema'],
    annotations: tool.annotations,
  };
}

const EXCLUSION_MESSAGES = {
  toolset: ['mcp_toolset_filter_active', 'This tool is not in the toolsets of this MCP connection.'],
  operation_ids: ['mcp_toolset_filter_active', 'This tool is not among the operation ids of this MCP connection.'],
  read_only: ['mcp_read_only_filter_active', 'This MCP connection is read-only and this tool changes data.'],
} as const;

async function callTool(connection: EmailMcpConnection, tool: EmailMcpTool, args: Record<string, unknown>): Promise<CallToolResult> {
  const { operationId } = tool.operation;
  const requestId = connection.newRequestId();
  const exclusion = mcpExclusion(tool.operation, connection.selection);
  if (exclusion) {
    const [code, message] = EXCLUSION_MESSAGES[exclusion];
    return errorResult(operationId, requestId, { status: 403, code, message });
  }
  let request: RouteRequest;
  try {
    request = toRouteRequest(tool.route, args);
  } catch (error) {
    if (!(error instanceof ToolArgumentError)) throw error;
    return errorResult(operationId, requestId, { status: 400, code: 'invalid_tool_arguments', message: error.message });
  }
  const { selection } = connection;
  request.headers = {
    ...request.headers,
    ...(connection.authorization ? { authorization: connection.authorization } : {}),
    'x-request-id': requestId,
    [MCP_SELECTION_HEADERS.toolsets]: selection.toolsets.join(','),
    [MCP_SELECTION_HEADERS.readOnly]: String(selection.readOnly),
    ...(selection.operationIds ? { [MCP_SELECTION_HEADERS.operationIds]: selection.operationIds.join(',') } : {}),
  };
  const response = await connection.invoke(request);
  const answeredId = response.headers['x-request-id'] ?? requestId;
  if (response.status >= 200 && response.status < 300) return successResult(operationId, answeredId, response.body ?? null);
  const error = (response.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return errorResult(operationId, answeredId, {
    status: response.status,
    code: typeof error?.code === 'string' ? error.code : 'mcp_unknown_error',
    message: typeof error?.message === 'string' ? error.message : `The operation answered HTTP ${response.status}.`,
  });
}
