import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, RequestBodyObject } from '@nestjs/swagger';
import { COMMON_FIELD_PROPERTIES, FIELD_CATALOGUE, FIELD_TYPES } from '@forms/draft-schema';
import { documentedOperations, SECURITY_SCHEME } from './openapi-document';

/** Where the pack is served, relative to the forms host. */
export const PACK_PATHS = { yaml: '/openapi.yaml', json: '/api/v1/openapi.json', llms: '/llms.txt', apiDocs: '/api-docs.txt' } as const;

const scopesOf = (operation: OperationObject): string[] | undefined =>
  operation.security?.find((requirement) => SECURITY_SCHEME in requirement)?.[SECURITY_SCHEME];

function accessLine(operation: OperationObject): string {
  const scopes = scopesOf(operation);
  if (!scopes) return 'no key needed';
  return scopes.length ? `scopes: ${scopes.join(', ')}` : 'any key';
}

const links = (baseUrl: string) => [
  `- OpenAPI 3.1 (YAML): ${baseUrl}${PACK_PATHS.yaml}`,
  `- OpenAPI 3.1 (JSON): ${baseUrl}${PACK_PATHS.json}`,
  `- Plain-text reference: ${baseUrl}${PACK_PATHS.apiDocs}`,
];

/** A short guide for agents: what the service is, how to authenticate, the main flows, and where the pack is. */
export function renderLlmsTxt(document: OpenAPIObject, baseUrl: string): string {
  return [
    `# ${document.info.title}`,
    '',
    `> Build forms, publish them as hosted pages (${baseUrl}/f/<public_id>) and read their submissions over JSON at ${baseUrl}/api/v1.`,
    '',
    '## Authentication',
    '',
    'Send `Authorization: Bearer <API key>` on every /api/v1 call. A key belongs to an account; each call also needs the',
    "key's scopes and a workspace role that allows it. `GET /api/v1/me` checks a key and lists its scopes.",
    '',
    '## Main flows',
    '',
    '1. Create: `POST /api/v1/forms` with a `title` (or a whole `draftSchema`). Keep `data.id` and `data.draft_revision`.',
    '2. Edit the draft: add steps (`POST .../steps`) and fields (`POST .../steps/{step_id}/fields`); send the latest',
    '   `draft_revision` with every write and take the new one from the answer. A 409 `stale_draft_revision` means: reload',
    '   with `GET /api/v1/forms/{form_id}`, reapply the change.',
    '3. Publish: `POST /api/v1/forms/{form_id}/publish`. A 400 `draft_not_publishable` lists what is missing in `issues`.',
    '   The answer has `public_url`, the hosted form to share.',
    '4. Read answers: `GET /api/v1/forms/{form_id}/submissions` (oldest first, `after` = ISO timestamp to read on).',
    '',
    `Field types (the \`type\` of a field; properties per type in the \`Field\` schema): ${FIELD_TYPES.join(', ')}.`,
    '',
    '## Agents (MCP)',
    '',
    `MCP clients connect to ${baseUrl}/api/mcp (streamable HTTP; for stdio, \`postline-forms-mcp --url ${baseUrl}\` with the key in`,
    'POSTLINE_API_KEY). Listing tools needs no credential; calling one needs the API key as a bearer token. Tools are named',
    '`postline_<verb>_<noun>` (the dotted `postline.<verb>_<noun>` is accepted too) and run the operations below; start with',
    '`postline_list_workspaces`.',
    '',
    '## Operations',
    '',
    ...documentedOperations(document).map(
      ({ method, path, operation }) => `- ${method.toUpperCase()} ${path}: ${operation.summary ?? ''} (${accessLine(operation)})`,
    ),
    '',
    '## Schema pack',
    '',
    ...links(baseUrl),
    '',
    'Errors are always `{"error": {"type", "code", "message", "details"?, ...}}`; match on `code` (listed in the `ErrorBody` schema).',
    '',
  ].join('\n');
}

const refName = (schema: unknown) => ((schema as ReferenceObject | undefined)?.$ref ?? '').split('/').pop();

function describeRequest(operation: OperationObject): string[] {
  const parameters = ((operation.parameters ?? []) as ParameterObject[]).map(
    (parameter) =>
      `    ${parameter.in} ${parameter.name}${parameter.required ? ' (required)' : ''}${parameter.description ? `: ${parameter.description}` : ''}`,
  );
  const body = (operation.requestBody as RequestBodyObject | undefined)?.content?.['application/json']?.schema;
  return [...parameters, ...(body ? [`    body: ${refName(body) || 'JSON object'} (see the schema of that name)`] : [])];
}

function describeResponses(operation: OperationObject): string {
  return Object.entries(operation.responses)
    .map(([status, response]) => {
      const schema = (response as { content?: Record<string, { schema?: unknown }> }).content?.['application/json']?.schema;
      return schema && refName(schema) ? `${status} ${refName(schema)}` : status;
    })
    .join(', ');
}

/** The whole surface in plain text: every operation with its inputs and answers, then the field catalogue. */
export function renderApiDocsTxt(document: OpenAPIObject, baseUrl: string): string {
  const catalogue = FIELD_TYPES.flatMap((type) => [
    `${type}: ${FIELD_CATALOGUE[type].description}`,
    ...Object.entries(FIELD_CATALOGUE[type].properties).map(
      ([name, doc]) => `    ${name}: ${doc.description}${doc.default === undefined ? '' : ` Default ${JSON.stringify(doc.default)}.`}`,
    ),
  ]);
  return [
    `${document.info.title} ${document.info.version}`,
    '',
    document.info.description ?? '',
    '',
    `Base URL: ${baseUrl}`,
    'Authentication: Authorization: Bearer <API key>.',
    '',
    'OPERATIONS',
    '',
    ...documentedOperations(document).flatMap(({ method, path, operation }) => [
      `${method.toUpperCase()} ${path}  [${operation.operationId}]`,
      `    ${operation.summary ?? ''} (${accessLine(operation)})`,
      ...describeRequest(operation),
      `    answers: ${describeResponses(operation)}`,
      '',
    ]),
    'FIELD TYPES',
    '',
    'Every field has:',
    ...Object.entries(COMMON_FIELD_PROPERTIES).map(([name, doc]) => `    ${name}: ${doc.description}`),
    '',
    ...catalogue,
    '',
    'SCHEMA PACK',
    '',
    ...links(baseUrl),
    '',
  ].join('\n');
}
