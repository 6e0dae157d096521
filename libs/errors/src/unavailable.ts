import { SharedErrors } from './error-codes';

/** What a client is told to wait before retrying while Redis or PostgreSQL is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export const ServiceUnavailable = () =>
  SharedErrors.fail('service_unavailable', `The service cannot reach its data store right now. Retry after ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds.`, {
    headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  });

// ioredis: a command that could not be sent or answered (Redis down, or slower than REDIS_COMMAND_TIMEOUT_MS).
const REDIS_OUTAGE_NAMES = new Set(['MaxRetriesPerRequestError']);
const REDIS_OUTAGE_MESSAGES = /^(Command timed out|Connection is closed\.|Stream isn't writeable)/;
// Prisma over the pg adapter: the kinds that mean the server is away, not that the query is wrong.
const PRISMA_OUTAGE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const DRIVER_OUTAGE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
// node-postgres: socket errors, its connect timeout, and the server's shutdown or overload SQLSTATEs. Of class 08 only
// the states of a connection that failed or could not be made: 08P01 (protocol violation, e.g. too many bind
// parameters) is the statement's fault and fails the same way on every retry.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE']);
const PG_OUTAGE_STATES = /^(0800[013467]|57P0[123]|53300)$/;
const PG_OUTAGE_MESSAGES = /timeout exceeded when trying to connect|Connection terminated/;

interface OutageShape {
  name?: string;
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } };
}

/** Whether `error` says a data store is unreachable (so the request may succeed later), rather than that it is wrong. */
export function isDependencyOutage(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { name, code, message, meta, severity } = error as OutageShape;
  const text = typeof message === 'string' ? message : '';
  if (name && REDIS_OUTAGE_NAMES.has(name)) return true;
  if (REDIS_OUTAGE_MESSAGES.test(text)) return true;
  if (typeof code === 'string' && PRISMA_OUTAGE_CODES.has(code)) return true;
  const kind = meta?.driverAdapterError?.cause?.kind;
  if (kind && DRIVER_OUTAGE_KINDS.has(kind)) return true;
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
  if (typeof code === 'string' && typeof severity === 'string' && PG_OUTAGE_STATES.test(code)) return true;
  return PG_OUTAGE_MESSAGES.test(text);
}
