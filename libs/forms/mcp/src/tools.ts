import { JsonSchema, OpenApiOperation, responseSchema, routeInput, SchemaConverter, SchemaObject, ToolRoute } from '@shared/mcp';
import { ARGUMENT_NAMES, FORMS_TOOLS, FormsToolSpec, IDEMPOTENCY_ARGUMENT, ResponseExtra, TOOL_PREFIX, ToolHints } from './catalogue';
import { TOOL_ERROR_SCHEMA } from './results';

/** The schema pack's parts a tool is built from (an OpenAPI 3.1 document). */
export interface FormsApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface FormsMcpTool {
  name: string;
  spec: FormsToolSpec;
  title: string;
  description: string;
  /** The scopes the route needs (from the document's security requirement). */
  scopes: string[];
  route: ToolRoute;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolHints & { title: string };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Components the output extras refer to. */
const FORM_SUMMARY = 'FormSummaryDto';
const VALIDATION_REPORT = 'ValidationReportDto';

/**
 * One tool per entry of the catalogue, over the route it names: input and output schemas from the schema pack's own
 * parameters, bodies and answers (the same validation the REST API runs), scopes from its security requirement.
 * A catalogue entry whose route the document lacks is a programming error: the first MCP request fails with it.
 */
export function buildFormsTools(document: FormsApiDocument): FormsMcpTool[] {
  const converter = new SchemaConverter((document.components?.schemas ?? {}) as Record<string, SchemaObject>);
  const operations = new Map<string, { method: string; path: string; operation: OpenApiOperation & { security?: Record<string, string[]>[] } }>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as (OpenApiOperation & { security?: Record<string, string[]>[] }) | undefined;
      if (operation?.operationId) operations.set(operation.operationId, { method, path, operation });
    }
  }
  return FORMS_TOOLS.map((spec) => {
    const found = operations.get(spec.operationId);
    if (!found) throw new Error(`MCP: the tool ${spec.tool} runs "${spec.operationId}", which the schema pack does not document.`);
    const options = { idempotencyArgument: IDEMPOTENCY_ARGUMENT, flattenUnions: true };
    // Read once without renamings for the route's own names (parameters and body fields).
    const restNames = Object.keys(routeInput(converter, found.method, found.path, found.operation, options).schema.properties as object);
    const input = routeInput(converter, found.method, found.path, found.operation, { ...options, names: renamingsFor(restNames) });
    const scopes = Object.values(found.operation.security?.[0] ?? {}).flat();
    const name = `${TOOL_PREFIX}_${spec.tool}`;
    return {
      name,
      spec,
      title: spec.title,
      description: scopes.length ? `${spec.description} Needs scope ${scopes.join(', ')}.` : spec.description,
      scopes,
      route: input.route,
      inputSchema: withoutPayment(adjustInput(input.schema, spec)),
      outputSchema: compactOutput(buildOutput(converter, name, found.operation, spec.extra)),
      annotations: { title: spec.title, ...spec.hints },
    };
  });
}

/**
 * The argument renamings of the names a route has, and only those: a route field already spelled like a tool argument
 * (moveField's body `stepId`) would otherwise be sent under the REST name other routes use (`step_id`).
 */
function renamingsFor(restNames: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(ARGUMENT_NAMES).filter(([restName]) => restNames.includes(restName)));
}

/** The tool's own required and omitted arguments applied to the route's input schema. */
function adjustInput(schema: JsonSchema, spec: FormsToolSpec): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const name of spec.omit ?? []) delete properties[name];
  const required = [...new Set([...((schema.required as string[] | undefined) ?? []), ...(spec.required ?? [])])].filter((name) => name in properties);
  return { ...schema, properties, ...(required.length ? { required } : {}) };
}

const PAYMENT_COMPONENT = /^PaymentField/;

/** Payment fields are not offered through MCP: their schemas and the `payment` type leave the input schemas. */
function withoutPayment(schema: JsonSchema): JsonSchema {
  const strip = (node: unknown, key?: string): unknown => {
    if (Array.isArray(node)) {
      const kept = node.filter(
        (item) =>
          !(
            item &&
            typeof item === 'object' &&
            PAYMENT_COMPONENT.test(
              String((item as JsonSchema).$ref ?? '')
                .split('/')
                .pop()!,
            )
          ),
      );
      return kept.map((item) => strip(item));
    }
    if (!node || typeof node !== 'object') return node;
    const out: JsonSchema = {};
    for (const [name, value] of Object.entries(node)) {
      if (key === '$defs' && PAYMENT_COMPONENT.test(name)) continue;
      if (name === 'enum' && Array.isArray(value)) out.enum = value.filter((item) => item !== 'payment');
      else out[name] = strip(value, name);
    }
    return out;
  };
  return strip(schema) as JsonSchema;
}

/** `{operation_id, response}` with the route's success answer (and the tool's extras), or `{operation_id, error}`. */
function buildOutput(converter: SchemaConverter, toolName: string, operation: OpenApiOperation, extra: ResponseExtra | undefined): JsonSchema {
  const refs = new Set<string>();
  const routeResponse = responseSchema(converter, operation, refs);
  const response = extra ? { allOf: [routeResponse, extraSchema(converter, extra, refs)] } : routeResponse;
  return converter.standalone(
    {
      type: 'object',
      additionalProperties: false,
      required: ['operation_id'],
      properties: {
        operation_id: { type: 'string', const: toolName },
        response: { ...response, description: 'The answer of the REST route the tool ran, with the tool’s additions.' },
        error: TOOL_ERROR_SCHEMA,
      },
      oneOf: [{ required: ['response'] }, { required: ['error'] }],
    },
    refs,
  );
}

/**
 * Output schemas name the draft schema and its steps and fields without spelling them out: written out they are up to
 * 40 KB per tool, which
 * every client would download (and an agent read) on each tools/list, while the answer itself shows the shape.
 */
const OPAQUE_OUTPUT_DEFS: Record<string, string> = {
  DraftSchema:
    'A draft or published form schema (steps, fields, settings, theme, workflow, quiz): its full JSON Schema is DraftSchema in /api/v1/openapi.json.',
  DraftSchemaInput: 'A form schema as a draft may be written: its full JSON Schema is DraftSchemaInput in /api/v1/openapi.json.',
  Step: 'A step of the form (id, title, fields): its full JSON Schema is Step in /api/v1/openapi.json.',
  Field: 'A field of the form (id, type, label and the type’s own properties): its full JSON Schema is Field in /api/v1/openapi.json.',
};

function compactOutput(schema: JsonSchema): JsonSchema {
  const defs: Record<string, JsonSchema> = { ...((schema.$defs as Record<string, JsonSchema> | undefined) ?? {}) };
  for (const [name, description] of Object.entries(OPAQUE_OUTPUT_DEFS)) if (defs[name]) defs[name] = { type: 'object', description };
  const reachable = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
        const name = value.slice('#/$defs/'.length);
        if (!reachable.has(name)) {
          reachable.add(name);
          visit(defs[name]);
        }
      } else if (key !== '$defs') visit(value);
    }
  };
  visit(schema);
  return { ...schema, $defs: Object.fromEntries(Object.entries(defs).filter(([name]) => reachable.has(name))) };
}

function extraSchema(converter: SchemaConverter, extra: ResponseExtra, refs: Set<string>): JsonSchema {
  const ref = (name: string) => converter.convert({ $ref: `#/components/schemas/${name}` }, refs);
  const form = { ...ref(FORM_SUMMARY), description: 'The form summary (the same object as data).' };
  const members: Record<ResponseExtra, Record<string, JsonSchema>> = {
    created_form: {
      form,
      draft_revision: { type: 'integer', minimum: 0, description: 'The draft revision to send with the next edit.' },
      draft_updated_at: { type: 'integer', description: 'When the draft last changed, in Unix seconds.' },
    },
    form_with_validation: { form, draftValidation: { ...ref(VALIDATION_REPORT), description: 'Whether the draft can be published, and why not.' } },
    published_form: { form, publicUrl: { type: 'string', format: 'uri', description: 'Where respondents fill in the form: give it to the user.' } },
  };
  return { type: 'object', required: Object.keys(members[extra]), properties: members[extra] };
}

/** The tool a call names: `postline_get_form`, or the dotted alias `postline.get_form`. */
export function findTool(tools: readonly FormsMcpTool[], name: string): FormsMcpTool | undefined {
  const canonical = name.startsWith(`${TOOL_PREFIX}.`) ? `${TOOL_PREFIX}_${name.slice(TOOL_PREFIX.length + 1)}` : name;
  return tools.find((tool) => tool.name === canonical);
}
