import type { OpenAPIObject, ParameterObject, ReferenceObject, RequestBodyObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { ApiMetadataDto } from './api-metadata.dto';
import { ApiOperationInfo, listApiOperations } from './api-operations';
import { UNAVAILABLE_FEATURES } from './unavailable-features';

type Schema = SchemaObject | ReferenceObject;

/** Links the llms files point at (from the API metadata). */
export type LlmsLinks = Pick<ApiMetadataDto, 'documentation_url' | 'openapi_url' | 'capabilities_url' | 'llms_url' | 'llms_full_url'> & {
  api_base_url: string;
  api_catalog_url: string;
};

/** `/llms.txt`: a short markdown map of the API (llms.txt convention), generated from the OpenAPI document. */
export function renderLlmsTxt(document: OpenAPIObject, links: LlmsLinks): string {
  const out = header(document, links, false);
  for (const [tag, operations] of byTag(document)) {
    out.push(`## ${tag}`, '');
    for (const op of operations) out.push(`- \`${op.method} ${op.path}\`: ${op.summary || op.operationId}${access(op)}`);
    out.push('');
  }
  out.push(
    '## Discovery',
    '',
    `- [OpenAPI document](${links.openapi_url}): the machine-readable description every list above is generated from`,
    `- [Capabilities](${links.capabilities_url}): the operations your credential can call right now (bearer credential required)`,
    `- [API catalog](${links.api_catalog_url}): RFC 9727 linkset pointing at the API and its descriptions`,
    `- [Documentation](${links.documentation_url}): guides for people`,
    '',
    '## Optional',
    '',
    `- [Full reference](${links.llms_full_url}): every operation with its parameters, request body and response fields`,
    '',
  );
  return out.join('\n');
}

/** `/llms-full.txt`: the same map plus parameters, request bodies and responses in readable form. */
export function renderLlmsFullTxt(document: OpenAPIObject, links: LlmsLinks): string {
  const out = header(document, links, true);
  const writer = new SchemaWriter(document.components?.schemas ?? {});
  const descriptions = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
  for (const [tag, operations] of byTag(document)) {
    out.push(`## ${tag}`, '');
    if (descriptions.get(tag)) out.push(descriptions.get(tag)!, '');
    for (const op of operations) out.push(...operationSection(op, writer));
  }
  const error = document.components?.schemas?.ErrorResponse;
  if (error) out.push('## Error body', '', 'Every non-2xx answer has this shape:', '', ...writer.fields(error, 0), '');
  return out.join('\n');
}

function header(document: OpenAPIObject, links: LlmsLinks, full: boolean): string[] {
  const publicOps = listApiOperations(document).filter((op) => op.isPublic);
  return [
    `# ${document.info.title}`,
    '',
    `> ${document.info.description}`,
    '',
    `Base URL: ${links.api_base_url} (every path below starts with /v1). API version: ${document.info.version}.`,
    full
      ? `This is the full reference; a shorter map is at ${links.llms_url}. The OpenAPI document is at ${links.openapi_url}.`
      : `The complete reference, with parameters and schemas, is at ${links.llms_full_url}.`,
    '',
    '## Authentication',
    '',
    '- Send `Authorization: Bearer <credential>` on every request. The credential is a workspace API key or an OAuth access token (authorization server metadata at `/.well-known/oauth-authorization-server`); either selects the workspace, so no workspace id is ever passed.',
    `- Public, no credential needed: ${publicOps.map((op) => `\`${op.method} ${op.path}\``).join(', ') || 'none'}.`,
    '- Each operation lists the scopes it needs. Without one the answer is 403 `permission_error` naming `missing_scopes` and the `replacement_scopes` a new key should have.',
    '- `GET /v1/capabilities` (any valid credential) returns the workspace, the credential and exactly the operations it can call now, plus any limitation that withholds others.',
    ...(UNAVAILABLE_FEATURES.length
      ? [
          `- Not offered by this server yet (their URLs answer 501 with the code in brackets): ${UNAVAILABLE_FEATURES.map(({ title, code }) => `${title} (\`${code}\`)`).join(', ')}.`,
        ]
      : []),
    '',
    '## Conventions',
    '',
    '- JSON in and out; send `Content-Type: application/json` with a body. Unknown request fields are rejected.',
    '- One record comes back as `{"data": {...}}`; a list as `{"data": [...], "pagination": {"has_more": bool, "next_cursor": string|null}}`. For the next page pass `next_cursor` unchanged as `starting_after`; `limit` is 1-100 (default 25).',
    '- Create and control operations accept an `Idempotency-Key` header: retrying with the same key and the same request returns the first successful answer instead of doing the work twice.',
    '- Errors are `{"error": {"type", "code", "message", ...}}`; branch on `code`, not on the message. 429 answers carry `Retry-After`.',
    '- Identifiers are opaque strings; timestamps are ISO 8601 in UTC. Every response echoes a request id in `x-request-id`.',
    '',
  ];
}

function access(op: ApiOperationInfo): string {
  if (op.isPublic) return ' (public)';
  return op.requiredScopes.length ? ` (scopes: ${op.requiredScopes.map((s) => `\`${s}\``).join(', ')})` : ' (any valid credential)';
}

/** Operations grouped by their first tag, in the document's tag order. */
function byTag(document: OpenAPIObject): Map<string, ApiOperationInfo[]> {
  const groups = new Map<string, ApiOperationInfo[]>((document.tags ?? []).map((tag) => [tag.name, []]));
  for (const op of listApiOperations(document)) {
    const tag = op.tags[0] ?? 'Other';
    if (!groups.has(tag)) groups.set(tag, []);
    groups.get(tag)!.push(op);
  }
  return new Map([...groups].filter(([, ops]) => ops.length));
}

function operationSection(op: ApiOperationInfo, writer: SchemaWriter): string[] {
  const { operation } = op;
  const out = [`### ${op.method} ${op.path}`, '', op.summary || op.operationId, ''];
  if (operation.description && operation.description !== op.summary) out.push(operation.description, '');
  out.push(`- Operation ID: \`${op.operationId}\``);
  out.push(
    `- Authentication: ${
      op.isPublic
        ? 'none (public)'
        : op.requiredScopes.length
          ? `bearer credential with ${op.requiredScopes.map((s) => `\`${s}\``).join(', ')}`
          : 'any valid bearer credential'
    }`,
    '',
  );
  const parameters = (operation.parameters ?? []).map((p) => writer.resolve<ParameterObject>(p));
  if (parameters.length) {
    out.push('Parameters:', '');
    for (const p of parameters) {
      const schema = p.schema ? writer.resolveSchema(p.schema) : undefined;
      out.push(
        `- \`${p.name}\` (${p.in}, ${schema ? writer.typeOf(schema) : 'string'}, ${p.required ? 'required' : 'optional'})${suffix(p.description, schema)}`,
      );
    }
    out.push('');
  }
  if (operation.requestBody) {
    const body = writer.resolve<RequestBodyObject>(operation.requestBody);
    for (const [mediaType, media] of Object.entries(body.content ?? {})) {
      out.push(`Request body (${mediaType}, ${body.required ? 'required' : 'optional'}):`, '');
      out.push(...(media.schema ? writer.fields(media.schema, 0) : ['- any content']), '');
    }
  }
  const errors: string[] = [];
  for (const [status, value] of Object.entries(operation.responses ?? {})) {
    if (!value) continue;
    const response = writer.resolve<ResponseObject>(value);
    if (Number(status) >= 400) {
      errors.push(`- ${status}: ${response.description || 'error'}`);
      continue;
    }
    const content = Object.entries(response.content ?? {});
    if (!content.length) {
      out.push(`Response ${status}: ${response.description || 'no body'}`, '');
      continue;
    }
    for (const [mediaType, media] of content) {
      out.push(`Response ${status} (${mediaType})${response.description ? `: ${response.description}` : ''}`, '');
      out.push(...(media.schema ? writer.fields(media.schema, 0) : ['- any content']), '');
    }
  }
  if (errors.length) out.push('Errors (body as in "Error body" below):', '', ...errors, '');
  return out;
}

function suffix(description: string | undefined, schema?: SchemaObject): string {
  const notes = [description, schema ? constraints(schema) : ''].filter(Boolean).join(' ');
  return notes ? `: ${notes}` : '';
}

function constraints(schema: SchemaObject): string {
  const parts: string[] = [];
  if (schema.enum) parts.push(`One of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}.`);
  if (schema.minimum !== undefined || schema.maximum !== undefined) parts.push(`Range ${schema.minimum ?? '…'}-${schema.maximum ?? '…'}.`);
  if (schema.minLength !== undefined) parts.push(`At least ${schema.minLength} characters.`);
  if (schema.maxLength !== undefined) parts.push(`At most ${schema.maxLength} characters.`);
  if (schema.pattern) parts.push(`Pattern \`${schema.pattern}\`.`);
  if (schema.default !== undefined) parts.push(`Default \`${JSON.stringify(schema.default)}\`.`);
  if (schema.example !== undefined) parts.push(`Example \`${JSON.stringify(schema.example)}\`.`);
  return parts.join(' ');
}

const MAX_DEPTH = 6;

/** Renders schemas as nested markdown lists, following $refs into components (cycles cut). */
class SchemaWriter {
  constructor(private readonly components: Record<string, Schema>) {}

  resolve<T extends object>(value: T | ReferenceObject): T {
    let current: unknown = value;
    for (let hops = 0; hops < 10 && current && typeof current === 'object' && '$ref' in current; hops++) {
      const ref = (current as ReferenceObject).$ref;
      const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(ref) ?? [];
      current = section === 'schemas' ? this.components[name] : undefined;
      if (!current) return { description: `(unresolved ${ref})` } as T;
    }
    return current as T;
  }

  resolveSchema(schema: Schema): SchemaObject {
    const resolved = this.resolve<SchemaObject>(schema);
    if (!resolved.allOf) return resolved;
    // allOf: merge the parts (swagger wraps a nullable $ref as {nullable, allOf:[{$ref}]}).
    const parts = resolved.allOf.map((part) => this.resolveSchema(part));
    const merged: SchemaObject = { ...resolved, allOf: undefined, properties: {}, required: [] };
    for (const part of parts) {
      merged.type ??= part.type;
      merged.description ??= part.description;
      merged.enum ??= part.enum;
      merged.items ??= part.items;
      Object.assign(merged.properties!, part.properties);
      merged.required!.push(...(part.required ?? []));
    }
    Object.assign(merged.properties!, resolved.properties);
    merged.required!.push(...(resolved.required ?? []));
    return merged;
  }

  private refName(schema: Schema): string | undefined {
    if ('$ref' in schema) return schema.$ref.split('/').pop();
    if (schema.allOf?.length === 1 && '$ref' in schema.allOf[0]) return schema.allOf[0].$ref.split('/').pop();
    return undefined;
  }

  typeOf(schema: SchemaObject): string {
    const nullable = schema.nullable ? ' or null' : '';
    if (schema.oneOf || schema.anyOf) {
      const variants = (schema.oneOf ?? schema.anyOf)!.map((v) => this.refName(v) ?? this.typeOf(this.resolveSchema(v)));
      return `one of ${variants.join(' | ')}${nullable}`;
    }
    if (schema.type === 'array' && schema.items) {
      const items = this.resolveSchema(schema.items);
      return `array of ${this.typeOf(items)}${nullable}`;
    }
    const type = String(schema.type ?? (schema.properties ? 'object' : 'any'));
    return `${type}${schema.format ? ` (${schema.format})` : ''}${nullable}`;
  }

  /** The fields of a schema as list lines; a non-object schema becomes a single line. */
  fields(schema: Schema, indent: number, trail: readonly string[] = []): string[] {
    const name = this.refName(schema);
    if (name && trail.includes(name)) return [`${pad(indent)}- (${name}, as above)`];
    const nextTrail = name ? [...trail, name] : trail;
    const resolved = this.resolveSchema(schema);
    if (resolved.oneOf || resolved.anyOf) {
      const variants = (resolved.oneOf ?? resolved.anyOf)!;
      return variants.flatMap((variant, index) => [
        `${pad(indent)}- Variant ${index + 1}${this.refName(variant) ? ` (${this.refName(variant)})` : ''}:`,
        ...this.fields(variant, indent + 1, nextTrail),
      ]);
    }
    if (resolved.type === 'array' && resolved.items) {
      const items = this.resolveSchema(resolved.items);
      const line = `${pad(indent)}- ${this.typeOf(resolved)}`;
      return items.properties && nextTrail.length < MAX_DEPTH ? [line, ...this.fields(resolved.items, indent + 1, nextTrail)] : [line];
    }
    if (!resolved.properties || !Object.keys(resolved.properties).length) {
      const open = resolved.additionalProperties ? ' (any keys)' : '';
      return [`${pad(indent)}- ${this.typeOf(resolved)}${open}${suffix(resolved.description, resolved)}`];
    }
    const required = new Set(resolved.required ?? []);
    const out: string[] = [];
    for (const [key, property] of Object.entries(resolved.properties)) {
      const child = this.resolveSchema(property);
      const description = child.description ?? ('$ref' in property ? undefined : property.description);
      out.push(`${pad(indent)}- \`${key}\` (${this.typeOf(child)}, ${required.has(key) ? 'required' : 'optional'})${suffix(description, child)}`);
      const nested = child.type === 'array' && child.items ? this.resolveSchema(child.items) : child;
      const hasChildren = Boolean(nested.properties && Object.keys(nested.properties).length) || Boolean(child.oneOf || child.anyOf);
      if (hasChildren && nextTrail.length < MAX_DEPTH) {
        const target = child.type === 'array' && child.items ? child.items : property;
        out.push(...this.fields(target, indent + 1, nextTrail));
      }
    }
    return out;
  }
}

function pad(indent: number): string {
  return '  '.repeat(indent);
}
