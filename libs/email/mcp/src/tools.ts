import type { OpenAPIObject } from '@nestjs/swagger';
import { JsonSchema, responseSchema, routeInput, SchemaConverter, SchemaObject, ToolRoute } from '@shared/mcp';
import { listApiOperations, mcpOperation, McpOperation } from '@email/platform';
import { TOOL_ERROR_SCHEMA } from './results';

/** The tool argument that carries the Idempotency-Key header. */
export const IDEMPOTENCY_KEY_ARGUMENT = 'idempotency_key';

export interface EmailMcpTool {
  name: string;
  title: string;
  description: string;
  operation: McpOperation;
  route: ToolRoute;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: McpOperation['annotations'] & { title: string };
}

/**
 * One tool per operation the app serves (its generated OpenAPI document) that the contract's operation catalogue names:
 * tool names, titles, descriptions and hints from the catalogue, input and output schemas from the document's own
 * parameters, DTO schemas and responses. An operation added to the app becomes a tool with no code here.
 */
export function buildEmailTools(document: OpenAPIObject): EmailMcpTool[] {
  const converter = new SchemaConverter((document.components?.schemas ?? {}) as unknown as Record<string, SchemaObject>);
  const tools: EmailMcpTool[] = [];
  for (const info of listApiOperations(document)) {
    const operation = mcpOperation(info.operationId);
    if (!operation) continue;
    const { schema: inputSchema, route } = routeInput(converter, info.method, info.path, info.operation, { idempotencyArgument: IDEMPOTENCY_KEY_ARGUMENT });
    tools.push({
      name: operation.toolName,
      title: operation.title,
      description: operation.description,
      operation,
      route,
      inputSchema,
      outputSchema: buildOutput(converter, operation.operationId, info.operation),
      annotations: { title: operation.title, ...operation.annotations },
    });
  }
  return tools;
}

/** `{operation_id, request_id, response}` with the operation's success answers, or `{operation_id, request_id, error}`. */
function buildOutput(converter: SchemaConverter, operationId: string, operation: OpenAPIObject['paths'][string]['get']): JsonSchema {
  const refs = new Set<string>();
  const response = responseSchema(converter, operation ?? {}, refs);
  return converter.standalone(
    {
      type: 'object',
      additionalProperties: false,
      required: ['operation_id', 'request_id'],
      properties: {
        operation_id: { type: 'string', const: operationId },
        request_id: { type: 'string', description: 'The request id of the REST call the tool made (x-request-id).' },
        response: { ...response, description: 'The REST answer body (null when the operation answers 204).' },
        error: TOOL_ERROR_SCHEMA,
      },
      oneOf: [{ required: ['response'] }, { required: ['error'] }],
    },
    refs,
  );
}
