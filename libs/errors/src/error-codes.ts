import { defineErrorCodes, errorFactory } from './registry';

/** The codes both services can return (HTTP edges, authentication, paging, idempotency, limits, outages). */
export const SHARED_ERROR_CODES = defineErrorCodes({
  validation_failed: {
    type: 'invalid_request',
    description: 'A field is missing, has the wrong type, or holds a value outside its rules; `details.field` names it.',
  },
  invalid_json: {
    type: 'invalid_request',
    description: 'The body is not valid JSON, is empty while declaring JSON, or its length does not match Content-Length.',
  },
  invalid_characters: { type: 'invalid_request', description: 'A string holds a NUL character or an unpaired surrogate, which cannot be stored.' },
  input_too_deep: { type: 'invalid_request', description: 'The body nests objects or arrays deeper than the service accepts.' },
  unsupported_media_type: { type: 'invalid_request', status: 415, description: 'The body is sent with a media type the route does not take.' },
  payload_too_large: { type: 'invalid_request', status: 413, description: 'The body (or an uploaded file) is larger than the route accepts.' },
  route_not_found: { type: 'not_found', description: 'No route matches this method and path.' },
  invalid_path: { type: 'invalid_request', description: 'The path holds malformed percent-encoding.' },
  path_too_long: { type: 'invalid_request', status: 414, description: 'A path segment is longer than the service accepts.' },
  malformed_request: { type: 'invalid_request', description: 'The request is not valid HTTP (framing, Content-Length).' },
  request_timeout: { type: 'invalid_request', status: 408, description: 'The request was not received completely in time.' },
  headers_too_large: { type: 'invalid_request', status: 431, description: 'The request headers are larger than the service accepts.' },
  method_not_allowed: { type: 'invalid_request', status: 405, description: 'The route exists but does not take this method.' },
  already_exists: { type: 'conflict', description: 'A record with the same unique value exists already.' },
  resource_not_found: { type: 'not_found', description: 'The record the request names does not exist (or is not visible to this credential).' },
  missing_credential: { type: 'authentication_error', description: 'No `Authorization: Bearer <key>` header was sent.' },
  invalid_credential: { type: 'authentication_error', description: 'The credential is malformed or unknown.' },
  credential_revoked: { type: 'authentication_error', description: 'The credential was revoked or replaced by a newer one.' },
  credential_expired: { type: 'authentication_error', description: 'The credential is past its expiry time.' },
  unknown_scope: { type: 'invalid_request', description: 'A requested API key scope does not exist.' },
  insufficient_scope: { type: 'permission_error', description: 'The credential lacks a scope the operation needs; the body lists the missing scopes.' },
  invalid_cursor: { type: 'invalid_request', description: 'The paging cursor is malformed, tampered with, or belongs to another list.' },
  invalid_limit: { type: 'invalid_request', description: 'The page size is not a whole number in the allowed range.' },
  idempotency_key_reused: { type: 'conflict', description: 'The Idempotency-Key was used before with a different request.' },
  idempotency_key_in_progress: { type: 'conflict', description: 'A request with this Idempotency-Key is still running; retry shortly.' },
  idempotency_key_required: { type: 'invalid_request', description: 'The operation sends something for real, so it needs an `Idempotency-Key` header.' },
  invalid_idempotency_key: {
    type: 'invalid_request',
    description: 'The Idempotency-Key header is empty, too long, or holds characters other than visible ASCII.',
  },
  rate_limited: { type: 'invalid_request', status: 429, description: 'Too many requests; wait the number of seconds in `Retry-After`.' },
  internal_error: { type: 'api_error', description: 'An unexpected failure on our side; it is logged with the request id.' },
  service_unavailable: { type: 'api_error', status: 503, description: 'A data store is unreachable for a moment; retry after `Retry-After` seconds.' },
});

export type SharedErrorCode = keyof typeof SHARED_ERROR_CODES;

/** Constructors for the shared codes, used by the shared libs. */
export const SharedErrors = errorFactory(SHARED_ERROR_CODES);

export const TooManyRequests = (retryAfterSeconds: number) =>
  SharedErrors.fail('rate_limited', `Too many requests. Retry after ${retryAfterSeconds} seconds.`, { headers: { 'retry-after': String(retryAfterSeconds) } });
