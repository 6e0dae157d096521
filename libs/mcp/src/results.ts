import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool result carrying `structured` both as `structuredContent` and as its JSON text (for clients that read only text). */
export function toolResult(structured: Record<string, unknown>, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, ...(isError ? { isError: true } : {}) };
}
