import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { JsonSchema, RouteResponse, toolResult } from '@shared/mcp';

/** The contract's MCP error categories (its notes, section 4). */
export const ERROR_CATEGORIES = ['validation', 'authentication', 'permission', 'conflict', 'rate_limit', 'request', 'server'] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** 400/413/422 validation, 401 authentication, 403 permission, 409 conflict, 429 rate_limit, 5xx server, any other request. */
export function errorCategory(status: number): ErrorCategory {
  if (status === 400 || status === 413 || status === 422) return 'validation';
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'request';
}

/** What to do next, per category: the contract asks for recovery information with every error. */
const RECOVERY: Record<ErrorCategory, { action: string; hint: string }> = {
  validation: { action: 'fix_arguments', hint: 'Correct the argument named in details.details.field, or the draft parts in details.issues, and call again.' },
  authentication: { action: 'reauthenticate', hint: 'The credential is missing, revoked or expired: connect again or use a valid API key.' },
  permission: { action: 'request_access', hint: 'The credential lacks a scope or your workspace role does not allow this; ask an owner for access.' },
  conflict: { action: 'reload_and_retry', hint: 'Reload the form with get_form, take the newest draftRevision and reapply your change.' },
  rate_limit: { action: 'retry_later', hint: 'Too many requests: wait retry_after_ms, then retry.' },
  request: { action: 'check_request', hint: 'Check the ids: the form, step, field or submission may not exist or may be in a workspace you cannot reach.' },
  server: { action: 'retry_later', hint: 'The service failed or is unavailable; retry shortly.' },
};

/** A 409 other than a stale draft revision: reloading the form would not help. */
const CLASH = {
  action: 'resolve_conflict',
  hint: 'Something already there clashes with this request (a name or slug, an earlier request with this idempotencyKey, or the draft parts in details.issues): change the request as the message says.',
};

const recoveryFor = (category: ErrorCategory, code: string) => (category === 'conflict' && code !== 'stale_draft_revision' ? CLASH : RECOVERY[category]);

export interface ToolError {
  status: number;
  code: string;
  message: string;
  retryAfterMs?: number;
  /** The REST error's other members (field, issues, current_draft_revision, required scopes…). */
  details?: Record<string, unknown>;
}

/** The `error` member of a failed tool result. */
export const TOOL_ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['category', 'status', 'code', 'message', 'retryable', 'recovery'],
  properties: {
    category: { type: 'string', enum: [...ERROR_CATEGORIES] },
    status: { type: 'integer', description: 'The HTTP status of the REST answer (400 for arguments the tool refused itself).' },
    code: { type: 'string', description: 'The REST error code (docs/errors/forms.md), or invalid_tool_arguments / payment_fields_not_available.' },
    message: { type: 'string' },
    retryable: { type: 'boolean', description: 'True for rate_limit and server errors.' },
    retry_after_ms: { type: 'integer', minimum: 0 },
    recovery: {
      type: 'object',
      additionalProperties: false,
      required: ['action', 'hint'],
      properties: { action: { type: 'string' }, hint: { type: 'string' } },
    },
    details: { type: 'object', description: 'The REST error body beyond type, code and message.' },
  },
};

export function successResult(operationId: string, response: unknown): CallToolResult {
  return toolResult({ operation_id: operationId, response }, false);
}

export function errorResult(operationId: string, error: ToolError): CallToolResult {
  const category = errorCategory(error.status);
  return toolResult(
    {
      operation_id: operationId,
      error: {
        category,
        status: error.status,
        code: error.code,
        message: error.message,
        retryable: category === 'rate_limit' || (category === 'server' && error.status !== 501),
        ...(error.retryAfterMs !== undefined ? { retry_after_ms: error.retryAfterMs } : {}),
        recovery: recoveryFor(category, error.code),
        ...(error.details && Object.keys(error.details).length ? { details: error.details } : {}),
      },
    },
    true,
  );
}

/** The tool error of a REST answer that was not a success. */
export function routeError(response: RouteResponse): ToolError {
  const body = (response.body as { error?: Record<string, unknown> } | null)?.error ?? {};
  const { type: _type, code, message, ...details } = body;
  const retryAfter = Number(response.headers['retry-after']);
  return {
    status: response.status,
    code: typeof code === 'string' ? code : 'unknown_error',
    message: typeof message === 'string' ? message : `The operation answered HTTP ${response.status}.`,
    ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    details,
  };
}
