import { GENERATED_MCP_OPERATIONS } from './mcp-operations.generated';

/** MCP tool hints of one operation, exactly as the contract gives them. */
export interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One contract operation as the MCP server names and describes it (the contract's operation table, §3 of its notes). */
export interface McpOperation {
  operationId: string;
  toolName: string;
  method: string;
  path: string;
  title: string;
  description: string;
  /** The work profiles (MCP toolsets) that include the operation. */
  toolsets: string[];
  annotations: McpToolAnnotations;
  /** Whether the operation takes an optional (or required) Idempotency-Key header. */
  idempotencyKey: boolean;
  /** One of the 55 tools of the contract's submitted MCP profile. */
  submitted: boolean;
}

/** Every operation of the contract, implemented here or not; the MCP server offers those the app serves. */
export const MCP_OPERATIONS: readonly McpOperation[] = GENERATED_MCP_OPERATIONS;

const BY_ID = new Map(MCP_OPERATIONS.map((op) => [op.operationId, op]));

export const mcpOperation = (operationId: string): McpOperation | undefined => BY_ID.get(operationId);
