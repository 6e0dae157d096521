import { HttpException } from '@nestjs/common';
import { DomainError, ErrorBody, ErrorType, ERROR_STATUS } from './domain-error';

import { isDependencyOutage, ServiceUnavailable } from './unavailable';

export interface ErrorResponse {
  status: number;
  body: { error: ErrorBody };
  headers: Record<string, string>;
  /** True when the error is a bug (5xx other than an unreachable data store) and must be logged with its stack. */
  unexpected: boolean;
}

const TYPE_BY_STATUS: Record<number, ErrorType> = {
  400: 'invalid_request',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found',
  409: 'conflict',
};

const CODE_BY_STATUS: Record<number, string> = {
  400: 'validation_failed',
  401: 'invalid_credential',
  403: 'insufficient_scope',
  404: 'route_not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'already_exists',
  413: 'payload_too_large',
  414: 'path_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
};

/**
 * The longest path parameter the APIs route (Fastify's `maxParamLength`; its default is 100): an Idempotency-Key in
 * GET /api/v1/form-creations/{key} may be 255 visible ASCII characters, each perhaps percent-encoded to three.
 */
export const MAX_PATH_PARAM_LENGTH = 3 * 255;

const FASTIFY_CODES: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'The request declares a JSON body but sent none.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'Send request bodies as application/json.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_json', message: 'The Content-Length header does not match the body.' },
  FST_ERR_BAD_URL: { code: 'invalid_path', message: 'The path contains malformed percent-encoding.' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'path_too_long', message: `A path segment is longer than ${MAX_PATH_PARAM_LENGTH} characters.` },
};

/** 5xx answers that are deliberate, not bugs: 501 for a feature not offered yet, 503 for an unreachable data store. */
const DELIBERATE_SERVER_STATUSES = new Set([501, 503]);

function envelope(status: number, body: ErrorBody, headers: Record<string, string> = {}): ErrorResponse {
  return { status, body: { error: body }, headers, unexpected: status >= 500 && !DELIBERATE_SERVER_STATUSES.has(status) };
}

function clientStatusType(status: number): ErrorType {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request');
}

/** Maps anything thrown while serving a request to the error envelope. Never leaks stacks or SQL. */
export function toErrorResponse(exception: unknown): ErrorResponse {
  if (exception instanceof DomainError) return envelope(exception.status, exception.toBody(), exception.headers);
  if (isDependencyOutage(exception)) return toErrorResponse(ServiceUnavailable());

  const prismaError = exception as { name?: string; code?: string; meta?: { target?: unknown; modelName?: string } };
  if (prismaError?.name === 'PrismaClientKnownRequestError') {
    if (prismaError.code === 'P2002') {
      const target = prismaError.meta?.target;
      const field = Array.isArray(target) ? target.filter((t) => t !== 'workspace_id').join(',') : typeof target === 'string' ? target : undefined;
      return envelope(409, {
        type: 'conflict',
        code: 'already_exists',
        message: 'A record with the same unique value already exists.',
        ...(field ? { details: { field } } : {}),
      });
    }
    if (prismaError.code === 'P2025') {
      return envelope(404, { type: 'not_found', code: 'resource_not_found', message: 'The requested record does not exist.' });
    }
  }

  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const type = clientStatusType(status);
    if (status >= 500) return internal();
    // Nest re-throws Fastify's body-parser failures as plain 400 HttpExceptions, keeping only the message.
    if (status === 400 && /json/i.test(exception.message)) {
      return envelope(400, { type, code: 'invalid_json', message: 'The request body is not valid JSON.' });
    }
    const message = status === 404 ? 'No route matches this method and path.' : exception.message;
    return envelope(status, { type, code: CODE_BY_STATUS[status] ?? 'validation_failed', message });
  }

  const transportError = exception as { code?: string; statusCode?: number; message?: string };
  const fastify = transportError?.code ? FASTIFY_CODES[transportError.code] : undefined;
  if (fastify) {
    const status = transportError.statusCode ?? 400;
    return envelope(status, { type: clientStatusType(status), code: fastify.code, message: fastify.message });
  }
  if (exception instanceof SyntaxError && transportError.statusCode === 400) {
    return envelope(400, { type: 'invalid_request', code: 'invalid_json', message: 'The request body is not valid JSON.' });
  }
  if (typeof transportError?.statusCode === 'number' && transportError.statusCode >= 400 && transportError.statusCode < 500) {
    const status = transportError.statusCode;
    return envelope(status, {
      type: clientStatusType(status),
      code: CODE_BY_STATUS[status] ?? 'validation_failed',
      message: 'The request could not be processed.',
    });
  }
  return internal();
}

function internal(): ErrorResponse {
  return envelope(ERROR_STATUS.api_error, {
    type: 'api_error',
    code: 'internal_error',
    message: 'An unexpected error occurred. It has been logged; retrying may succeed.',
  });
}
