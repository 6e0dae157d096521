import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, CallToolResult, ErrorCode, ListToolsRequestSchema, McpError, Tool } from '@modelcontextprotocol/sdk/types.js';

export interface ToolServerOptions {
  name: string;
  version: string;
  instructions: string;
  /** The tools listed to this connection. */
  list(): Tool[];
  /** Runs a tool; undefined when no tool has this name (answered as a JSON-RPC invalid-params error). */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult> | undefined;
}

/** An SDK server offering tools only, for one request of a stateless connection. */
export function createToolServer(options: ToolServerOptions): Server {
  const server = new Server({ name: options.name, version: options.version }, { capabilities: { tools: {} }, instructions: options.instructions });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: options.list() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const answer = options.call(request.params.name, request.params.arguments ?? {});
    if (!answer) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}.`);
    return answer;
  });
  return server;
}
