import type { OpenAPIObject, OperationObject, ParameterObject, RequestBodyObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { listApiOperations, mcpOperation, McpOperation } from '@email/platform';
import { componentName, JsonSchema, SchemaConverter } from './json-schema';
import { TOOL_ERROR_SCHEMA } from './results';

/** The tool argument that carries the Idempotency-Key header. */
export const IDEMPOTENCY_KEY_ARGUMENT = 'idempotency_key';
/** The tool argument that carries a request body that is not an object with named properties (or whose names clash). */
export const BODY_ARGUMENT = 'body';

/**
 * How a tool's arguments become the REST request: path parameters fill the path template, query parameters the query
 * string, `idempotency_key` the header, and the remaining arguments the JSON body. When the body schema is an object
 * with named properties that clash with no parameter, its properties are arguments themselves ("flat"); otherwise the
 * body is the one argument `body` ("nested").
 */
export interface ToolRoute {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  idempotencyKey: boolean;
  body: 'none' | 'flat' | 'nested';
  bodyRequired: boolean;
}

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
  const converter = new SchemaConverter((document.components?.schemas ?? {}) as Record<string, SchemaObject>);
  const tools: EmailMcpTool[] = [];
  for (const info of listApiOperations(document)) {
    const operation = mcpOperation(info.operationId);
    if (!operation) continue;
    const { schema: inputSchema, route } = buildInput(converter, info.method, info.path, info.operation);
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

function buildInput(converter: SchemaConverter, method: string, path: string, operation: OperationObject): { schema: JsonSchema; route: ToolRoute } {
  const refs = new Set<string>();
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const route: ToolRoute = { method, path, pathParams: [], queryParams: [], idempotencyKey: false, body: 'none', bodyRequired: false };
  for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
    const schema = { ...converter.convert(parameter.schema, refs), ...(parameter.description ? { description: parameter.description } : {}) };
    if (parameter.in === 'path') {
      route.pathParams.push(parameter.name);
      properties[parameter.name] = schema;
      required.push(parameter.name);
    } else if (parameter.in === 'query') {
      route.queryParams.push(parameter.name);
      properties[parameter.name] = schema;
      if (parameter.required) required.push(parameter.name);
    } else if (parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key') {
      route.idempotencyKey = true;
      properties[IDEMPOTENCY_KEY_ARGUMENT] = { ...schema, description: `Sent as the Idempotency-Key header. ${parameter.description ?? ''}`.trim() };
      if (parameter.required) required.push(IDEMPOTENCY_KEY_ARGUMENT);
    }
  }
  let closed = true;
  const body = operation.requestBody as RequestBodyObject | undefined;
  const bodySchema = body?.content?.['application/json']?.schema;
  if (bodySchema) {
    route.bodyRequired = body?.required === true;
    const named = objectSchema(converter, bodySchema);
    if (named && Object.keys(named.properties ?? {}).every((name) => !(name in properties))) {
      route.body = 'flat';
      for (const [name, property] of Object.entries(named.properties ?? {})) properties[name] = converter.convert(property, refs);
      if (route.bodyRequired) required.push(...(named.required ?? []));
      closed = named.additionalProperties === false;
    } else {
      route.body = 'nested';
      properties[BODY_ARGUMENT] = { ...converter.convert(bodySchema, refs), description: 'The JSON request body.' };
      if (route.bodyRequired) required.push(BODY_ARGUMENT);
    }
  }
  const schema: JsonSchema = { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: !closed };
  return { schema: converter.standalone(schema, refs), route };
}

/** The body schema when it is an object with named properties and no combinators, read through one component reference. */
function objectSchema(converter: SchemaConverter, schema: SchemaObject | { $ref: string }): SchemaObject | undefined {
  const resolved = '$ref' in schema ? converter.source(componentName(schema.$ref)) : schema;
  if (!resolved || resolved.type !== 'object' || !resolved.properties) return undefined;
  if (resolved.allOf || resolved.oneOf || resolved.anyOf || resolved.nullable) return undefined;
  return resolved;
}

/** `{operation_id, request_id, response}` with the operation's success answers, or `{operation_id, request_id, error}`. */
function buildOutput(converter: SchemaConverter, operationId: string, operation: OperationObject): JsonSchema {
  const refs = new Set<string>();
  const successes = Object.entries(operation.responses ?? {})
    .filter(([status]) => /^2\d\d$/.test(status))
    .map(([, response]) => {
      const schema = (response as ResponseObject).content?.['application/json']?.schema;
      return schema ? converter.convert(schema, refs) : { type: 'null' };
    });
  const unique = [...new Map(successes.map((schema) => [JSON.stringify(schema), schema])).values()];
  const response = unique.length === 1 ? unique[0] : { anyOf: unique.length ? unique : [{}] };
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
