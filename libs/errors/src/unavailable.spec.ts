import { isDependencyOutage, ServiceUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './unavailable';
import { toErrorResponse } from './to-error-response';

const errorWith = (fields: Record<string, unknown>) => Object.assign(new Error(typeof fields.message === 'string' ? fields.message : 'x'), fields);

describe('isDependencyOutage', () => {
  it.each([
    ['ioredis giving up on a command', errorWith({ name: 'MaxRetriesPerRequestError' })],
    ['an ioredis command timeout', errorWith({ message: 'Command timed out' })],
    ['a closed Redis connection', errorWith({ message: 'Connection is closed.' })],
    ['an unwritable Redis stream', errorWith({ message: "Stream isn't writeable and enableOfflineQueue options is false" })],
    ['Prisma: server unreachable', errorWith({ code: 'P1001' })],
    ['Prisma: pool timeout', errorWith({ code: 'P2024' })],
    ['the pg adapter: database not reachable', errorWith({ meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } })],
    ['the pg adapter: too many connections', errorWith({ meta: { driverAdapterError: { cause: { kind: 'TooManyConnections' } } } })],
    ['a refused socket', errorWith({ code: 'ECONNREFUSED' })],
    ['a reset socket', errorWith({ code: 'ECONNRESET' })],
    ['PostgreSQL shutting down', errorWith({ code: '57P01', severity: 'FATAL' })],
    ['PostgreSQL connection failure class', errorWith({ code: '08006', severity: 'FATAL' })],
    ['PostgreSQL out of connections', errorWith({ code: '53300', severity: 'FATAL' })],
    ['the pg connect timeout', errorWith({ message: 'timeout exceeded when trying to connect' })],
    ['a terminated pg connection', errorWith({ message: 'Connection terminated unexpectedly' })],
  ])('recognises %s', (_case, error) => {
    expect(isDependencyOutage(error)).toBe(true);
  });

  it.each([
    ['nothing', undefined],
    ['null', null],
    ['a string naming an outage', 'ECONNREFUSED'],
    ['a plain bug', new TypeError('x is undefined')],
    ['a unique violation', errorWith({ code: 'P2002' })],
    ['a pg syntax error', errorWith({ code: '42601', severity: 'ERROR' })],
    ['an outage SQLSTATE without a server severity', errorWith({ code: '08006' })],
    ['an unrelated adapter error', errorWith({ meta: { driverAdapterError: { cause: { kind: 'UniqueConstraintViolation' } } } })],
    ['an outage phrase in the middle of a message', errorWith({ message: 'user said: Command timed out' })],
    ['a numeric code', errorWith({ code: 1001 })],
    ['an unrelated error name', errorWith({ name: 'ReplyError' })],
  ])('does not mistake %s for an outage', (_case, error) => {
    expect(isDependencyOutage(error)).toBe(false);
  });
});

describe('ServiceUnavailable', () => {
  it('is a 503 with Retry-After that is not logged as a bug', () => {
    expect(toErrorResponse(ServiceUnavailable())).toEqual({
      status: 503,
      body: {
        error: {
          type: 'api_error',
          code: 'service_unavailable',
          message: `The service cannot reach its data store right now. Retry after ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds.`,
        },
      },
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
      unexpected: false,
    });
  });

  it('is what toErrorResponse answers for an outage, whatever was thrown', () => {
    expect(toErrorResponse(errorWith({ code: 'ECONNREFUSED' }))).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable' } } });
  });
});
