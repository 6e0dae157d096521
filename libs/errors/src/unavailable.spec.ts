import { clientErrorResponse } from './client-error';
import { DomainError } from './domain-error';
import { toErrorResponse } from './to-error-response';
import { isDependencyOutage } from './unavailable';

const error = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? 'x')), fields);

describe('isDependencyOutage', () => {
  it.each([
    ['ioredis gave up reconnecting', error({ name: 'MaxRetriesPerRequestError' })],
    ['ioredis command timeout', error({ message: 'Command timed out' })],
    ['ioredis closed connection', error({ message: 'Connection is closed.' })],
    ['Prisma cannot reach the server', error({ name: 'PrismaClientKnownRequestError', code: 'P1001' })],
    ['Prisma pool timeout', error({ name: 'PrismaClientKnownRequestError', code: 'P2024' })],
    ['the pg adapter says unreachable', error({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } })],
    ['the pg adapter says the connection closed', error({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'ConnectionClosed' } } } })],
    ['a refused socket', error({ code: 'ECONNREFUSED' })],
    ['pg connect timeout', error({ message: 'Connection terminated due to connection timeout' })],
    ['PostgreSQL shutting down', error({ code: '57P01', severity: 'FATAL' })],
    ['PostgreSQL out of connections', error({ code: '53300', severity: 'FATAL' })],
    ['a connection that failed', error({ code: '08006', severity: 'FATAL' })],
    ['a connection that could not be made', error({ code: '08001', severity: 'FATAL' })],
  ])('%s is an outage', (_case, thrown) => {
    expect(isDependencyOutage(thrown)).toBe(true);
  });

  it.each([
    ['a unique violation', error({ name: 'PrismaClientKnownRequestError', code: 'P2002' })],
    ['a SQL error of the query', error({ code: '22021', severity: 'ERROR' })],
    ['a protocol violation (too many bind parameters)', error({ code: '08P01', severity: 'ERROR', message: 'bind message has 65601 parameter formats' })],
    ['the pg adapter on bad input', error({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'InvalidInputValue' } } } })],
    ['a plain bug', new TypeError('x is undefined')],
    ['nothing', undefined],
    ['a string', 'Command timed out'],
  ])('%s is not', (_case, thrown) => {
    expect(isDependencyOutage(thrown)).toBe(false);
  });
});

describe('toErrorResponse for outages and transport errors', () => {
  it('an outage is a 503 service_unavailable with Retry-After, not logged as a bug', () => {
    const response = toErrorResponse(error({ name: 'MaxRetriesPerRequestError' }));
    expect(response).toEqual({
      status: 503,
      body: { error: { type: 'api_error', code: 'service_unavailable', message: expect.stringContaining('Retry after 5 seconds') } },
      headers: { 'retry-after': '5' },
      unexpected: false,
    });
  });

  it('a bug is still a logged 500', () => {
    expect(toErrorResponse(new Error('boom'))).toMatchObject({ status: 500, unexpected: true });
    expect(toErrorResponse(new DomainError('api_error', 'internal_error', 'x'))).toMatchObject({ status: 500, unexpected: true });
  });

  it('maps Fastify router errors into the envelope', () => {
    expect(toErrorResponse(error({ code: 'FST_ERR_BAD_URL', statusCode: 400 }))).toMatchObject({ status: 400, body: { error: { code: 'invalid_path' } } });
    expect(toErrorResponse(error({ code: 'FST_ERR_MAX_PARAM_LENGTH', statusCode: 414 }))).toMatchObject({
      status: 414,
      body: { error: { type: 'invalid_request', code: 'path_too_long' } },
    });
  });

  it('answers unreadable requests with raw HTTP carrying the envelope', () => {
    const raw = clientErrorResponse({ code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(head).toContain(`content-length: ${Buffer.byteLength(body)}`);
    expect(head).toContain('connection: close');
    expect(JSON.parse(body)).toEqual({ error: { type: 'invalid_request', code: 'request_timeout', message: expect.any(String) } });
    expect(clientErrorResponse({ code: 'HPE_HEADER_OVERFLOW' })).toMatch(/^HTTP\/1\.1 431 /);
    expect(clientErrorResponse({ code: 'HPE_INVALID_METHOD' })).toContain('"malformed_request"');
  });
});
