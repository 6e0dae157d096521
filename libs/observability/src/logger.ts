import { LoggerService } from '@nestjs/common';
import pino, { Logger, LoggerOptions } from 'pino';
import { AppConfig } from '@shared/config';

/** Paths never written to logs: credentials, cookies, secrets. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.api_key',
  '*.token',
];

export function loggerOptions(config: AppConfig, service: string): LoggerOptions {
  return { level: config.logLevel, base: { service }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

export function createLogger(config: AppConfig, service: string): Logger {
  return pino(loggerOptions(config, service));
}

/** Routes Nest's own log lines into the structured pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
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
