import { BadRequestException, HttpException, MethodNotAllowedException, NotFoundException } from '@nestjs/common';
import { DomainError } from './domain-error';
import { SharedErrors, TooManyRequests } from './error-codes';
import { toErrorResponse } from './to-error-response';

const INTERNAL = {
  status: 500,
  body: { error: { type: 'api_error', code: 'internal_error', message: 'An unexpected error occurred. It has been logged; retrying may succeed.' } },
  headers: {},
  unexpected: true,
};

const prismaError = (code: string, meta?: object) => Object.assign(new Error('prisma says'), { name: 'PrismaClientKnownRequestError', code, meta });

describe('toErrorResponse', () => {
  describe('DomainError', () => {
    it('keeps its status, body, details, extra members and headers', () => {
      expect(toErrorResponse(TooManyRequests(7))).toEqual({
        status: 429,
        body: { error: { type: 'invalid_request', code: 'rate_limited', message: 'Too many requests. Retry after 7 seconds.' } },
        headers: { 'retry-after': '7' },
        unexpected: false,
      });
      const conflict = new DomainError('conflict', 'subscriber_exists', 'Exists.', { field: 'email' }, { existing_id: 'sub_1' });
      expect(toErrorResponse(conflict)).toEqual({
        status: 409,
        body: { error: { type: 'conflict', code: 'subscriber_exists', message: 'Exists.', details: { field: 'email' }, existing_id: 'sub_1' } },
        headers: {},
        unexpected: false,
      });
    });

    it('builds the shared errors with their listed statuses', () => {
      expect(toErrorResponse(SharedErrors.fail('missing_credential', 'Send one.'))).toMatchObject({
        status: 401,
        body: { error: { type: 'authentication_error', code: 'missing_credential', message: 'Send one.' } },
      });
      expect(toErrorResponse(SharedErrors.invalid('invalid_limit', 'm', 'limit', 'too_big')).body.error).toEqual({
        type: 'invalid_request',
        code: 'invalid_limit',
        message: 'm',
        details: { field: 'limit', reason: 'too_big' },
      });
    });

    it('treats a DomainError with a 5xx status as unexpected', () => {
      const broken = new DomainError('api_error', 'internal_error', 'boom');
      expect(toErrorResponse(broken)).toMatchObject({ status: 500, unexpected: true });
    });

    it('does not count a 501 (a feature not offered yet) as a bug', () => {
      const notOffered = new DomainError('api_error', 'mcp_not_available', 'No MCP endpoint yet.', undefined, undefined, 501);
      expect(toErrorResponse(notOffered)).toMatchObject({ status: 501, unexpected: false, body: { error: { code: 'mcp_not_available' } } });
    });
  });

  describe('Prisma errors', () => {
    it('maps a unique violation to 409 already_exists naming the fields other than workspace_id', () => {
      expect(toErrorResponse(prismaError('P2002', { target: ['workspace_id', 'email'] }))).toEqual({
        status: 409,
        body: {
          error: { type: 'conflict', code: 'already_exists', message: 'A record with the same unique value already exists.', details: { field: 'email' } },
        },
        headers: {},
        unexpected: false,
      });
      expect(toErrorResponse(prismaError('P2002', { target: ['workspace_id', 'name', 'kind'] })).body.error.details).toEqual({ field: 'name,kind' });
      expect(toErrorResponse(prismaError('P2002', { target: 'subscribers_email_key' })).body.error.details).toEqual({ field: 'subscribers_email_key' });
    });

    it('leaves details out when the violated fields are unknown', () => {
      for (const meta of [undefined, {}, { target: ['workspace_id'] }, { target: 42 }]) {
        const { status, body } = toErrorResponse(prismaError('P2002', meta));
        expect(status).toBe(409);
        expect(body.error).not.toHaveProperty('details');
      }
    });

    it('maps a missing record to 404 resource_not_found', () => {
      expect(toErrorResponse(prismaError('P2025'))).toEqual({
        status: 404,
        body: { error: { type: 'not_found', code: 'resource_not_found', message: 'The requested record does not exist.' } },
        headers: {},
        unexpected: false,
      });
    });

    it('treats any other Prisma error, or these codes from something else, as a bug', () => {
      expect(toErrorResponse(prismaError('P2003'))).toEqual(INTERNAL);
      expect(toErrorResponse(Object.assign(new Error('x'), { code: 'P2002' }))).toEqual(INTERNAL);
    });
  });

  describe('Nest HttpExceptions', () => {
    it('maps client statuses to their envelope type and code, keeping the message', () => {
      const cases: [number, string, string][] = [
        [401, 'authentication_error', 'invalid_credential'],
        [403, 'permission_error', 'insufficient_scope'],
        [409, 'conflict', 'already_exists'],
        [413, 'invalid_request', 'payload_too_large'],
        [415, 'invalid_request', 'unsupported_media_type'],
        [429, 'invalid_request', 'rate_limited'],
        [418, 'invalid_request', 'validation_failed'],
      ];
      for (const [status, type, code] of cases) {
        expect(toErrorResponse(new HttpException('told you', status))).toEqual({
          status,
          body: { error: { type, code, message: 'told you' } },
          headers: {},
          unexpected: false,
        });
      }
      expect(toErrorResponse(new MethodNotAllowedException('nope')).body.error).toEqual({
        type: 'invalid_request',
        code: 'method_not_allowed',
        message: 'nope',
      });
    });

    it('answers an unknown route with a fixed message', () => {
      expect(toErrorResponse(new NotFoundException('Cannot GET /secret/admin'))).toEqual({
        status: 404,
        body: { error: { type: 'not_found', code: 'route_not_found', message: 'No route matches this method and path.' } },
        headers: {},
        unexpected: false,
      });
    });

    it('recognises the JSON body-parser failure Nest rethrows as a plain 400', () => {
      expect(toErrorResponse(new BadRequestException('Unexpected token } in JSON at position 3')).body.error).toEqual({
        type: 'invalid_request',
        code: 'invalid_json',
        message: 'The request body is not valid JSON.',
      });
      expect(toErrorResponse(new BadRequestException('name must be a string')).body.error).toEqual({
        type: 'invalid_request',
        code: 'validation_failed',
        message: 'name must be a string',
      });
    });

    it('never shows the message of a 5xx HttpException', () => {
      expect(toErrorResponse(new HttpException('database password is hunter2', 500))).toEqual(INTERNAL);
      expect(toErrorResponse(new HttpException('upstream', 502))).toEqual(INTERNAL);
    });
  });

  describe('Fastify transport errors', () => {
    it('maps the body-parser codes, with their status or 400', () => {
      const tooLarge = Object.assign(new Error('Request body is too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
      expect(toErrorResponse(tooLarge)).toEqual({
        status: 413,
        body: { error: { type: 'invalid_request', code: 'payload_too_large', message: 'The request body is too large.' } },
        headers: {},
        unexpected: false,
      });
      const media = Object.assign(new Error('Unsupported Media Type'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 });
      expect(toErrorResponse(media).body.error).toEqual({
        type: 'invalid_request',
        code: 'unsupported_media_type',
        message: 'Send request bodies as application/json.',
      });
      const json = Object.assign(new Error('Body is not valid JSON but content-type is set to json'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
      expect(toErrorResponse(json)).toMatchObject({ status: 400, body: { error: { code: 'invalid_json', message: 'The request body is not valid JSON.' } } });
      const empty = Object.assign(new Error('empty'), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 });
      expect(toErrorResponse(empty).body.error.message).toBe('The request declares a JSON body but sent none.');
      const length = Object.assign(new Error('length'), { code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', statusCode: 400 });
      expect(toErrorResponse(length).body.error).toEqual({
        type: 'invalid_request',
        code: 'invalid_json',
        message: 'The Content-Length header does not match the body.',
      });
    });

    it('maps a JSON SyntaxError flagged 400 to invalid_json, and any other SyntaxError to a bug', () => {
      const parse = Object.assign(new SyntaxError('Unexpected end of JSON input'), { statusCode: 400 });
      expect(toErrorResponse(parse)).toEqual({
        status: 400,
        body: { error: { type: 'invalid_request', code: 'invalid_json', message: 'The request body is not valid JSON.' } },
        headers: {},
        unexpected: false,
      });
      expect(toErrorResponse(new SyntaxError('Unexpected token'))).toEqual(INTERNAL);
    });

    it('answers other 4xx transport errors with a generic message, never their own', () => {
      const error = Object.assign(new Error('internal detail /etc/passwd'), { statusCode: 403 });
      expect(toErrorResponse(error)).toEqual({
        status: 403,
        body: { error: { type: 'permission_error', code: 'insufficient_scope', message: 'The request could not be processed.' } },
        headers: {},
        unexpected: false,
      });
      expect(toErrorResponse({ statusCode: 400 }).body.error.code).toBe('validation_failed');
      expect(toErrorResponse({ statusCode: 499 }).body.error).toMatchObject({ type: 'invalid_request', code: 'validation_failed' });
    });

    it('treats a transport status outside 400-499, or an unknown code, as a bug', () => {
      expect(toErrorResponse({ statusCode: 500, message: 'x' })).toEqual(INTERNAL);
      expect(toErrorResponse({ statusCode: 399 })).toEqual(INTERNAL);
      expect(toErrorResponse({ statusCode: '404' })).toEqual(INTERNAL);
      expect(toErrorResponse(Object.assign(new Error('x'), { code: 'FST_ERR_SOMETHING_ELSE' }))).toEqual(INTERNAL);
    });
  });

  it('treats anything else thrown as a bug and never leaks it', () => {
    for (const thrown of [new Error('SELECT * FROM api_keys'), new TypeError('x is undefined'), 'a string', 42, null, undefined, {}]) {
      expect(toErrorResponse(thrown)).toEqual(INTERNAL);
    }
  });
});
