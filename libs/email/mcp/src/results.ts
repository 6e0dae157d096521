import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { JsonSchema, toolResult } from '@shared/mcp';

/** The contract's MCP error categories (its notes, §10: client-side mappings). */
export const ERROR_CATEGORIES = ['validation', 'authentication', 'permission', 'conflict', 'rate_limit', 'transient', 'unknown'] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** 400/422 validation, 401 authentication, 403 permission, 409 conflict, 429 rate_limit, 408/425/5xx transient, else unknown. */
export function errorCategory(status: number): ErrorCategory {
  if (status === 400 || status === 422) return 'validation';
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limit';
  if (status === 408 || status === 425 || status >= 500) return 'transient';
  return 'unknown';
}

export interface ToolError {
  status: number;
  code: string;
  message: string;
}

/** The `error` member of a failed tool result. */
export const TOOL_ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['category', 'status', 'code', 'message', 'retryable'],
  properties: {
    category: { type: 'string', enum: [...ERROR_CATEGORIES] },
    status: { type: 'integer', description: 'The HTTP status of the REST answer (or of the MCP layer refusal).' },
    code: { type: 'string', description: 'The REST error code (docs/errors), or an MCP layer code such as invalid_tool_arguments.' },
    message: { type: 'string' },
    retryable: { type: 'boolean', description: 'True for rate_limit and transient errors.' },
  },
};

export function successResult(operationId: string, requestId: string, response: unknown): CallToolResult {
  return toolResult({ operation_id: operationId, request_id: requestId, response }, false);
}

export function errorResult(operationId: string, requestId: string, error: ToolError): CallToolResult {
  const category = errorCategory(error.status);
  return toolResult(
    {
      operation_id: operationId,
      request_id: requestId,
      error: { category, status: error.status, code: error.code, message: error.message, retryable: category === 'rate_limit' || category === 'transient' },
    },
    true,
  );
}
