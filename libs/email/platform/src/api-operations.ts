import type { OpenAPIObject } from '@nestjs/swagger';
import { ApiDocumentOperation, REQUIRED_SCOPES_EXTENSION } from './openapi-document';

/** One operation of the OpenAPI document, flattened for capabilities and the llms files. */
export interface ApiOperationInfo {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  isPublic: boolean;
  requiredScopes: string[];
  operation: ApiDocumentOperation;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options', 'head', 'trace'] as const;

/** Every operation of a finalized document (see finalizeDocument), in document order. */
export function listApiOperations(document: OpenAPIObject): ApiOperationInfo[] {
  const operations: ApiOperationInfo[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation: ApiDocumentOperation | undefined = item[method];
      if (!operation?.operationId) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        summary: operation.summary ?? '',
        tags: operation.tags ?? [],
        isPublic: !operation.security?.length,
        requiredScopes: operation[REQUIRED_SCOPES_EXTENSION] ?? [],
        operation,
      });
    }
  }
  return operations;
}
