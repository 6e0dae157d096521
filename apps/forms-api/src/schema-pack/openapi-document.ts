import { INestApplication, Type } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';
import { PUBLIC_ROUTE, REQUIRED_SCOPES } from '@shared/auth';
import type { AppConfig } from '@shared/config';
import { FORMS_SCOPES } from '@forms/accounts';
import { COMPONENT_REF_PREFIX, draftJsonSchemas, type JsonSchema } from '@forms/draft-schema';
import { InsertPositionDto, RevisionGuardDto } from '@forms/forms';
import { SubmissionInputDto, UploadedFileDto } from '@forms/submissions';
import { AUTHENTICATED_ERRORS, ErrorResponseDto } from './error-response';

export const OPENAPI_VERSION = '3.1.0';
export const API_TITLE = 'Postline Forms API';
export const SECURITY_SCHEME = 'ApiKey';
/** The pack covers the API-key surface; the hosted pages and public submission endpoints live elsewhere. */
export const PACK_PREFIX = '/api/v1';
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface DocumentedOperation {
  method: (typeof HTTP_METHODS)[number];
  path: string;
  operation: OperationObject;
}

/** Who may call an operation, read from the metadata the guards enforce (handler first, then class). */
export interface OperationAccess {
  isPublic: boolean;
  scopes: string[];
}

/**
 * Request bodies that hold a draft part and the edit's control members side by side (`splitEditBody` reads both):
 * the part's properties and the control DTO's are merged into one object schema (into each branch of a `oneOf`).
 */
const EDIT_BODIES: Record<string, [part: string, controls: string]> = {
  AddStepRequest: ['StepInput', InsertPositionDto.name],
  StepPatchRequest: ['StepPatch', RevisionGuardDto.name],
  AddFieldRequest: ['FieldInput', InsertPositionDto.name],
  FieldPatchRequest: ['FieldPatch', RevisionGuardDto.name],
};

const TAGS = [
  { name: 'Account', description: 'Check an API key and whom it belongs to.' },
  { name: 'Workspaces', description: "The key owner's workspaces, and where new forms go." },
  { name: 'Forms', description: 'Create, read, change, publish, close and delete forms.' },
  { name: 'Draft editing', description: 'Change one step, field, step logic or the theme of a draft; every write returns the new draft_revision.' },
  { name: 'Submissions', description: 'Submit answers to a published form and read what was submitted.' },
  { name: 'Schema pack', description: 'This document.' },
];

const operationId = (controllerKey: string, methodKey: string) => `${controllerKey}_${methodKey}`;

/** Reads `@Public()` and `@RequireScopes()` of every route handler, keyed by its operationId. */
export function collectOperationAccess(modules: ModulesContainer): Map<string, OperationAccess> {
  const scanner = new MetadataScanner();
  const access = new Map<string, OperationAccess>();
  for (const module of modules.values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      const prototype = (metatype as Type<unknown>).prototype as Record<string, object>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const read = <T>(key: string) => (Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, metatype)) as T | undefined;
        const id =
          (Reflect.getMetadata('swagger/apiOperation', handler) as { operationId?: string } | undefined)?.operationId ?? operationId(metatype.name, name);
        if (access.has(id)) throw new Error(`OpenAPI: operationId "${id}" belongs to two route handlers.`);
        const required = read<string[]>(REQUIRED_SCOPES) ?? [];
        access.set(id, { isPublic: read<boolean>(PUBLIC_ROUTE) === true, scopes: FORMS_SCOPES.filter((scope) => required.includes(scope)) });
      }
    }
  }
  return access;
}

/** Generates the schema pack: the OpenAPI 3.1 document of the `/api/v1` surface, from the controllers, DTOs and zod models. */
export function createFormsOpenApiDocument(app: INestApplication, config: Pick<AppConfig, 'formsPublicBaseUrl'>): OpenAPIObject {
  const base = new DocumentBuilder()
    .setTitle(API_TITLE)
    .setDescription(
      'Create, edit, publish and read forms and their submissions with an API key. Every draft write takes an optional ' +
        '`draft_revision` and answers with the new one; a stale revision is a 409. Field types and their properties are ' +
        'in the `Field` schema (one schema per `type`).',
    )
    .setVersion('v1')
    .addServer(config.formsPublicBaseUrl, 'This deployment')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key sent as "Authorization: Bearer <key>".' }, SECURITY_SCHEME)
    .build();
  const generated = SwaggerModule.createDocument(app, base, {
    operationIdFactory: operationId,
    extraModels: [ErrorResponseDto, RevisionGuardDto, InsertPositionDto, SubmissionInputDto, UploadedFileDto],
  });
  const document = toOpenApi31(generated);
  document.paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => path === PACK_PREFIX || path.startsWith(`${PACK_PREFIX}/`)));
  addDraftSchemas(document);
  secureOperations(document, collectOperationAccess(app.get(ModulesContainer)));
  document.tags = TAGS.filter((tag) => documentedOperations(document).some(({ operation }) => operation.tags?.includes(tag.name)));
  return document;
}

/** Every operation of the document, in path order. */
export function documentedOperations(document: OpenAPIObject): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => (item[method] ? [{ method, path, operation: item[method] }] : [])),
  );
}

/** The zod models' components, and the edit bodies composed from them and the control DTOs. */
function addDraftSchemas(document: OpenAPIObject): void {
  const schemas = document.components!.schemas as Record<string, JsonSchema>;
  for (const [name, schema] of Object.entries(draftJsonSchemas())) {
    if (schemas[name]) throw new Error(`OpenAPI: the draft schema component "${name}" clashes with a DTO of that name.`);
    schemas[name] = schema;
  }
  const resolve = (schema: JsonSchema) => (typeof schema.$ref === 'string' ? schemas[schema.$ref.slice(COMPONENT_REF_PREFIX.length)] : schema);
  const withMembers = (schema: JsonSchema, members: Record<string, JsonSchema>): JsonSchema => {
    const { discriminator: _mapping, ...rest } = schema;
    if (Array.isArray(schema.oneOf)) return { ...rest, oneOf: (schema.oneOf as JsonSchema[]).map((branch) => withMembers(resolve(branch), members)) };
    return { ...schema, properties: { ...(schema.properties as Record<string, JsonSchema>), ...members } };
  };
  for (const [name, [part, controls]] of Object.entries(EDIT_BODIES)) {
    schemas[name] = withMembers(schemas[part], schemas[controls].properties as Record<string, JsonSchema>);
  }
  for (const controls of new Set(Object.values(EDIT_BODIES).map(([, controls]) => controls))) delete schemas[controls];
}

/**
 * Public operations get an empty `security`; the others the bearer key with their scopes and the answers every key
 * check may give (403 only where a scope is needed). Success answers without a description get the status text.
 */
function secureOperations(document: OpenAPIObject, access: Map<string, OperationAccess>): void {
  for (const { method, path, operation } of documentedOperations(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (response && 'description' in response && !response.description) response.description = STATUS_CODES[status] ?? status;
    }
    const route = access.get(operation.operationId ?? '');
    if (!route) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} has no route handler with operationId "${operation.operationId}".`);
    if (route.isPublic) {
      operation.security = [];
      continue;
    }
    operation.security = [{ [SECURITY_SCHEME]: route.scopes }];
    const needs = route.scopes.length ? `Needs an API key with ${route.scopes.map((scope) => `\`${scope}\``).join(', ')}.` : 'Needs an API key (any scope).';
    operation.description = operation.description ? `${operation.description}\n\n${needs}` : needs;
    const errors = Object.entries(AUTHENTICATED_ERRORS).filter(([status]) => !operation.responses[status] && (status !== '403' || route.scopes.length));
    operation.responses = { ...operation.responses, ...Object.fromEntries(errors) };
  }
}

/**
 * @nestjs/swagger writes OpenAPI 3.0 schemas; 3.1 uses JSON Schema 2020-12, where `nullable` is gone:
 * a nullable type gains `null`, a nullable reference becomes `anyOf` with `{type: null}`.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const convert = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(convert);
    if (typeof node !== 'object' || node === null) return node;
    const { nullable, ...rest }: JsonSchema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, convert(value)]));
    if (nullable !== true) return rest;
    if (typeof rest.type === 'string' && rest.type !== 'object') {
      return { ...rest, type: [rest.type, 'null'], ...(Array.isArray(rest.enum) ? { enum: [...(rest.enum as unknown[]), null] } : {}) };
    }
    const { description, allOf, type: _object, ...schema } = rest;
    const target =
      Array.isArray(allOf) && allOf.length === 1 && Object.keys(schema).length === 0 ? (allOf[0] as JsonSchema) : { ...schema, ...(allOf ? { allOf } : {}) };
    return { ...(description ? { description } : {}), anyOf: [target, { type: 'null' }] };
  };
  return { ...(convert(document) as OpenAPIObject), openapi: OPENAPI_VERSION };
}
