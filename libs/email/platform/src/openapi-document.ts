import { applyDecorators, INestApplication, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { ApiResponse, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject, OperationObject, ResponseObject, ResponsesObject, SchemaObject, TagObject } from '@nestjs/swagger';
import { PUBLIC_ROUTE, REQUIRED_SCOPES } from '@shared/auth';
import { AppConfig } from '@shared/config';
import { canonicalScopes } from '@email/access';
import { API_RESOURCE_GROUPS } from './api-resources';
import { API_VERSION } from './api-metadata';

/**
 * OpenAPI 3.0.3, not 3.1: @nestjs/swagger 11 lets us stamp "3.1.0" on the document but still emits
 * 3.0-style schemas (`nullable: true`, boolean `exclusiveMinimum`), which a 3.1 reader ignores or rejects.
 */
export const OPENAPI_VERSION = '3.0.3';
export const SECURITY_SCHEME = 'WorkspaceApiKey';
/** Extension on every authenticated operation: the scopes a credential needs, in canonical order. */
export const REQUIRED_SCOPES_EXTENSION = 'x-required-scopes';
export const API_TITLE = 'Postline Email Marketing API';
const ERROR_SCHEMA = 'ErrorResponse';
const ERROR_CONTENT = { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` } } };
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type ApiDocumentOperation = OperationObject & { [REQUIRED_SCOPES_EXTENSION]?: string[] };

/** Who may call a route, read from the same metadata the guards enforce. */
export interface RouteAccess {
  handler: string;
  isPublic: boolean;
  requiredScopes: string[];
}

/** What @nestjs/swagger names an operation that has no explicit operationId. */
export const defaultOperationId = (controllerKey: string, methodKey: string): string => (controllerKey ? `${controllerKey}_${methodKey}` : methodKey);

/** Reads `@Public()` and `@RequireScopes()` of every route handler (handler first, then class, as the guards do), keyed by operationId. */
export function collectRouteAccess(modules: ModulesContainer): Map<string, RouteAccess[]> {
  const scanner = new MetadataScanner();
  const byOperationId = new Map<string, RouteAccess[]>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const metatype = wrapper.metatype as Type<unknown> | null;
      const instance = wrapper.instance as object | undefined;
      if (!metatype || !instance) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, object>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const operationId: string =
          (Reflect.getMetadata('swagger/apiOperation', handler) as { operationId?: string } | undefined)?.operationId ??
          defaultOperationId(instance.constructor.name, name);
        const read = <T>(key: string) => (Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, metatype)) as T | undefined;
        const access: RouteAccess = {
          handler: `${metatype.name}.${name}`,
          isPublic: read<boolean>(PUBLIC_ROUTE) === true,
          requiredScopes: canonicalScopes(read<string[]>(REQUIRED_SCOPES) ?? []),
        };
        byOperationId.set(operationId, [...(byOperationId.get(operationId) ?? []), access]);
      }
    }
  }
  return byOperationId;
}

/** Generates the app's OpenAPI document from its controllers and DTOs, then applies security and scopes. */
export function createOpenApiDocument(app: INestApplication, config: Pick<AppConfig, 'publicBaseUrl' | 'docsBaseUrl'>): OpenAPIObject {
  const base = new DocumentBuilder()
    .setOpenAPIVersion(OPENAPI_VERSION)
    .setTitle(API_TITLE)
    .setDescription(
      'Workspace-scoped REST API for subscribers, tags, custom fields, content, sending and webhooks. ' +
        'Every path is versioned under /v1; every call except the public discovery documents needs a bearer credential.',
    )
    .setVersion(API_VERSION)
    .addServer(config.publicBaseUrl, 'This deployment')
    .setExternalDoc('Documentation', config.docsBaseUrl)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'Bearer Credential',
        description: 'A workspace API key sent as "Authorization: Bearer <key>".',
      },
      SECURITY_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, base, { operationIdFactory: defaultOperationId });
  return finalizeDocument(document, collectRouteAccess(app.get(ModulesContainer)));
}

/**
 * Marks each operation public (no `security`) or bearer-protected with its required scopes, documents
 * the 401/403 answers of protected operations, and lists the tags in use. Fails on a duplicate or
 * unmapped operationId, because clients address operations by it.
 */
export function finalizeDocument(document: OpenAPIObject, access: Map<string, RouteAccess[]>): OpenAPIObject {
  const seen = new Map<string, string>();
  const tags: string[] = [];
  let protectedOperations = 0;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation: ApiDocumentOperation | undefined = item[method];
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const id = operation.operationId;
      if (!id) throw new Error(`OpenAPI: ${where} has no operationId.`);
      if (seen.has(id)) throw new Error(`OpenAPI: operationId "${id}" is used by both ${seen.get(id)} and ${where}.`);
      seen.set(id, where);
      const candidates = access.get(id) ?? [];
      if (candidates.length !== 1) {
        const handlers = candidates.map((c) => c.handler).join(', ') || 'no handler';
        throw new Error(`OpenAPI: operationId "${id}" (${where}) must belong to exactly one route handler (found: ${handlers}).`);
      }
      const [route] = candidates;
      for (const tag of operation.tags ?? []) if (!tags.includes(tag)) tags.push(tag);
      if (route.isPublic) {
        delete operation.security;
        delete operation[REQUIRED_SCOPES_EXTENSION];
        continue;
      }
      protectedOperations++;
      operation.security = [{ [SECURITY_SCHEME]: [] }];
      operation[REQUIRED_SCOPES_EXTENSION] = route.requiredScopes;
      addErrorResponse(operation.responses, '401', 'The credential is missing, malformed, unknown, revoked or expired.');
      if (route.requiredScopes.length) {
        addErrorResponse(operation.responses, '403', `The credential lacks a required scope (${route.requiredScopes.join(', ')}).`);
      }
      addErrorResponse(operation.responses, '429', 'The credential sent too many requests; retry once Retry-After has passed.', RETRY_AFTER);
    }
  }
  if (protectedOperations || usesErrorSchema(document)) {
    document.components = { ...document.components, schemas: { ...document.components?.schemas } };
    document.components.schemas![ERROR_SCHEMA] ??= ERROR_RESPONSE_SCHEMA;
  }
  const descriptions = new Map<string, string>([
    ['Platform', 'Version metadata, the OpenAPI document and the capabilities of the calling credential.'],
    ...API_RESOURCE_GROUPS.map((group) => [group.name, group.description] as [string, string]),
  ]);
  const declared = new Map((document.tags ?? []).map((tag) => [tag.name, tag]));
  document.tags = tags.map((name): TagObject => declared.get(name) ?? (descriptions.has(name) ? { name, description: descriptions.get(name) } : { name }));
  return document;
}

function addErrorResponse(responses: ResponsesObject, status: string, description: string, headers?: ResponseObject['headers']): void {
  responses[status] ??= { description, content: ERROR_CONTENT, ...(headers ? { headers } : {}) };
}

const RETRY_AFTER: ResponseObject['headers'] = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } };

const usesErrorSchema = (document: OpenAPIObject) => JSON.stringify(document.paths).includes(`"#/components/schemas/${ERROR_SCHEMA}"`);

/** What each domain error status means, in the words every operation shares. */
const ERROR_STATUS_DESCRIPTIONS = {
  400: 'The request is invalid; `details.field` names the first problem.',
  404: 'No such resource in this workspace.',
  409: 'The request conflicts with the current state (a name taken, a record in use, or one that already exists).',
  422: 'The request is well formed but cannot be carried out in the current state.',
} as const;

export type DomainErrorStatus = keyof typeof ERROR_STATUS_DESCRIPTIONS;

/**
 * Documents the error statuses a handler answers beyond authentication (401, 403 and 429 are added to every
 * protected operation by finalizeDocument), each with the shared error body.
 */
export const ApiErrorResponses = (...statuses: DomainErrorStatus[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, description: ERROR_STATUS_DESCRIPTIONS[status], content: ERROR_CONTENT })));

const stringList: SchemaObject = { type: 'array', items: { type: 'string' } };
const url: SchemaObject = { type: 'string', format: 'uri' };

/** The contract's error body: the permission-recovery members are present on 403s, `prerequisite` and `retry` where they apply. */
const ERROR_RESPONSE_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'Every non-2xx answer. Permission errors add required_scopes, missing_scopes and recovery fields beside code and message.',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['type', 'code', 'message'],
      properties: {
        type: {
          type: 'string',
          enum: ['invalid_request', 'authentication_error', 'permission_error', 'not_found', 'conflict', 'api_error'],
        },
        code: { type: 'string', description: 'Stable machine-readable code; match on it rather than on the message.' },
        message: { type: 'string', description: 'Plain-language explanation.' },
        details: {
          type: 'object',
          additionalProperties: false,
          description: 'The failing field, the reason, or the resource concerned.',
          properties: {
            field: { type: 'string' },
            reason: { type: 'string' },
            resource: {
              type: 'object',
              additionalProperties: false,
              required: ['type', 'id'],
              properties: { type: { type: 'string' }, id: { type: 'string' } },
            },
          },
        },
        required_scopes: { ...stringList, description: 'Every scope the operation needs.' },
        missing_scopes: { ...stringList, description: 'The required scopes this credential lacks.' },
        replacement_scopes: { ...stringList, description: 'The scopes a replacement key should have: its current ones plus the missing ones.' },
        credential_type: { type: 'string', enum: ['workspace_api_key', 'oauth_access_token'] },
        recommended_work_profiles: { ...stringList, description: 'Work profiles whose scopes cover the operation.' },
        access_update_url: { ...url, description: 'Where the scopes of the credential are changed.' },
        reconnect_required: { type: 'boolean', description: 'True when an OAuth connection must be authorized again.' },
        permissions_help_url: { ...url, description: 'Documentation about scopes and how to add them.' },
        recovery: {
          type: 'object',
          additionalProperties: false,
          description: 'The recovery advice in one object, for programs.',
          required: ['action', 'message'],
          properties: {
            action: { type: 'string', enum: ['replace_api_key', 'reconnect_oauth'] },
            message: { type: 'string' },
            replacement_scopes: stringList,
            access_update_url: url,
            permissions_help_url: url,
          },
        },
        prerequisite: {
          type: 'object',
          description: 'A resource that must exist or be enabled first.',
          properties: {
            resource: { type: 'string' },
            state: { type: 'string', enum: ['missing', 'disabled'] },
            required_scopes: stringList,
            work_profile: { type: 'string' },
            setup_url: url,
          },
        },
        retry: {
          type: 'object',
          description: 'Whether retrying the same request can succeed, and how.',
          properties: { safe: { type: 'boolean' }, guidance: { type: 'string' } },
        },
      },
    },
  },
};
