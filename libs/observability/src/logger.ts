import { LoggerService } from '@nestjs/common';
import pino, { Logger, LoggerOptions } from 'pino';
import { AppConfig } from '@shared/config';

/** Paths never written to logs: credentials, cookies, secrets, email addresses. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  // pino's `*` matches exactly one level, so each key is listed at the top level too.
  ...['password', 'secret', 'api_key', 'token', 'access_token'].flatMap((key) => [key, `*.${key}`]),
  'email',
  '*.email',
  '*.email_address',
];

/**
 * An email address, also percent-encoded (`%40`) as in a raw URL. Its last label starts with a letter, as every top-level
 * domain does, so versioned package paths in stack traces (`@prisma+client@7.10.0_…`) are left readable.
 */
const EMAIL_ADDRESS = /[\w.!#$%&'*+/=?^`{|}~-]+(?:@|%40)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*/gi;
const MAX_SCRUB_DEPTH = 8;

/** Replaces every email address in a string, or in the strings of an object, with "[email]". */
export function scrubEmails<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return value.replace(EMAIL_ADDRESS, '[email]') as T;
  if (!value || typeof value !== 'object' || depth >= MAX_SCRUB_DEPTH) return value;
  if (value instanceof Error) return value; // the err serializer scrubs it
  if (Array.isArray(value)) return value.map((item: unknown) => scrubEmails(item, depth + 1)) as T;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value; // dates, buffers
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubEmails(item, depth + 1)])) as T;
}

/**
 * The pino options of every service: level, redaction of credentials, and no email address anywhere (in the
 * message, in any logged field, in errors). Request lines are written by the access log, never with raw URLs.
 */
export function loggerOptions(config: AppConfig, service: string): LoggerOptions {
  return {
    level: config.logLevel,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { log: (object) => scrubEmails(object) },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => scrubEmails(arg)) as Parameters<typeof method>);
      },
    },
    serializers: {
      err: (error: Error) => scrubEmails(pino.stdSerializers.err(error)),
      req: (request: { method?: string; routeOptions?: { url?: string } }) => ({ method: request.method, route: request.routeOptions?.url }),
    },
  };
}

export function createLogger(config: AppConfig, service: string): Logger {
  return pino(loggerOptions(config, service));
}

/**
 * Nest's own start-up narration: a line per module initialised and per route mapped. It says nothing an operator acts
 * on, so it is written at debug; the service's own `… listening` / `… started` line marks a successful start.
 */
const NEST_BOOT_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Routes Nest's own log lines into the structured pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    if (context !== undefined && NEST_BOOT_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
