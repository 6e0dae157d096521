import { componentName, JsonSchema, SchemaConverter } from './json-schema';

/** The parts of an OpenAPI operation a tool is built from (3.0 and 3.1 read alike here). */
export interface OpenApiOperation {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
}

/**
 * How a tool's arguments become the REST request: path parameters fill the path template, query parameters the query
 * string, the idempotency argument the `Idempotency-Key` header, and the remaining arguments the JSON body. When the
 * body schema is an object with named properties that clash with no parameter, its properties are arguments
 * themselves ("flat"); otherwise the body is the one argument `body` ("nested"). `names` renames REST names (path and
 * query parameters, body fields) to the tool's argument names; the REST spelling is accepted too.
 */
export interface ToolRoute {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  idempotencyKey: boolean;
  body: 'none' | 'flat' | 'nested';
  bodyRequired: boolean;
  /** The tool argument that carries the Idempotency-Key header. */
  idempotencyArgument: string;
  /** REST name → tool argument name, where they differ. */
  names: Record<string, string>;
}

export interface RouteInputOptions {
  /** The tool argument that carries the Idempotency-Key header (`idempotency_key` unless named). */
  idempotencyArgument?: string;
  /** REST name → tool argument name. */
  names?: Record<string, string>;
  /**
   * Offer a body that is one of several object shapes (`oneOf`/`anyOf`) as flat arguments too: the union of the
   * shapes' properties (constants joined into an enum), open to anything else; the REST validation judges the shape.
   */
  flattenUnions?: boolean;
}

/** The tool argument that carries a request body that is not an object with named properties (or whose names clash). */
export const BODY_ARGUMENT = 'body';

/** A tool's input schema and argument mapping, from its REST operation's parameters and request body. */
export function routeInput(
  converter: SchemaConverter,
  method: string,
  path: string,
  operation: OpenApiOperation,
  options: RouteInputOptions = {},
): { schema: JsonSchema; route: ToolRoute } {
  const names = options.names ?? {};
  const rename = (name: string) => names[name] ?? name;
  const refs = new Set<string>();
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const route: ToolRoute = {
    method: method.toUpperCase(),
    path,
    pathParams: [],
    queryParams: [],
    idempotencyKey: false,
    body: 'none',
    bodyRequired: false,
    idempotencyArgument: options.idempotencyArgument ?? 'idempotency_key',
    names,
  };
  for (const parameter of (operation.parameters ?? []) as Parameter[]) {
    const schema = { ...converter.convert(parameter.schema, refs), ...(parameter.description ? { description: parameter.description } : {}) };
    if (parameter.in === 'path') {
      route.pathParams.push(parameter.name);
      properties[rename(parameter.name)] = schema;
      required.push(rename(parameter.name));
    } else if (parameter.in === 'query') {
      route.queryParams.push(parameter.name);
      properties[rename(parameter.name)] = schema;
      if (parameter.required) required.push(rename(parameter.name));
    } else if (parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key') {
      route.idempotencyKey = true;
      properties[route.idempotencyArgument] = { ...schema, description: `Sent as the Idempotency-Key header. ${parameter.description ?? ''}`.trim() };
      if (parameter.required) required.push(route.idempotencyArgument);
    }
  }
  let closed = true;
  const body = operation.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined;
  const bodySchema = body?.content?.['application/json']?.schema;
  if (bodySchema) {
    route.bodyRequired = body?.required === true;
    const named = objectSchema(converter, bodySchema) ?? (options.flattenUnions ? unionObject(converter, bodySchema) : undefined);
    const fields = Object.keys((named?.properties as object | undefined) ?? {});
    if (named && fields.every((name) => !(rename(name) in properties))) {
      route.body = 'flat';
      for (const [name, property] of Object.entries(named.properties as Record<string, unknown>)) properties[rename(name)] = converter.convert(property, refs);
      if (route.bodyRequired) required.push(...((named.required as string[] | undefined) ?? []).map(rename));
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
function objectSchema(converter: SchemaConverter, schema: JsonSchema): JsonSchema | undefined {
  const resolved = typeof schema.$ref === 'string' ? converter.source(componentName(schema.$ref)) : schema;
  if (!resolved || resolved.type !== 'object' || !resolved.properties) return undefined;
  if (resolved.allOf || resolved.oneOf || resolved.anyOf || resolved.nullable) return undefined;
  return resolved;
}

/** One object schema holding the properties of every object branch of a `oneOf`/`anyOf` body (undefined for other bodies). */
function unionObject(converter: SchemaConverter, schema: JsonSchema): JsonSchema | undefined {
  const resolve = (node: JsonSchema) => (typeof node.$ref === 'string' ? converter.source(componentName(node.$ref)) : node);
  const union = resolve(schema);
  const branches = ((union?.oneOf ?? union?.anyOf) as JsonSchema[] | undefined)?.map(resolve);
  if (!branches?.length || branches.some((branch) => !branch?.properties)) return undefined;
  const properties: Record<string, JsonSchema> = {};
  for (const branch of branches as JsonSchema[]) {
    for (const [name, property] of Object.entries(branch.properties as Record<string, JsonSchema>)) {
      const known = properties[name];
      if (!known) properties[name] = property;
      else if ('const' in property && ('const' in known || Array.isArray(known.enum))) {
        const { const: first, ...rest } = known;
        properties[name] = { ...rest, enum: [...((known.enum as unknown[]) ?? [first]), property.const] };
      }
    }
  }
  const required = (branches as JsonSchema[])
    .map((branch) => (branch.required as string[] | undefined) ?? [])
    .reduce((all, names) => all.filter((name) => names.includes(name)));
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** The schema of an operation's success answers (null for one without a JSON body), recording the components it uses. */
export function responseSchema(converter: SchemaConverter, operation: OpenApiOperation, refs: Set<string>): JsonSchema {
  const successes = Object.entries(operation.responses ?? {})
    .filter(([status]) => /^2\d\d$/.test(status))
    .map(([, response]) => {
      const schema = (response as { content?: Record<string, { schema?: unknown }> }).content?.['application/json']?.schema;
      return schema ? converter.convert(schema, refs) : { type: 'null' };
    });
  const unique = [...new Map(successes.map((schema) => [JSON.stringify(schema), schema])).values()];
  return unique.length === 1 ? unique[0] : { anyOf: unique.length ? unique : [{}] };
}

/** One in-process REST request a tool call makes. */
export interface RouteRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** The answer of an in-process REST request. */
export interface RouteResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** An argument a tool call cannot place, named in `argument` (its tool name). */
export class ToolArgumentError extends Error {
  constructor(
    message: string,
    readonly argument: string,
  ) {
    super(message);
  }
}

const scalar = (value: unknown): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value);

/** `value` percent-encoded for a path; text with an unpaired surrogate, which no URL can carry, is the argument's error. */
function pathSegment(value: string, argument: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    throw new ToolArgumentError(`${argument} contains an unpaired surrogate, which a path cannot carry.`, argument);
  }
}

/** The REST request of a tool call (see ToolRoute for the mapping); throws ToolArgumentError for arguments it cannot place. */
export function toRouteRequest(route: ToolRoute, args: Record<string, unknown>): RouteRequest {
  const used = new Set<string>();
  /** The argument's value under its tool name, else its REST name. */
  const take = (restName: string): unknown => {
    const toolName = route.names[restName] ?? restName;
    used.add(toolName).add(restName);
    return args[toolName] !== undefined ? args[toolName] : args[restName];
  };
  let path = route.path;
  for (const name of route.pathParams) {
    const value = take(name);
    const argument = route.names[name] ?? name;
    if (!scalar(value) || value === '') throw new ToolArgumentError(`${argument} is required.`, argument);
    path = path.replace(`{${name}}`, pathSegment(String(value), argument));
  }
  const query = new URLSearchParams();
  for (const name of route.queryParams) {
    const value = take(name);
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (!scalar(item)) throw new ToolArgumentError(`${route.names[name] ?? name} must be a string, number or boolean.`, route.names[name] ?? name);
      query.append(name, String(item));
    }
  }
  const headers: Record<string, string> = {};
  const key = args[route.idempotencyArgument];
  if (route.idempotencyKey && key !== undefined) {
    if (typeof key !== 'string') throw new ToolArgumentError(`${route.idempotencyArgument} must be a string.`, route.idempotencyArgument);
    headers['idempotency-key'] = key;
    used.add(route.idempotencyArgument);
  }
  let body: unknown;
  if (route.body === 'nested') {
    used.add(BODY_ARGUMENT);
    body = args[BODY_ARGUMENT];
  } else if (route.body === 'flat') {
    // Every other argument belongs to the body, under its REST name; the REST validation judges unknown or bad ones.
    const restNames = Object.fromEntries(Object.entries(route.names).map(([rest, tool]) => [tool, rest]));
    const fields = Object.entries(args).filter(([name]) => !used.has(name));
    fields.forEach(([name]) => used.add(name));
    body = fields.length || route.bodyRequired ? Object.fromEntries(fields.map(([name, value]) => [restNames[name] ?? name, value])) : undefined;
  }
  const unknown = Object.keys(args).filter((name) => !used.has(name));
  if (unknown.length) throw new ToolArgumentError(`Unknown argument(s): ${unknown.join(', ')}.`, unknown[0]);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const search = query.toString();
  return { method: route.method, url: search ? `${path}?${search}` : path, headers, ...(body !== undefined ? { body } : {}) };
}
